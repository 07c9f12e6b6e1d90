/**
 * Request bodies are limited on the stream over real HTTP (ADR 0903): a chunked body, which
 * declares no length, is refused once it passes the limit, long before the client has sent it
 * all, on the query API and on the billing webhook alike; a body within the limit still works.
 */
import type { AddressInfo } from 'node:net';
import { floodChunked } from '@drawdown/testkit';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, MAX_BODY_BYTES } from '../../src/app.js';
import { BILLING_WEBHOOK_PATH, MAX_WEBHOOK_BYTES } from '../../src/billing/billing-webhooks.js';
import { createTestService } from '../support/test-service.js';

describe('request bodies over real HTTP', () => {
  let url: string;
  let server: ReturnType<typeof serve>;
  let received: string[];

  beforeAll(async () => {
    const { service } = await createTestService({}, (cleanup) => afterAll(cleanup));
    received = [];
    const app = createApp({
      ...service.deps,
      billingWebhook: {
        receive: async (rawBody) => {
          received.push(rawBody);
          throw new Error('not an event');
        },
      },
    });
    server = await new Promise((resolve) => {
      const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  );

  it.each([
    ['/api/query', MAX_BODY_BYTES, { 'content-type': 'application/json' }],
    [BILLING_WEBHOOK_PATH, MAX_WEBHOOK_BYTES, { 'content-type': 'application/json', 'paddle-signature': 'x' }],
  ])('refuses a chunked body over the limit on %s before reading it whole', async (path, limit, headers) => {
    const result = await floodChunked(`${url}${path}`, { headers, maxBytes: 128 * 1024 * 1024 });
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ error: { code: 'body_too_large' } });
    // A little past the limit plus what socket buffers hold (about 4 MiB on loopback), never the
    // 128 MiB on offer: a server that read the body whole would answer only after all of it.
    expect(result.bytesSent).toBeLessThan(limit + 48 * 1024 * 1024);
  });

  it('still reads a chunked body within the limit', async () => {
    const result = await floodChunked(`${url}${BILLING_WEBHOOK_PATH}`, {
      headers: { 'content-type': 'application/json' },
      chunkBytes: 1_024,
      maxBytes: 4 * 1_024,
    });
    expect(result.status).toBe(400);
    expect(received.at(-1)).toBe('a'.repeat(4 * 1_024));
  });
});
