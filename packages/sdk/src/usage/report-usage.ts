/**
 * @module
 * Usage reporting with the seed's client rules:
 *
 * 1. One event per request.
 * 2. Retry unchanged (the same bytes: same `event_key` and `occurred_at`) on connection failures,
 *    5xx, 429 and a per-event `internal_error`, with exponential backoff and full jitter, for a
 *    bounded number of attempts. The service counts an event once per key and timestamp, so a
 *    repeat of an attempt that did arrive changes nothing.
 * 3. Other rejections and other 4xx are final.
 * 4. A 429 holds every request of the client until Retry-After has passed (the HTTP client's gate).
 * 5. `usage_event_timestamp_too_old` is reported as `expired`, not as an ordinary rejection: when an
 *    earlier attempt of the same event got no answer, that attempt may have been accepted and
 *    still counts (ADR 0608).
 */
import { type BackoffPolicy, backoffDelay } from '../core/backoff.js';
import { DrawdownApiError, DrawdownConnectionError } from '../core/errors.js';
import type { HttpClient } from '../core/http-client.js';
import type { Runtime } from '../core/runtime.js';
import { fromWire } from '../core/wire-case.js';
import type { UsageEvent, UsageEventInput, UsageEventResult } from '../types/usage.js';

export interface UsageRetryPolicy extends BackoffPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
}

/** Up to 8 attempts, waits of at most 0.25 s, 0.5 s, 1 s … capped at 30 s (plus any 429 hold). */
export const DEFAULT_USAGE_RETRY: UsageRetryPolicy = { maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 30_000 };

export const TIMESTAMP_TOO_OLD = 'usage_event_timestamp_too_old';

interface ReportFields {
  /** The event as sent, with its fixed key and timestamp: resend exactly this to retry later. */
  readonly event: UsageEvent;
  /** Requests made for this report. */
  readonly attempts: number;
}

/** The service accepted the event (202): it will be drawn down shortly. */
export interface UsageAccepted extends ReportFields {
  readonly kind: 'accepted';
}

/** A final refusal: a per-event rejection, or a 4xx for the whole request. Do not resend unchanged. */
export interface UsageRejected extends ReportFields {
  readonly kind: 'rejected';
  readonly code: string;
  readonly detail: string;
  /** The HTTP status: 202 for a per-event rejection, the 4xx otherwise. */
  readonly status: number;
  /** The API error, for a 4xx. */
  readonly error?: DrawdownApiError;
}

/**
 * `occurred_at` is more than 60 days old. When `mayHaveCounted` is true an earlier attempt of
 * this report got no answer, so that attempt may have been accepted and still counts.
 */
export interface UsageExpired extends ReportFields {
  readonly kind: 'expired';
  readonly code: typeof TIMESTAMP_TOO_OLD;
  readonly detail: string;
  readonly mayHaveCounted: boolean;
}

/**
 * Every attempt failed in a retryable way. The event may or may not have counted; resending the
 * same `event` later is safe (it counts at most once).
 */
export interface UsageGaveUp extends ReportFields {
  readonly kind: 'gave_up';
  readonly code: string;
  readonly detail: string;
  readonly lastError: DrawdownApiError | DrawdownConnectionError | null;
}

export type UsageReport = UsageAccepted | UsageRejected | UsageExpired | UsageGaveUp;

export interface ReportUsageOptions {
  readonly signal?: AbortSignal;
  readonly retry?: Partial<UsageRetryPolicy>;
}

function quantityText(quantity: UsageEventInput['quantity']): string {
  if (typeof quantity === 'string') return quantity;
  if (typeof quantity === 'bigint') return quantity.toString();
  if (!Number.isSafeInteger(quantity)) {
    throw new TypeError(
      `A usage quantity given as a number must be a safe integer; pass "${quantity}" as a decimal string instead.`,
    );
  }
  return String(quantity);
}

/** Fixes an event's key and timestamp, so every attempt sends the same event. */
export function normaliseUsageEvent(input: UsageEventInput, runtime: Runtime): UsageEvent {
  const occurredAt =
    input.occurredAt === undefined
      ? new Date(runtime.now()).toISOString()
      : input.occurredAt instanceof Date
        ? input.occurredAt.toISOString()
        : input.occurredAt;
  return {
    eventKey: input.eventKey ?? globalThis.crypto.randomUUID(),
    customerId: input.customerId,
    action: input.action,
    quantity: quantityText(input.quantity),
    occurredAt,
  };
}

