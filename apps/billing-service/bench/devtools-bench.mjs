/**
 * @module
 * Metrics and reports benchmark, on the built service (`npm run build` first): seeds
 * TRANSACTIONS (default 1,000,000) transactions over a year straight into the store, with the
 * daily metric rollups the service would have written for them (computed by the core's own
 * `transactionMetricDeltas`), plus a year of subscriber and MRR changes. Then, against
 * `drawdown serve` pinned to one core, one request at a time from this process:
 * - each of the seven metrics endpoints over a 365-day range, p50/p99 (target p99 < 50 ms);
 * - a `transactions` report of every transaction: time until `ready`, the service's peak RSS
 *   while generating (bounded memory), and the streamed CSV download (rows, MiB, seconds).
 * Environment: BENCH_TRANSACTIONS, BENCH_REQUESTS (per endpoint, default 200), BENCH_ENGINES
 * (default sqlite; add postgres), BENCH_POSTGRES_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTransaction, DEFAULT_TAX_SETTINGS, transactionMetricDeltas } from '@drawdown/billing-core';
import { openDatabase } from '@drawdown/billing-store';
import { CURRENT_SERVICE_DIR, startBillingService } from './lib/billing-service.mjs';
import { createPostgresDatabase } from './lib/event-store.mjs';
import { killAll, memoryOf, sampleMemory, stopProcess } from './lib/processes.mjs';
import { formatTable, machine, percentile, round } from './lib/report.mjs';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS_PER_STATEMENT = 1_000;
const STATEMENTS_PER_TRANSACTION = 50;
const START = Date.parse('2025-01-01T00:00:00Z');
const SPAN_MS = 365 * 86_400_000;
const STATUSES = [
  ...Array(80).fill('completed'),
  ...Array(10).fill('billed'),
  ...Array(5).fill('ready'),
  ...Array(5).fill('canceled'),
];
const ENDPOINTS = [
  'revenue',
  'refunds',
  'chargebacks',
  'checkout-conversion',
  'active-subscribers',
  'monthly-recurring-revenue',
  'monthly-recurring-revenue-change',
];

const idOf = (prefix, n) => `${prefix}_${n.toString(36).padStart(26, '0')}`;

function templates() {
  const at = '2025-01-01T00:00:00.000Z';
  const product = {
    id: idOf('pro', 1),
    name: 'Analytics',
    description: null,
    type: 'standard',
    taxCategory: 'saas',
    imageUrl: null,
    customData: null,
    status: 'active',
    createdAt: at,
    updatedAt: at,
  };
  const price = (currencyCode, amount) => ({
    id: idOf('pri', currencyCode === 'USD' ? 1 : 2),
    productId: product.id,
    name: null,
    description: 'Monthly plan',
    type: 'standard',
    billingCycle: { interval: 'month', frequency: 1 },
    trialPeriod: null,
    taxMode: 'external',
    unitPrice: { amount, currencyCode },
    unitPriceOverrides: [],
    quantity: { minimum: 1, maximum: 100 },
    allowances: [],
    customData: null,
    status: 'active',
    createdAt: at,
    updatedAt: at,
  });
  const customer = {
    id: idOf('ctm', 1),
    name: 'Ada',
    email: 'ada@example.com',
    marketingConsent: false,
    locale: 'en',
    customData: null,
    status: 'active',
    createdAt: at,
    updatedAt: at,
  };
  const address = {
    id: idOf('add', 1),
    customerId: customer.id,
    description: null,
    firstLine: null,
    secondLine: null,
    city: null,
    postalCode: '10115',
    region: null,
    countryCode: 'DE',
    customData: null,
    status: 'active',
    createdAt: at,
    updatedAt: at,
  };
  let next = 0;
  const build = (currencyCode, amount, origin) =>
    buildTransaction(
      {
        items: [{ price: price(currencyCode, amount), product, quantity: 3 }],
        customer,
        address,
        collectionMode: 'automatic',
        origin,
      },
      {
        ids: { newId: (prefix) => idOf(prefix, ++next) },
        now: at,
        taxSettings: { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: 'DE', rate: '0.19' }] },
      },
    );
  return [build('USD', '4900', 'subscription_recurring'), build('EUR', '3900', 'api')];
}

/** Seeds the transactions and returns the metric rollups they make, aggregated by row. */
async function seed(database, accountId) {
  const [usd, eur] = templates();
  const rollups = new Map();
  const add = (delta) => {
    const key = `${delta.metric}|${delta.currencyCode}|${delta.day}`;
    const row = rollups.get(key) ?? { ...delta, amount: 0n, count: 0 };
    row.amount += delta.amount;
    row.count += delta.count;
    rollups.set(key, row);
  };
  const columns = [
    'account_id',
    'environment',
    'id',
    'customer_id',
    'status',
    'subscription_id',
    'collection_mode',
    'invoice_number',
    'origin',
    'billed_at',
    'created_at',
    'updated_at',
    'billed_key',
    'past_due_after',
    'body',
  ];
  const rowSql = `(${columns.map(() => '?').join(', ')})`;
  const started = performance.now();
  let written = 0;
  while (written < TRANSACTIONS) {
    await database.transaction(async (tx) => {
      for (let statement = 0; statement < STATEMENTS_PER_TRANSACTION && written < TRANSACTIONS; statement += 1) {
        const count = Math.min(ROWS_PER_STATEMENT, TRANSACTIONS - written);
        const params = [];
        for (let index = 0; index < count; index += 1) {
          const n = written + index;
          const template = n % 4 === 0 ? eur : usd;
          const at = new Date(START + Math.floor((n / TRANSACTIONS) * SPAN_MS)).toISOString();
          const transaction = {
            ...template,
            id: idOf('txn', n + 1),
            customerId: idOf('ctm', (n % 10_000) + 1),
            status: STATUSES[(n * 7919) % STATUSES.length],
            createdAt: at,
            updatedAt: at,
            invoiceNumber: null,
          };
          for (const delta of transactionMetricDeltas(null, transaction, at)) add(delta);
          params.push(
            accountId,
            'live',
            transaction.id,
            transaction.customerId,
            transaction.status,
            null,
            'automatic',
            null,
            transaction.origin,
            null,
            at,
            at,
            '',
            null,
            JSON.stringify(transaction),
          );
        }
        await tx.run(
          `insert into transactions (${columns.join(', ')}) values ${Array(count).fill(rowSql).join(', ')}`,
          params,
        );
        written += count;
      }
    });
  }
  // A year of subscriber and MRR changes: twenty sign-ups and five cancellations a day.
  for (let day = 0; day < 365; day += 1) {
    const date = new Date(START + day * 86_400_000).toISOString().slice(0, 10);
    add({ metric: 'active_subscribers', currencyCode: 'USD', day: date, amount: 0n, count: 15 });
    add({ metric: 'monthly_recurring_revenue', currencyCode: 'USD', day: date, amount: 15n * 14_700n, count: 0 });
  }
  await database.transaction(async (tx) => {
    for (const row of rollups.values()) {
      await tx.run(
        'insert into metric_days (account_id, environment, metric, currency_code, day, amount, count) values (?, ?, ?, ?, ?, ?, ?)',
        [accountId, 'live', row.metric, row.currencyCode, row.day, row.amount.toString(), row.count],
      );
    }
  });
  if (database.dialect === 'postgres') await database.run('vacuum analyze');
  return { seconds: round((performance.now() - started) / 1000), rollupRows: rollups.size };
}

