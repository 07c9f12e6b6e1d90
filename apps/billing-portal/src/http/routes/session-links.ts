/**
 * @module
 * `GET {base}/session?action=…[&subscription_id=…]&token=…`: a customer portal session link (ADR
 * 1440). The token is checked in the portal, then by the service (ADR 1443); the host's
 * `startSession` signs the customer in, and the answer is a 303 to the page the action names.
 * Without `startSession`, 404.
 */
import type { Hono } from 'hono';
import { NOT_FOUND, Refused } from '../../portal/portal-error.js';
import type { PortalOperations } from '../../portal/portal-operations.js';

export function registerSessionLinkRoutes(app: Hono, portal: PortalOperations): void {
  app.get('/session', async (c) => {
    const { startSession } = portal.settings;
    if (!startSession) throw new Refused(NOT_FOUND);
    const { grant, target } = await portal.openSession(
      c.req.query('token') ?? '',
      c.req.query('action') ?? 'overview',
      c.req.query('subscription_id'),
    );
    const headers = new Headers(await startSession(grant, c.req.raw));
    headers.set('Location', target);
    return new Response(null, { status: 303, headers });
  });
}
