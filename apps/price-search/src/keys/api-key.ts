/**
 * @module
 * API keys: 32 random bytes behind a `psk_` prefix. Only the SHA-256 of a key is stored; the raw key is shown
 * once, at creation. SHA-256 without salt is enough here: keys are random, not passwords, so there is nothing
 * to guess from a dictionary.
 */
import { hash, randomBytes } from 'node:crypto';

const PREFIX = 'psk_';
const KEY_SHAPE = /^psk_[A-Za-z0-9_-]{43}$/;

/** A new raw API key. */
export function generateApiKey(): string {
  return `${PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** A new key id, shown in listings and used to revoke (not secret). */
export function generateKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

/** The stored form of a key. */
export function hashApiKey(rawKey: string): string {
  return hash('sha256', rawKey, 'hex');
}

/** True when the text has the shape of a key (checked before hashing, so junk is refused cheaply). */
export function looksLikeApiKey(text: string): boolean {
  return KEY_SHAPE.test(text);
}
