/**
 * How the service reads request bodies off the wire, over raw HTTP/1.1 on both storage engines:
 * with and without a declared length, the 1 MiB limit before authentication, a leading byte
 * order mark, and keep-alive after a body that was read or left unread.
 */
import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: { data?: { name?: string }; error?: { code?: string } };
  readonly reusedSocket: boolean;
}

interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Written one after another; without a content-length header they go chunked. */
  readonly chunks?: readonly (string | Buffer)[];
  readonly agent?: Agent;
}

function send(baseUrl: string, options: RawRequest): Promise<RawResponse> {
  const url = new URL(options.path, baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method, headers: options.headers, agent: options.agent ?? false },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text === '' ? {} : (JSON.parse(text) as RawResponse['body']),
            reusedSocket: outgoing.reusedSocket,
          });
        });
        response.on('error', reject);
      },
    );
    // A refused request may be answered, and its socket closed, before the body is all sent.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    for (const chunk of options.chunks ?? []) outgoing.write(chunk);
    outgoing.end();
  });
}

const productJson = (name: string) => JSON.stringify({ name, tax_category: 'saas' });

describe.each(ENGINES)('%s: request bodies on the wire', (engine) => {
  let harness: BillingHarness;
  let json: Record<string, string>;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    json = { authorization: `Bearer ${harness.sandboxKey}`, 'content-type': 'application/json' };
  });
  afterAll(() => harness.close());

  it('reads a body sent in chunks without a declared length like one with a length', async () => {
    const body = productJson('Chunked');
    const response = await send(harness.sandboxUrl, {
      method: 'POST',
      path: '/products',
      headers: json,
      chunks: [body.slice(0, 7), body.slice(7, 20), body.slice(20)],
    });
    expect(response.status).toBe(201);
    expect(response.body.data?.name).toBe('Chunked');
  });

  it('reads a body that starts with a byte order mark, as UTF-8 decoding does', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(productJson('With BOM'))]);
    const response = await send(harness.sandboxUrl, {
      method: 'POST',
      path: '/products',
      headers: { ...json, 'content-length': String(body.length) },
      chunks: [body],
    });
    expect(response.status).toBe(201);
    expect(response.body.data?.name).toBe('With BOM');
  });

  it('refuses a declared length over 1 MiB with 413 request_body_too_large before authentication', async () => {
    const body = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const response = await send(harness.sandboxUrl, {
      method: 'POST',
      path: '/products',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      chunks: [body],
    });
    expect(response.status).toBe(413);
    expect(response.body.error?.code).toBe('request_body_too_large');
    expect(response.headers.connection).toBe('close');
  });

  it('refuses a chunked body that grows past 1 MiB with 413 request_body_too_large before authentication', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const response = await send(harness.sandboxUrl, {
      method: 'POST',
      path: '/products',
      headers: { 'content-type': 'application/json' },
      chunks: [chunk, chunk, chunk, chunk, Buffer.from('{}')],
    });
    expect(response.status).toBe(413);
    expect(response.body.error?.code).toBe('request_body_too_large');
    expect(response.headers.connection).toBe('close');
  });

  it('keeps the connection for the next request after a body that was read', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = productJson('Kept alive');
      const headers = { ...json, 'content-length': String(Buffer.byteLength(body)) };
      const first = await send(harness.sandboxUrl, {
        method: 'POST',
        path: '/products',
        headers,
        chunks: [body],
        agent,
      });
      const second = await send(harness.sandboxUrl, {
        method: 'POST',
        path: '/products',
        headers,
        chunks: [body],
        agent,
      });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(first.headers.connection).not.toBe('close');
      expect(second.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('closes the connection when a refused request left its body unread', async () => {
    const body = productJson('Unread');
    const response = await send(harness.sandboxUrl, {
      method: 'POST',
      path: '/products',
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      chunks: [body],
    });
    expect(response.body.error?.code).toBe('authentication_missing');
    expect(response.headers.connection).toBe('close');
  });

  it('keeps the connection after a GET, which carries no body', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(harness.sandboxUrl, { method: 'GET', path: '/products', headers: json, agent });
      const second = await send(harness.sandboxUrl, { method: 'GET', path: '/products', headers: json, agent });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.headers.connection).not.toBe('close');
      expect(second.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