async function get(url, key) {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  const body = await response.json();
  if (response.status >= 300) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data;
}

async function timeEndpoint(service, endpoint) {
  const url = `${service.liveUrl}/metrics/${endpoint}?from=2025-01-01&to=2026-01-01`;
  for (let index = 0; index < 20; index += 1) await get(url, service.liveKey);
  const times = [];
  for (let index = 0; index < REQUESTS; index += 1) {
    const started = performance.now();
    await get(url, service.liveKey);
    times.push(performance.now() - started);
  }
  return { endpoint, p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) };
}

async function timeReport(service) {
  const baseline = memoryOf(service.pid).rssMiB;
  const memory = sampleMemory(service.pid, 100);
  const started = performance.now();
  const response = await fetch(`${service.liveUrl}/reports`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${service.liveKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'transactions' }),
  });
  const { data: created } = await response.json();
  let report = created;
  const progress = [];
  while (report.status === 'pending') {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    report = await get(`${service.liveUrl}/reports/${created.id}`, service.liveKey);
    if (report.rows !== null) progress.push(report.rows);
  }
  const seconds = (performance.now() - started) / 1000;
  const sampled = memory.stop();
  if (report.status !== 'ready') throw new Error(`the report ended ${report.status}`);
  const { url } = await get(`${service.liveUrl}/reports/${created.id}/download-url`, service.liveKey);
  const downloadStarted = performance.now();
  const download = await fetch(url);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of download.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return {
    rows: report.rows,
    seconds: round(seconds),
    progressSamples: progress.length,
    baselineRssMiB: round(baseline),
    maxRssMiB: round(sampled.maxRssMiB),
    csvLines: lines,
    csvMiB: round(bytes / 1_048_576),
    downloadSeconds: round((performance.now() - downloadStarted) / 1000),
  };
}

