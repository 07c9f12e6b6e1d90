/**
 * @module
 * The compact idempotency key of a usage event (ADR 0717): the first 16 bytes of the SHA-256 of
 * the seed's identity tuple (account, environment, customer, action, event key, occurred at),
 * fields in UTF-8 separated by a zero byte. The unique index holds these 16 bytes instead of the
 * six texts, so every insert writes a short entry. A hash is not an identity: whoever finds an
 * event by its hash compares the whole tuple before calling it the same event, so a collision can
 * never merge two events (`sameIdentity`).
 *
 * Since migration 0252 (ADR 0738) the stored key leads with the event's `occurred_at`: eight
 * bytes of its digits (`usageIdempotencyKey`), then the 16-byte hash. Events that happen close
 * together in time (what clients send: the time of the event, about now) insert next to each
 * other in the index, so a batch dirties a page or two of it instead of one page per event.
 */
import { hash } from 'node:crypto';
import type { Scope } from '@drawdown/billing-core';

export interface UsageIdentity {
  readonly customerId: string;
  readonly action: string;
  readonly eventKey: string;
  readonly occurredAt: string;
}

/** The identity tuple's SHA-256 (the one-shot hash, Node ≥ 20.12: no Hash object per event). */
function digestOf(scope: Scope, event: UsageIdentity): Buffer {
  return hash(
    'sha256',
    `${scope.accountId}\u0000${scope.environment}\u0000${event.customerId}\u0000${event.action}\u0000${event.eventKey}\u0000${event.occurredAt}`,
    'buffer',
  );
}

/** The 16-byte hash (ADR 0717), the stored key's last 16 bytes. PostgreSQL computes the same in migration 0200's backfill. */
export function usageIdempotencyHash(scope: Scope, event: UsageIdentity): Buffer {
  return digestOf(scope, event).subarray(0, 16);
}

/**
 * The stored key (ADR 0738): `occurred_at`'s digits as two big-endian 32-bit integers, the date
 * (YYYYMMDD) and the time of day to the millisecond (HHMMSSmmm, further digits dropped, missing
 * ones zero), then the 16-byte hash. A pure function of the identity, like the hash alone; the
 * prefix only orders the index by time. `occurred_at` is the canonical spelling validation gives
 * (`canonicalTimestamp`: four-digit year, `Z`), so the digits sit at fixed places.
 */
export function usageIdempotencyKey(scope: Scope, event: UsageIdentity): Buffer {
  const key = Buffer.allocUnsafe(24);
  writeTimePrefix(key, event.occurredAt);
  digestOf(scope, event).copy(key, 8, 0, 16);
  return key;
}

/**
 * The key's first eight bytes, from `occurred_at`'s text as `sqlIdempotencyKey` computes them in
 * SQL (read digit by digit: no strings made per event).
 */
function writeTimePrefix(key: Buffer, occurredAt: string): void {
  const digits = (positions: readonly number[]): number => {
    let value = 0;
    for (const position of positions) value = value * 10 + occurredAt.charCodeAt(position) - 48;
    return value;
  };
  let time = digits(TIME_OF_DAY);
  // The fraction's first three digits, zeros where it has fewer; the text ends with `Z`.
  const fractional = occurredAt.charCodeAt(19) === 46;
  for (let position = 20; position < 23; position += 1) {
    time = time * 10 + (fractional && position < occurredAt.length - 1 ? occurredAt.charCodeAt(position) - 48 : 0);
  }
  key.writeUInt32BE(digits(DATE), 0);
  key.writeUInt32BE(time, 4);
}

/** Where the digits of the date (YYYY-MM-DD) and the time of day (THH:MM:SS) sit. */
const DATE = [0, 1, 2, 3, 5, 6, 8, 9];
const TIME_OF_DAY = [11, 12, 14, 15, 17, 18];

const DATE_DIGITS = `cast(substr(occurred_at, 1, 4) || substr(occurred_at, 6, 2) || substr(occurred_at, 9, 2) as integer)`;
const TIME_DIGITS = `cast(substr(occurred_at, 12, 2) || substr(occurred_at, 15, 2) || substr(occurred_at, 18, 2) ||
  substr(case when substr(occurred_at, 20, 1) = '.' then substr(occurred_at, 21, length(occurred_at) - 21) else '' end
    || '000', 1, 3) as integer)`;
/**
 * The stored key in SQL, from `usage_events.occurred_at` and a 16-byte hash expression (migration
 * 0252): the same digits as `writeTimePrefix`, two 32-bit big-endian integers (both below 2³¹, so
 * PostgreSQL's signed `int4send` and SQLite's hex spell the same bytes). SQLite's `||` makes
 * text of blobs, so its key is spelt in hex and decoded once.
 */
export function sqlIdempotencyKey(dialect: 'postgres' | 'sqlite', hashExpression: string): string {
  return dialect === 'postgres'
    ? `int4send(${DATE_DIGITS}) || int4send(${TIME_DIGITS}) || ${hashExpression}`
    : `unhex(printf('%08X%08X', ${DATE_DIGITS}, ${TIME_DIGITS}) || hex(${hashExpression}))`;
}

/** The same expression in PostgreSQL, over `usage_events`' columns. */
export const POSTGRES_IDEMPOTENCY_HASH = `substring(sha256(
  convert_to(account_id, 'UTF8') || '\\x00'::bytea || convert_to(environment, 'UTF8') || '\\x00'::bytea ||
  convert_to(customer_id, 'UTF8') || '\\x00'::bytea || convert_to(action, 'UTF8') || '\\x00'::bytea ||
  convert_to(event_key, 'UTF8') || '\\x00'::bytea || convert_to(occurred_at, 'UTF8')) from 1 for 16)`;

/** A stored event's identity columns, as read back by its hash. */
export interface StoredIdentity extends Record<string, unknown> {
  readonly account_id: string;
  readonly environment: string;
  readonly customer_id: string;
  readonly action: string;
  readonly event_key: string;
  readonly occurred_at: string;
}

/** Whether the stored row is the very event (not merely one whose hash collides with it). */
export function sameIdentity(stored: StoredIdentity, scope: Scope, event: UsageIdentity): boolean {
  return (
    stored.account_id === scope.accountId &&
    stored.environment === scope.environment &&
    stored.customer_id === event.customerId &&
    stored.action === event.action &&
    stored.event_key === event.eventKey &&
    stored.occurred_at === event.occurredAt
  );
}

/** Raised when two different events share an idempotency hash: the second is refused, never merged. */
export class IdempotencyHashCollision extends Error {
  override readonly name = 'IdempotencyHashCollision';
}
