/**
 * @module
 * The answer to a request no route matched: 404 `not_found` naming the method and path.
 */
import { BillingError } from '@drawdown/billing-core';
import type { NotFoundHandler } from 'hono';
import type { AppEnv } from './app-env.js';
import { respondError } from './envelope.js';

export const answerUnmatchedRoute: NotFoundHandler<AppEnv> = (c) =>
  respondError(c, new BillingError('not_found', `No endpoint ${c.req.method} ${new URL(c.req.url).pathname}.`));
