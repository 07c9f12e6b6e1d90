/**
 * @module
 * `GET /currencies`: public, not paginated, cacheable for a day. Decimal places are ISO 4217's.
 */
import { listCurrencies } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';

export const CURRENCIES_MAX_AGE_SECONDS = 86_400;

export function registerCurrencyRoutes(app: Hono<AppEnv>): void {
  app.get('/currencies', (c) => {
    c.header('Cache-Control', `public, max-age=${CURRENCIES_MAX_AGE_SECONDS}`);
    return respond(c, listCurrencies());
  });
}
