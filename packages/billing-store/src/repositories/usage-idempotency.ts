/**
 * @module
 * The compact idempotency key of a usage event (ADR 0717): the first 16 bytes of the SHA-256 of
 * the seed's identity tuple (account, environment, customer, action, event key, occurred at),
 * fields in UTF-8 separated by a zero byte. The unique index holds these 16 bytes instead of the
 * six texts, so every insert writes a short entry. A hash is not an identity: whoever finds an
 * event by its hash compares the whole tuple before calling it the same event, so a collision can
 * never merge two events (`sameIdentity`).
 */
import { hash } from 'node:crypto';
import type { Scope } from '@drawdown/billing-core';

export interface UsageIdentity {
  readonly customerId: string;
  readonly action: string;
  readonly eventKey: string;
  readonly occurredAt: string;
}

/** The key's bytes. PostgreSQL computes the same in migration 0200's backfill. */
export function usageIdempotencyHash(scope: Scope, event: UsageIdentity): Buffer {
  // The one-shot hash (Node ≥ 20.12): the same digest, without a Hash object per event.
  return hash(
    'sha256',
    `${scope.accountId}\u0000${scope.environment}\u0000${event.customerId}\u0000${event.action}\u0000${event.eventKey}\u0000${event.occurredAt}`,
    'buffer',
  ).subarray(0, 16);
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
