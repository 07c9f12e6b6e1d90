/**
 * `requestHeader` reads the Node request's raw header list; it must give what the WHATWG
 * `Headers` of the same request gives (`c.req.header`), repeated and mixed-case fields included,
 * over a real node-server on loopback.
 */
import { type AddressInfo, connect } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeader } from './request-body.js';

const NAMES = ['authorization', 'x-request-id', 'x-repeated', 'content-type', 'x-absent', 'x-empty'];

const app = new Hono();
app.all('/', (c) => {
  // Ours first: reading c.req.header builds the Request's Headers, which ours must not need.
  const ours = Object.fromEntries(NAMES.map((name) => [name, requestHeader(c, name) ?? null]));
  const whatwg = Object.fromEntries(NAMES.map((name) => [name, c.req.header(name) ?? null]));
  return c.json({ ours, whatwg });
});

let server: ReturnType<typeof serve>;
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Sends raw header lines (repeats and case kept as written) and returns the route's answer. */
function send(method: string, headers: [string, string][]): Promise<{ ours: unknown; whatwg: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const lines = [`${method} / HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
    for (const [name, value] of headers) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      raw += chunk;
    });
    socket.on('end', () => {
      const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      resolve(JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)));
    });
    socket.on('error', reject);
  });
}

describe('requestHeader', () => {
  it('reads single fields by lower-case name whatever case they were sent in', async () => {
    const { ours, whatwg } = await send('POST', [
      ['Authorization', 'Bearer pdl_live_apikey_x'],
      ['X-Request-ID', 'abc-123'],
      ['Content-Type', 'application/json'],
      ['X-Empty', ''],
    ]);
    expect(ours).toEqual({
      authorization: 'Bearer pdl_live_apikey_x',
      'x-request-id': 'abc-123',
      'x-repeated': null,
      'content-type': 'application/json',
      'x-absent': null,
      'x-empty': '',
    });
    expect(ours).toEqual(whatwg);
  });

  it('joins repeated fields with ", " as Headers does, authorization included', async () => {
    const { ours, whatwg } = await send('GET', [
      ['authorization', 'Bearer one'],
      ['Authorization', 'Bearer two'],
      ['x-repeated', 'a'],
      ['X-Repeated', 'b'],
      ['x-repeated', 'c'],
    ]);
    expect(ours).toMatchObject({ authorization: 'Bearer one, Bearer two', 'x-repeated': 'a, b, c' });
    expect(ours).toEqual(whatwg);
  });
});
