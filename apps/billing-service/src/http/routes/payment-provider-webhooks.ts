/**
 * @module
 * The live end of an account's payment provider webhooks (ADR 1422):
 * `POST /payment-providers/{provider}/webhooks/{account_id}`. No API key: the provider's
 * signature over the raw body is the credential, checked with the account's own webhook secret.
 * A bad or stale signature is `provider_notification_invalid` (400, so the provider retries and
 * its dashboard shows the failure); a body whose signature verifies but that is not one of the
 * provider's events is `provider_notification_malformed` (400, and logged: only a holder of the
 * signing secret can send one; ADR 1482); a notification already handled, or for a payment this
 * account never started, is answered 200 and changes nothing.
 */
import { BillingError } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';

/** Where a notice that is not a failure goes (an unknown payment's webhook). */
export type NoticeLogger = (message: string, fields: Record<string, unknown>) => void;

export function registerProviderWebhookRoutes(app: Hono<AppEnv>, logNotice: NoticeLogger): void {
  app.post('/payment-providers/:provider/webhooks/:accountId', async (c) => {
    const rawBody = await c.req.text();
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(c.req.header())) headers[name.toLowerCase()] = value;
    const accountId = c.req.param('accountId');
    const received = await c.var.useCases
      .receiveProviderNotification(accountId, c.req.param('provider'), { rawBody, headers })
      .catch((error: unknown) => {
        if (error instanceof BillingError && error.code === 'provider_notification_malformed') {
          logNotice('payment provider webhook signed with the account’s secret but malformed: refused', {
            requestId: c.var.requestId,
            accountId,
            provider: c.req.param('provider'),
            reason: error.detail,
            bodyBytes: Buffer.byteLength(rawBody),
          });
        }
        throw error;
      });
    if (received.outcome === 'unknown_payment') {
      logNotice('payment provider webhook for a payment this account never started: acknowledged, ignored', {
        requestId: c.var.requestId,
        accountId,
        provider: c.req.param('provider'),
        notification: received.notificationRef,
        kind: received.kind,
      });
    }
    return c.json(
      {
        data: { notification_id: received.notificationRef, kind: received.kind, outcome: received.outcome },
        meta: { request_id: c.var.requestId },
      },
      200,
    );
  });
}
