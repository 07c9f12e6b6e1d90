/**
 * @module
 * Sandbox jump benchmark, on the built service (`npm run build` first): one sandbox account with
 * SUBSCRIPTIONS (default 100) monthly subscriptions moves its clock 10 years ahead in one
 * `POST /sandbox-clock/advance` (about 12,000 renewals), while this process sends live requests
 * of another account one at a time (`GET /products`) until the jump answers. Reports their
 * p50/p99/max against the same requests with no jump running, and the jump's length (ADR 0900:
 * a jump yields between slices of due steps, so it must not hold other accounts' requests).
 * Environment: BENCH_SUBSCRIPTIONS, BENCH_YEARS (default 10), BENCH_ENGINES (default sqlite),
 * BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createApiKey } from '@drawdown/billing-core';
import { CURRENT_SERVICE_DIR, serviceModules, startBillingService } from './lib/billing-service.mjs';
import { createPostgresDatabase } from './lib/event-store.mjs';
import { killAll, stopProcess } from './lib/processes.mjs';
import { formatTable, machine, percentile, round } from './lib/report.mjs';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100);
const YEARS = Number(process.env.BENCH_YEARS ?? 10);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BASELINE_REQUESTS = 300;

function api(baseUrl, token) {
  return async (method, path, body) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const payload = await response.json();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(payload)}`);
    return payload.data;
  };
}

/** Milliseconds of one live request of the other account. */
async function timedRequest(liveUrl, key) {
  const started = performance.now();
  const response = await fetch(`${liveUrl}/products`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`live request answered ${response.status}`);
  return performance.now() - started;
}

async function setUp(service, storage) {
  const sandbox = api(service.sandboxUrl, service.sandboxKey);
  const product = await sandbox('POST', '/products', { name: 'Jump plan', tax_category: 'saas' });
  const price = await sandbox('POST', '/prices', {
    product_id: product.id,
    description: 'Jump plan',
    unit_price: { amount: '1000', currency_code: 'USD' },
    billing_cycle: { interval: 'month', frequency: 1 },
  });
  const customerIds = [];
  for (let index = 0; index < SUBSCRIPTIONS; index += 1) {
    customerIds.push((await sandbox('POST', '/customers', { email: `jump-${index}@example.com` })).id);
  }
  const { composeServices, startSubscription } = await serviceModules(CURRENT_SERVICE_DIR);
  const services = await composeServices(storage);
  try {
    const account = await services.store.accounts.findById(service.accountId);
    const context = {
      store: services.store,
      ids: services.ids,
      clock: services.clock,
      scope: { accountId: account.id, environment: 'sandbox' },
      account,
    };
    for (const customerId of customerIds) {
      await services.store.transaction((tx) =>
        startSubscription(context, tx, {
          customerId,
          addressId: null,
          currencyCode: 'USD',
          collectionMode: 'automatic',
          items: [{ priceId: price.id, quantity: 1 }],
          transactionId: null,
        }),
      );
    }
    const other = await createAccount(services, { name: 'Other tenant', earlyAccess: false });
    const { token } = await createApiKey(services, {
      accountId: other.id,
      environment: 'live',
      name: 'bench',
      permissions: ['all'],
      expiresAt: null,
    });
    return { otherLiveKey: token };
  } finally {
    await services.store.close();
  }
}

function summary(values) {
  return {
    requests: values.length,
    p50: round(percentile(values, 50)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
  };
}

async function runEngine(engine) {
  const dataDir = mkdtempSync(join(tmpdir(), 'drawdown-jump-bench-'));
  const database = engine === 'postgres' ? await createPostgresDatabase(POSTGRES_URL) : undefined;
  const storage = { dataDir, databaseUrl: database?.url };
  // The jump is larger than the shipped quotas allow (ADR 1487): the bench raises them.
  const quota = String(SUBSCRIPTIONS * YEARS * 13);
  const started = await startBillingService({
    serviceDir: CURRENT_SERVICE_DIR,
    ...storage,
    extraArgs: ['--sandbox-jump-steps', quota, '--sandbox-daily-steps', quota],
  });
  try {
    const [, sandboxUrl] = await started.handle.waitFor(/sandbox:\s+(http:\/\/\S+)/);
    const [, sandboxKey] = await started.handle.waitFor(/sandbox:\s+(pdl_sdbx_\S+)/);
    const service = { ...started, sandboxUrl, sandboxKey };
    const { otherLiveKey } = await setUp(service, storage);

    const quiet = [];
    for (let index = 0; index < BASELINE_REQUESTS; index += 1)
      quiet.push(await timedRequest(service.liveUrl, otherLiveKey));

    const during = [];
    let done = false;
    const jumpStarted = performance.now();
    const jump = api(service.sandboxUrl, service.sandboxKey)('POST', '/sandbox-clock/advance', {
      seconds: YEARS * 365 * 86_400,
    }).finally(() => {
      done = true;
    });
    while (!done) during.push(await timedRequest(service.liveUrl, otherLiveKey));
    const result = await jump;
    const jumpMs = performance.now() - jumpStarted;
    return {
      engine,
      quiet: summary(quiet),
      during: summary(during),
      stepsRun: result.steps_run,
      jumpMs: round(jumpMs),
    };
  } finally {
    await stopProcess(started.handle);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.once('exit', killAll);
const results = [];
for (const engine of ENGINES) results.push(await runEngine(engine));
process.stdout.write(`${JSON.stringify(machine())}\n`);
process.stdout.write(
  formatTable(
    ['engine', 'live requests', 'p50 ms', 'p99 ms', 'max ms', 'steps run', 'jump ms'],
    results.flatMap((result) => [
      [result.engine, `quiet ${result.quiet.requests}`, result.quiet.p50, result.quiet.p99, result.quiet.max, '', ''],
      [
        result.engine,
        `during jump ${result.during.requests}`,
        result.during.p50,
        result.during.p99,
        result.during.max,
        result.stepsRun,
        result.jumpMs,
      ],
    ]),
  ),
);
