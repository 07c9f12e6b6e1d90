/**
 * @module
 * `POST /billing/webhooks`: Drawdown's notifications about paid keys. The `Paddle-Signature` is verified with
 * the SDK against the endpoint secret; a verified event is answered 200 at once and acted on behind the answer
 * (Drawdown retries anything not answered 2xx quickly). Event types this service does not use are
 * acknowledged and ignored.
 */

import { limitBody, readRequestText } from '@drawdown/http-kit';
import { type DrawdownEvent, unmarshalWebhook, WebhookVerificationError } from '@drawdown/sdk';
import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import type { DrawdownLookupMeter } from '../metering/drawdown-lookup-meter.js';

/** Where Drawdown is told to deliver. */
export const BILLING_WEBHOOK_PATH = '/billing/webhooks';

/** Notifications are a few kilobytes; anything far larger is not from Drawdown. */
export const MAX_WEBHOOK_BYTES = 256 * 1024;

/** The event types the service subscribes to. */
export const BILLING_WEBHOOK_EVENTS = ['usage_balance.depleted', 'subscription.updated'] as const;

/** Verifies and dispatches webhooks. */
export interface BillingWebhookReceiver {
  /** Resolves with the verified event; rejects with `WebhookVerificationError` or a malformed-event error. */
  receive(rawBody: string, signature: string | undefined): Promise<DrawdownEvent>;
}

/** The receiver that feeds the Drawdown meter. */
export function createBillingWebhookReceiver(options: {
  readonly secret: string;
  readonly meter: Pick<DrawdownLookupMeter, 'noteDepleted' | 'noteSubscriptionUpdated'>;
  /** For tests of signatures made at another time; default the machine's clock. */
  readonly now?: () => number;
}): BillingWebhookReceiver {
  return {
    async receive(rawBody, signature) {
      const event = await unmarshalWebhook(
        rawBody,
        options.secret,
        signature,
        options.now === undefined ? {} : { now: options.now },
      );
      if (event.known && event.eventType === 'usage_balance.depleted') {
        options.meter.noteDepleted(event.data.customerId, event.data.usageBalanceUnitId);
      } else if (event.known && event.eventType === 'subscription.updated') {
        // Not awaited: the balance read happens behind the answer; the meter tracks it until close().
        void options.meter.noteSubscriptionUpdated(event.data.customerId, event.data);
      }
      return event;
    },
  };
}

/** Registers `POST /billing/webhooks` on the app. */
export function registerBillingWebhook(app: Hono<{ Bindings: HttpBindings }>, receiver: BillingWebhookReceiver): void {
  // The limit is counted on the stream, so a chunked body is refused before it is all read (ADR 0903).
  const tooLarge = limitBody(MAX_WEBHOOK_BYTES, (c) =>
    c.json({ error: { code: 'body_too_large', message: 'The notification is too large.' } }, 413),
  );
  app.post(BILLING_WEBHOOK_PATH, tooLarge, async (c) => {
    const rawBody = await readRequestText(c);
    try {
      const event = await receiver.receive(rawBody, c.req.header('paddle-signature'));
      return c.json({ received: event.eventId });
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        return c.json({ error: { code: 'invalid_signature', message: error.message } }, 401);
      }
      // A body that verifies but is not an event: acknowledging would lose nothing, refusing shows the fault.
      return c.json({ error: { code: 'invalid_body', message: 'The notification is not an event.' } }, 400);
    }
  });
}
