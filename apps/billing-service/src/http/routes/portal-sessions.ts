/**
 * @module
 * Customer portal sessions (ADR 1440): `POST /customers/{id}/portal-sessions` as in the public
 * API, and `POST /customer-portal-sessions/verify`, Drawdown's own, through which the billing
 * portal (a separate process with an API key) turns a session URL's token into the customer it
 * may show.
 */
import { CreatePortalSessionBody, VerifyPortalSessionBody } from '@drawdown/billing-contract';
import { toTimestamp } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { InvoiceLinkSigner } from '../../rendering/invoice-links.js';
import { portalSessionToken, portalSessionUrls, readPortalSessionToken } from '../../rendering/portal-session-links.js';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

export function registerPortalSessionRoutes(app: Hono<AppEnv>, links: InvoiceLinkSigner): void {
  app.post('/customers/:customer/portal-sessions', need('customer_portal_session.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const body = await readBody(c, CreatePortalSessionBody);
    const claims = await c.var.useCases.createPortalSession(c.var.caller, customerId, body.subscriptionIds ?? []);
    const token = await portalSessionToken(links, claims);
    return respond(
      c,
      {
        id: claims.sessionId,
        customerId: claims.customerId,
        urls: portalSessionUrls(c.var.portalUrl, token, claims.subscriptionIds),
        createdAt: toTimestamp(claims.issuedAt),
      },
      201,
    );
  });

  app.post('/customer-portal-sessions/verify', need('customer_portal_session.read'), async (c) => {
    const { token } = await readBody(c, VerifyPortalSessionBody);
    const claims = await readPortalSessionToken(links, token);
    const grant = await c.var.useCases.acceptPortalSession(c.var.caller, claims);
    return respond(c, {
      id: grant.sessionId,
      customerId: grant.customerId,
      subscriptionIds: grant.subscriptionIds,
      expiresAt: grant.expiresAt,
    });
  });
}
