/**
 * @module
 * The body of a webhook: the event exactly as `GET /events` lists it, plus `notification_id`
 * (placed before `data`, as the reference's examples have it).
 */
import type { StoredEvent } from '@drawdown/billing-core';
import { presentEvent } from '../../http/presenters.js';
import { toSnakeCase } from '../../http/wire-case.js';

/** The webhook payload as a wire object; `GET /notifications` shows it as `payload`. */
export function webhookPayload(event: StoredEvent, notificationId: string): unknown {
  const { data, ...envelope } = presentEvent(event) as { readonly data: unknown } & Record<string, unknown>;
  return toSnakeCase({ ...envelope, notificationId, data });
}

/** The raw body sent, and signed, for one notification. */
export function webhookBody(event: StoredEvent, notificationId: string): string {
  return JSON.stringify(webhookPayload(event, notificationId));
}
