/**
 * @module
 * Customer portal sessions (ADR 1440): `POST /customers/{id}/portal-sessions` as in the public
 * API, and two of Drawdown's own for the billing portal (a separate process with an API key):
 * `GET /customer-portal-sessions/verification-key`, the public key and the key's account and
 * environment, with which the portal refuses unsigned, foreign and expired tokens itself (ADR
 * 1443), and `POST /customer-portal-sessions/verify`, which turns a token into the customer it may
 * show (the customer still exists, unexpired on the environment's clock).
 */
import { CreatePortalSessionBody, VerifyPortalSessionBody } from '@drawdown/billing-contract';
import { toTimestamp } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import {
  type PortalSessionSigner,
  portalSessionToken,
  portalSessionUrls,
  readPortalSessionToken,
} from '../../rendering/portal-session-links.js';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';
import { unconfiguredPortal } from './unconfigured-portal.js';

export function registerPortalSessionRoutes(app: Hono<AppEnv>, links: PortalSessionSigner): void {
  app.post('/customers/:customer/portal-sessions', need('customer_portal_session.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const body = await readBody(c, CreatePortalSessionBody);
    // A session URL would lead nowhere: refused before anything is made (ADR 1472).
    if (!c.var.portalConfigured) throw unconfiguredPortal(c.var.caller.scope.environment);
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

  app.get('/customer-portal-sessions/verification-key', need('customer_portal_session.read'), async (c) => {
    return respond(c, {
      accountId: c.var.caller.scope.accountId,
      environment: c.var.caller.scope.environment,
      algorithm: 'Ed25519',
      publicKey: await links.publicKey(),
    });
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