async function runEngine(engine) {
  const dataDir = mkdtempSync(join(tmpdir(), 'drawdown-devtools-bench-'));
  const postgres = engine === 'postgres' ? await createPostgresDatabase(POSTGRES_URL) : null;
  if (postgres?.error) return { engine, skipped: `PostgreSQL unavailable: ${postgres.error}` };
  const service = await startBillingService({
    serviceDir: CURRENT_SERVICE_DIR,
    dataDir,
    ...(postgres ? { databaseUrl: postgres.url } : {}),
  });
  const database = openDatabase(
    postgres
      ? { engine: 'postgres', url: postgres.url }
      : { engine: 'sqlite', file: join(dataDir, 'drawdown.sqlite'), synchronous: 'NORMAL' },
  );
  try {
    const seeded = await seed(database, service.accountId);
    const metrics = [];
    for (const endpoint of ENDPOINTS) metrics.push(await timeEndpoint(service, endpoint));
    const report = await timeReport(service);
    return { engine, seeded, metrics, report };
  } finally {
    await database.close();
    await stopProcess(service.handle);
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});

try {
  const results = [];
  for (const engine of ENGINES) results.push(await runEngine(engine));
  console.log(
    `devtools: ${TRANSACTIONS} transactions over 365 days; ${REQUESTS} requests per metrics endpoint, one at a time`,
  );
  console.log(JSON.stringify(machine()));
  for (const result of results) {
    if (result.skipped) {
      console.log(`${result.engine}: ${result.skipped}`);
      continue;
    }
    console.log(`${result.engine}: seeded in ${result.seeded.seconds} s (${result.seeded.rollupRows} rollup rows)`);
    console.log(
      formatTable(
        ['metric (365 days)', 'p50 ms', 'p99 ms'],
        result.metrics.map((row) => [row.endpoint, row.p50, row.p99]),
      ),
    );
    const report = result.report;
    console.log(
      formatTable(
        [
          'report rows',
          'until ready s',
          'progress polls',
          'RSS before MiB',
          'max RSS MiB',
          'CSV lines',
          'CSV MiB',
          'download s',
        ],
        [
          [
            report.rows,
            report.seconds,
            report.progressSamples,
            report.baselineRssMiB,
            report.maxRssMiB,
            report.csvLines,
            report.csvMiB,
            report.downloadSeconds,
          ],
        ],
      ),
    );
    const missed = result.metrics.filter((row) => row.p99 >= 50);
    if (missed.length > 0)
      console.log(`target missed (metrics p99 < 50 ms): ${missed.map((row) => row.endpoint).join(', ')}`);
  }
} finally {
  killAll();
}
