/**
 * @module
 * The body of a webhook: the event exactly as `GET /events` lists it, plus `notification_id`
 * (placed before `data`, as the reference's examples have it).
 */
import type { StoredEvent } from '@drawdown/billing-core';
import { presentEvent } from '../../http/presenters.js';
import { toSnakeCase } from '../../http/wire-case.js';

/**
 * The webhook payload as a wire object; `GET /notifications` shows it as `payload`. With the
 * environment's portal address, subscriptions carry their `management_urls` (ADR 1440).
 */
export function webhookPayload(event: StoredEvent, notificationId: string, portalUrl?: string): unknown {
  const { data, ...envelope } = presentEvent(event, portalUrl) as { readonly data: unknown } & Record<string, unknown>;
  return toSnakeCase({ ...envelope, notificationId, data });
}

/** The envelope of any webhook, real or simulated, with `data` already in wire form. */
export interface WebhookEnvelope {
  readonly eventId: string;
  readonly eventType: string;
  readonly occurredAt: string;
  readonly notificationId: string;
  readonly data: unknown;
}

/** The raw body of a simulated event: the same envelope, keys and order as a real one. */
export function simulatedWebhookBody(envelope: WebhookEnvelope): string {
  const { data, ...rest } = envelope;
  return JSON.stringify({ ...(toSnakeCase(rest) as object), data });
}

/** The raw body sent, and signed, for one notification. */
export function webhookBody(event: StoredEvent, notificationId: string, portalUrl?: string): string {
  return JSON.stringify(webhookPayload(event, notificationId, portalUrl));
}
