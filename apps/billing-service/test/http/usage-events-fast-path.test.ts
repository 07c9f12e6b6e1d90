/**
 * `POST /usage-events` served on node:http directly (ADR 0719) answers exactly as the Hono app
 * does: two services over one store, one with the fast path and one without, get the same
 * requests over real sockets, and every answer (status, headers, body, byte for byte with the
 * request id fixed), every access line and the stored events must be the same. Rate limiting
 * and the trusted proxy's address, the size limit, authentication and permissions, the body's
 * rules and the use case's outcomes are all covered; a counter proves which requests the fast
 * path served itself and which it handed to the app.
 */
import { request as httpRequest } from 'node:http';
import { createAccount, createApiKey } from '@drawdown/billing-core';
import { createTestStorage, ENGINES, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreServices, composeServices } from '../../src/compose-services.js';
import { resolveServiceConfig } from '../../src/config.js';
import { type RunningService, startService } from '../../src/server.js';
import { memoryLog } from '../support/memory-log.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** One request over its own socket; the answer's headers with lower-case names (Date left out). */
function send(
  base: string,
  options: {
    path?: string;
    method?: string;
    headers?: Record<string, string | number>;
    body?: string;
    chunked?: boolean;
  },
): Promise<RawAnswer> {
  const url = new URL(options.path ?? '/usage-events', base);
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined && !options.chunked && headers['content-length'] === undefined) {
      headers['content-length'] = Buffer.byteLength(options.body);
    }
    const outgoing = httpRequest(url, { method: options.method ?? 'POST', headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const answerHeaders: Record<string, string> = {};
        for (let index = 0; index < response.rawHeaders.length; index += 2) {
          const name = (response.rawHeaders[index] as string).toLowerCase();
          if (name !== 'date') answerHeaders[name] = response.rawHeaders[index + 1] as string;
        }
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks).toString() });
        outgoing.destroy();
      });
    });
    outgoing.on('error', reject);
    if (options.body !== undefined) outgoing.write(options.body);
    // A declared length larger than what is sent: the answer comes before the body ends.
    if (
      headers['content-length'] === undefined ||
      Number(headers['content-length']) <= Buffer.byteLength(options.body ?? '')
    ) {
      outgoing.end();
    }
  });
}

/** An access line without what differs between any two requests (time, duration, process). */
function comparable(line: Record<string, unknown>) {
  const { time: _time, durationMs: _duration, pid: _pid, hostname: _hostname, ...rest } = line;
  return rest;
}

