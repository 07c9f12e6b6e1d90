/**
 * @module
 * The billing portal's stand-in while an environment has none configured (ADR 1472): portal
 * links (`management_urls`, which the public API always gives) lead to the environment's own
 * `/portal`, which answers `customer_portal_not_configured` naming the setting that fixes it, so
 * a link is never dead; a portal session is refused with the same code before anything is made.
 */
import { BillingError, type Environment } from '@drawdown/billing-core';
import type { Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.js';
import { UNCONFIGURED_PORTAL_PATH } from '../unconfigured-portal-path.js';

export function unconfiguredPortal(environment: Environment): BillingError {
  return new BillingError(
    'customer_portal_not_configured',
    `This deployment has no billing portal for its ${environment} environment: its operator sets --${environment}-portal-url (DRAWDOWN_${environment.toUpperCase()}_PORTAL_URL) to where @drawdown/billing-portal is served.`,
  );
}

/**
 * `GET /portal` and below, before any key is asked for: the refusal while no portal is configured;
 * once one is, the request goes on (to `not_found`: the service serves no portal itself).
 */
export function registerUnconfiguredPortal(app: Hono<AppEnv>, environment: Environment): void {
  const refuse: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (c.var.portalConfigured || c.req.method !== 'GET') return next();
    throw unconfiguredPortal(environment);
  };
  app.use(UNCONFIGURED_PORTAL_PATH, refuse);
  app.use(`${UNCONFIGURED_PORTAL_PATH}/*`, refuse);
}
