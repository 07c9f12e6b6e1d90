/**
 * @module
 * A second reference: the smallest Hono app on @hono/node-server (the stack the service uses)
 * that reads the same body as JSON and answers 202 with the same envelope as the bare server.
 * The gap between it and the bare server is the framework's price; the gap between it and
 * the service is ours. Prints `listening <port>` once bound; stops on SIGTERM.
 */
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono();
app.post('/usage-events', async (c) => {
  const event = (await c.req.json()).events[0];
  return c.json(
    { data: { events: [{ event_key: event.event_key, status: 'accepted' }] }, meta: { request_id: randomUUID() } },
    202,
  );
});

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stdout.write(`listening ${info.port}\n`);
});

process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