/** The request body of one event, in wire form; built once and sent byte for byte on every attempt. */
export function usageEventBody(event: UsageEvent): string {
  return JSON.stringify({
    events: [
      {
        event_key: event.eventKey,
        customer_id: event.customerId,
        action: event.action,
        quantity: event.quantity,
        occurred_at: event.occurredAt,
      },
    ],
  });
}

type AttemptOutcome =
  | { readonly final: UsageReport }
  | {
      readonly retry: {
        code: string;
        detail: string;
        error: DrawdownApiError | DrawdownConnectionError | null;
        /** Whether this attempt may have been recorded although it did not succeed visibly. */
        mayHaveCounted: boolean;
      };
    };

/** One POST of the event, without retries: the service's per-event result. */
export async function sendUsageEvent(
  http: HttpClient,
  body: string,
  signal?: AbortSignal,
): Promise<{ result: UsageEventResult | null; status: number }> {
  const response = await http.sendOnce({
    method: 'POST',
    path: '/usage-events',
    rawBody: body,
    ...(signal ? { signal } : {}),
  });
  const data = fromWire<{ events?: UsageEventResult[] } | undefined>(response.body?.data);
  return { result: data?.events?.[0] ?? null, status: response.status };
}

async function attempt(
  http: HttpClient,
  event: UsageEvent,
  body: string,
  attempts: number,
  priorMayHaveCounted: boolean,
  signal?: AbortSignal,
): Promise<AttemptOutcome> {
  try {
    const { result, status } = await sendUsageEvent(http, body, signal);
    if (!result) {
      return {
        retry: {
          code: 'unexpected_response',
          detail: 'The answer held no event result.',
          error: null,
          mayHaveCounted: false,
        },
      };
    }
    if (result.status === 'accepted') return { final: { kind: 'accepted', event, attempts } };
    const code = result.error?.code ?? 'rejected';
    const detail = result.error?.detail ?? 'The service rejected the event.';
    if (code === 'internal_error') return { retry: { code, detail, error: null, mayHaveCounted: false } };
    if (code === TIMESTAMP_TOO_OLD) {
      return { final: { kind: 'expired', event, attempts, code, detail, mayHaveCounted: priorMayHaveCounted } };
    }
    return { final: { kind: 'rejected', event, attempts, code, detail, status } };
  } catch (error) {
    if (error instanceof DrawdownConnectionError) {
      return { retry: { code: error.code, detail: error.message, error, mayHaveCounted: true } };
    }
    if (!(error instanceof DrawdownApiError)) throw error;
    // A 429 is answered before anything is done; a 5xx may come after the event was stored (a
    // proxy timing out, a crash before answering).
    if (error.retryable) {
      return { retry: { code: error.code, detail: error.detail, error, mayHaveCounted: error.status !== 429 } };
    }
    if (error.code === TIMESTAMP_TOO_OLD) {
      return {
        final: {
          kind: 'expired',
          event,
          attempts,
          code: TIMESTAMP_TOO_OLD,
          detail: error.detail,
          mayHaveCounted: priorMayHaveCounted,
        },
      };
    }
    return {
      final: { kind: 'rejected', event, attempts, code: error.code, detail: error.detail, status: error.status, error },
    };
  }
}

/**
 * Reports one usage event with the seed's retry rules. Resolves with what became of it; throws
 * only for programming errors (a fractional number quantity) or when `signal` aborts.
 */
export async function reportUsage(
  http: HttpClient,
  runtime: Runtime,
  input: UsageEventInput | UsageEvent,
  policy: UsageRetryPolicy,
  signal?: AbortSignal,
): Promise<UsageReport> {
  const event = normaliseUsageEvent(input, runtime);
  const body = usageEventBody(event);
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  let priorMayHaveCounted = false;
  let last: { code: string; detail: string; error: DrawdownApiError | DrawdownConnectionError | null } = {
    code: 'not_sent',
    detail: 'No attempt was made.',
    error: null,
  };
  for (let attempts = 1; attempts <= maxAttempts; attempts += 1) {
    if (attempts > 1) await runtime.sleep(backoffDelay(policy, attempts - 1, runtime.random));
    signal?.throwIfAborted();
    const outcome = await attempt(http, event, body, attempts, priorMayHaveCounted, signal);
    if ('final' in outcome) return outcome.final;
    priorMayHaveCounted ||= outcome.retry.mayHaveCounted;
    last = outcome.retry;
  }
  return { kind: 'gave_up', event, attempts: maxAttempts, code: last.code, detail: last.detail, lastError: last.error };
}