async function waitForLine(lines: Record<string, unknown>[], requestId: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = lines.find((line) => line.msg === 'request' && line.requestId === requestId);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no access line for ${requestId}`);
}

describe.each(ENGINES)('%s: the usage-events fast path answers as the app does', (engine) => {
  let storage: TestStorage;
  let services: CoreServices;
  let fast: RunningService;
  let normal: RunningService;
  const fastLog = memoryLog();
  const normalLog = memoryLog();
  const outcomes: string[] = [];
  let key = '';
  let liveKey = '';
  let readOnlyKey = '';
  let customerId = '';
  let archivedId = '';
  let accountId = '';
  let counter = 0;

  beforeAll(async () => {
    storage = await createTestStorage(engine);
    const config = resolveServiceConfig(
      {
        'data-dir': storage.dataDir,
        'live-port': '0',
        'sandbox-port': '0',
        // High enough never to refuse here: the limiter still counts every request on both paths.
        'rate-limit': '100000/60s',
        'key-rate-limit': '100000/60s',
        'trust-proxy': true,
        // Every access line, on both paths: the lines are compared one for one.
        'access-log-usage-sample': '1',
        ...(storage.databaseUrl ? { 'database-url': storage.databaseUrl } : {}),
      },
      {},
    );
    services = await composeServices(config);
    fast = await startService(services, config, {
      logger: fastLog.logger,
      onUsageFastPath: (outcome) => outcomes.push(outcome),
    });
    // The second service shares the store; only the first closes it.
    const shared = new Proxy(services.store, {
      get: (target, name) => (name === 'close' ? async () => {} : Reflect.get(target, name)),
    });
    normal = await startService({ ...services, store: shared }, config, {
      logger: normalLog.logger,
      usageFastPath: false,
    });
    const account = await createAccount(services, { name: 'Fast path', earlyAccess: true });
    accountId = account.id;
    const newKey = async (environment: 'live' | 'sandbox', permissions: string[]) =>
      (await createApiKey(services, { accountId: account.id, environment, name: 'k', permissions })).token;
    key = await newKey('sandbox', ['all']);
    liveKey = await newKey('live', ['all']);
    readOnlyKey = await newKey('sandbox', ['usage_event.read']);
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${fast.sandboxUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => (await response.json()) as { data: { id: string } });
    const unit = await api('POST', '/usage-balance-units', { name: 'calls', unit_name: 'calls' });
    await api('POST', '/meters', {
      usage_balance_unit_id: unit.data.id,
      name: 'calls',
      action: 'api_call',
      unit_name: 'call',
      rate: '1',
    });
    customerId = (await api('POST', '/customers', { email: 'fast@example.com' })).data.id;
    archivedId = (await api('POST', '/customers', { email: 'gone@example.com' })).data.id;
    await api('PATCH', `/customers/${archivedId}`, { status: 'archived' });
  });
  afterAll(async () => {
    await normal?.close();
    await fast?.close();
    await storage?.dispose();
  });

  const event = (fields: Record<string, unknown> = {}) => ({
    event_key: `k-${counter}`,
    customer_id: customerId,
    action: 'api_call',
    quantity: '2',
    occurred_at: new Date(Date.now() - 60_000).toISOString(),
    ...fields,
  });
  const json = (value: unknown) => JSON.stringify(value);

  /** Sends the same request to both services (fast first), returns both answers and access lines. */
  async function both(options: Parameters<typeof send>[1], environment: 'sandbox' | 'live' = 'sandbox') {
    counter += 1;
    const requestId = `fast-path-${engine}-${counter}`;
    const withId = { ...options, headers: { 'x-request-id': requestId, ...options.headers } };
    const url = (service: RunningService) => (environment === 'live' ? service.liveUrl : service.sandboxUrl);
    const viaFast = await send(url(fast), withId);
    const viaApp = await send(url(normal), withId);
    const [fastLine, appLine] = await Promise.all([
      waitForLine(fastLog.lines, requestId),
      waitForLine(normalLog.lines, requestId),
    ]);
    return { viaFast, viaApp, fastLine, appLine };
  }

  const authorised = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    ...extra,
  });

  const cases: [string, () => Parameters<typeof send>[1], 'served' | 'handed_over', number][] = [
    ['an accepted event', () => ({ headers: authorised(), body: json({ events: [event()] }) }), 'served', 202],
    [
      'an unknown customer',
      () => ({
        headers: authorised(),
        body: json({ events: [event({ customer_id: 'ctm_01h00000000000000000000000' })] }),
      }),
      'served',
      202,
    ],
    [
      'an archived customer',
      () => ({ headers: authorised(), body: json({ events: [event({ customer_id: archivedId })] }) }),
      'served',
      202,
    ],
    [
      'a timestamp too old',
      () => ({ headers: authorised(), body: json({ events: [event({ occurred_at: '2020-01-01T00:00:00Z' })] }) }),
      'served',
      202,
    ],
    [
      'a NUL in the event key',
      () => ({ headers: authorised(), body: json({ events: [event({ event_key: 'a\u0000b' })] }) }),
      'served',
      202,
    ],
    [
      'a BOM before the JSON',
      () => ({ headers: authorised(), body: `\uFEFF${json({ events: [event()] })}` }),
      'served',
      202,
    ],
    [
      'a quantity that is not a decimal',
      () => ({ headers: authorised(), body: json({ events: [event({ quantity: '1e3' })] }) }),
      'served',
      400,
    ],
    [
      'two events',
      () => ({ headers: authorised(), body: json({ events: [event(), event({ event_key: 'other' })] }) }),
      'served',
      400,
    ],
    ['no events', () => ({ headers: authorised(), body: json({ events: [] }) }), 'served', 400],
    [
      'the fields in another order, with spaces',
      () => ({
        headers: authorised(),
        body: ` { "events" : [ ${json(Object.fromEntries(Object.entries(event()).reverse()))} ] } `,
      }),
      'served',
      202,
    ],
    [
      'an event key one character too long',
      () => ({ headers: authorised(), body: json({ events: [event({ event_key: 'k'.repeat(1_025) })] }) }),
      'handed_over',
      400,
    ],
    [
      'a quantity sent as a number',
      () => ({ headers: authorised(), body: json({ events: [event({ quantity: 1 })] }) }),
      'handed_over',
      400,
    ],
    [
      'events that are not a list',
      () => ({ headers: authorised(), body: json({ events: event() }) }),
      'handed_over',
      400,
    ],
    [
      'a field missing',
      () => ({ headers: authorised(), body: json({ events: [{ ...event(), action: undefined }] }) }),
      'handed_over',
      400,
    ],
    [
      'a field the event does not have',
      () => ({ headers: authorised(), body: json({ events: [event({ colour: 'red' })] }) }),
      'handed_over',
      400,
    ],
    ['a body that is not JSON', () => ({ headers: authorised(), body: '{"events": [' }), 'handed_over', 400],
    ['an empty body', () => ({ headers: authorised(), body: '' }), 'handed_over', 400],
    [
      'a body sent as text/plain',
      () => ({ headers: authorised({ 'content-type': 'text/plain' }), body: json({ events: [event()] }) }),
      'handed_over',
      400,
    ],
    [
      'a body nested too deep',
      () => ({
        headers: authorised(),
        body: json({ events: [event()], x: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) }),
      }),
      'handed_over',
      400,
    ],
    [
      'a NUL outside the events',
      () => ({ headers: authorised(), body: json({ events: [event()], 'x\u0000': 1 }) }),
      'handed_over',
      400,
    ],
    [
      'no Authorization header',
      () => ({ headers: { 'content-type': 'application/json' }, body: json({ events: [event()] }) }),
      'handed_over',
      403,
    ],
    [
      'a malformed Authorization header',
      () => ({ headers: authorised({ authorization: 'Basic abc' }), body: json({ events: [event()] }) }),
      'handed_over',
      403,
    ],
    [
      'a live key on the sandbox',
      () => ({ headers: authorised({ authorization: `Bearer ${liveKey}` }), body: json({ events: [event()] }) }),
      'handed_over',
      403,
    ],
    [
      'a key without usage_event.write',
      () => ({ headers: authorised({ authorization: `Bearer ${readOnlyKey}` }), body: json({ events: [event()] }) }),
      'handed_over',
      403,
    ],
    [
      'a declared length over the limit',
      () => ({ headers: authorised({ 'content-length': String(2 * 1024 * 1024) }), body: '{' }),
      'handed_over',
      413,
    ],
    [
      'a chunked body',
      () => ({ headers: authorised(), body: json({ events: [event()] }), chunked: true }),
      'handed_over',
      202,
    ],
    [
      'a forwarded address',
      () => ({ headers: authorised({ 'x-forwarded-for': '203.0.113.9' }), body: json({ events: [event()] }) }),
      'served',
      202,
    ],
  ];

  it.each(cases)('%s', async (_name, build, expected, status) => {
    const before = outcomes.length;
    const { viaFast, viaApp, fastLine, appLine } = await both(build());
    expect(viaFast).toEqual(viaApp);
    expect(viaFast.status).toBe(status);
    expect(comparable(fastLine)).toEqual(comparable(appLine));
    expect(outcomes.slice(before)).toEqual([expected]);
  });

  it('answers requests it does not take exactly as the app does, and leaves them to it', async () => {
    const before = outcomes.length;
    for (const options of [
      { path: '/usage-events?x=1', headers: authorised(), body: json({ events: [event()] }) },
      { path: '/usage-events/', headers: authorised(), body: json({ events: [event()] }) },
      { method: 'PUT', headers: authorised(), body: json({ events: [event()] }) },
    ]) {
      const { viaFast, viaApp, fastLine, appLine } = await both(options);
      expect(viaFast).toEqual(viaApp);
      expect(comparable(fastLine)).toEqual(comparable(appLine));
    }
    expect(outcomes.length).toBe(before);
  });

  it('serves the live environment with live keys', async () => {
    const { viaFast, viaApp } = await both(
      { headers: authorised({ authorization: `Bearer ${liveKey}` }), body: json({ events: [event()] }) },
      'live',
    );
    expect(viaFast).toEqual(viaApp);
    expect(viaFast.status).toBe(202);
  });

  it('stores each accepted event once, whichever path accepted it first', async () => {
    const events = await services.store.usageEvents.listByCustomer({ accountId, environment: 'sandbox' }, customerId);
    expect(events.length).toBeGreaterThan(0);
    expect(new Set(events.map((stored) => stored.eventKey)).size).toBe(events.length);
  });
});

describe('the usage-events fast path under a rate limit', () => {
  let storage: TestStorage;
  let fast: RunningService;
  let normal: RunningService;
  const outcomes: string[] = [];
  let key = '';

  beforeAll(async () => {
    storage = await createTestStorage('sqlite');
    const config = resolveServiceConfig(
      {
        'data-dir': storage.dataDir,
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': '2/60s',
        'key-rate-limit': '2/60s',
        'log-level': 'warn',
        ...(storage.databaseUrl ? { 'database-url': storage.databaseUrl } : {}),
      },
      {},
    );
    const services = await composeServices(config);
    fast = await startService(services, config, { onUsageFastPath: (outcome) => outcomes.push(outcome) });
    const shared = new Proxy(services.store, {
      get: (target, name) => (name === 'close' ? async () => {} : Reflect.get(target, name)),
    });
    normal = await startService({ ...services, store: shared }, config, { usageFastPath: false });
    const account = await createAccount(services, { name: 'Limited', earlyAccess: true });
    key = (
      await createApiKey(services, { accountId: account.id, environment: 'sandbox', name: 'k', permissions: ['all'] })
    ).token;
    // Windows are fixed; start clear of a window's last seconds so the burst falls in one window.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  });
  afterAll(async () => {
    await normal?.close();
    await fast?.close();
    await storage?.dispose();
  });

  it('counts each request once, against its key or its address, and refuses past the limit as the app does', async () => {
    // Without a key (handed to the app, counted by address once), with the key (counted by key).
    const keyed = [false, true, true, true, false, false];
    const burst = async (base: string) => {
      const result: RawAnswer[] = [];
      for (const [index, withKey] of keyed.entries()) {
        result.push(
          await send(base, {
            headers: {
              'x-request-id': `limited-${index}`,
              ...(withKey ? { authorization: `Bearer ${key}` } : {}),
              'content-type': 'application/json',
            },
            body: JSON.stringify({ events: [] }),
          }),
        );
      }
      return result;
    };
    const viaFast = await burst(fast.sandboxUrl);
    const viaApp = await burst(normal.sandboxUrl);
    expect(viaFast.map((answer) => answer.status)).toEqual([403, 400, 400, 429, 403, 429]);
    expect(viaFast[3]?.body).toContain('with this API key');
    expect(viaFast[5]?.body).toContain('from this address');
    const withoutRetry = (answer: RawAnswer) => {
      const { 'retry-after': retryAfter, ...headers } = answer.headers;
      if (answer.status === 429) expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // The seconds left may tick between the two bursts, in the header and in the detail alike.
      return { ...answer, headers, body: answer.body.replace(/retry after \d+ seconds/, 'retry after N seconds') };
    };
    expect(viaFast.map(withoutRetry)).toEqual(viaApp.map(withoutRetry));
    expect(outcomes).toEqual(['handed_over', 'served', 'served', 'handed_over', 'handed_over', 'handed_over']);
  });
});
