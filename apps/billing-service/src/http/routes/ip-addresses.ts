/**
 * @module
 * `GET /ips` (ADR 1476): the IPv4 CIDRs webhooks leave from, as the operator configured them
 * (`--webhook-source-ips`), for receivers that allow-list senders. Public, as the currency list
 * is (the addresses are no secret, and a receiver may read them before it has a key); an empty
 * list when the operator set none.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';

export function registerIpAddressRoutes(app: Hono<AppEnv>, cidrs: readonly string[]): void {
  const answer = { ipv4Cidrs: [...cidrs] };
  app.get('/ips', (c) => respond(c, answer));
}
