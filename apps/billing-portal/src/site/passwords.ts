/**
 * @module
 * Password hashing for the demo's users: scrypt (node:crypto) with a random 16-byte salt per
 * user, stored as `scrypt$N$r$p$salt$hash`, compared in constant time. Cost N = 2^15, r = 8,
 * p = 1 (OWASP's scrypt minimum is N = 2^17 with p = 1, or 2^15 with a higher memory bound; the
 * demo takes 2^15 so a login stays near 50 ms on these 2-core machines; ADR 0804).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** scrypt needs 128 * N * r bytes; allow twice that. */
const MAX_MEMORY = 256 * COST * BLOCK_SIZE;

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N: cost, r: blockSize, p: parallelism, maxmem: Math.max(MAX_MEMORY, 256 * cost * blockSize) },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** A new hash of a password, with a fresh salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, COST, BLOCK_SIZE, PARALLELISM);
  return ['scrypt', COST, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether a password matches a stored hash; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, blockSize, parallelism, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !blockSize || !parallelism || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    Number(cost),
    Number(blockSize),
    Number(parallelism),
  );
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let decoy: Promise<string> | null = null;

/** A hash of a random password, checked when an email is unknown, so that timing does not tell which emails exist. */
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(18).toString('base64url'));
  return decoy;
}

/** A readable random password: 4 groups of 5 letters and digits (about 100 bits). */
export function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(20);
  let password = '';
  for (let index = 0; index < 20; index += 1) {
    if (index > 0 && index % 5 === 0) password += '-';
    password += alphabet[(bytes[index] ?? 0) % alphabet.length];
  }
  return password;
}
