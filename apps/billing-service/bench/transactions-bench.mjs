/**
 * @module
 * Transactions benchmark, on the built service (`npm run build` first): for SQLite and then
 * PostgreSQL, seeds TRANSACTIONS (default 1,000,000) transactions across CUSTOMERS (10,000)
 * customers straight into the store in big multi-row batches, starts `drawdown serve` pinned to
 * one core, and measures from this process (on the other core), one request at a time:
 * - the list page of one random customer with the billing-history status set
 *   (`status=billed,paid,past_due,completed,canceled`), p50/p99 (target p99 < 10 ms);
 * - the first page of all transactions, and the page after a cursor;
 * - invoice PDF render time in process (document model + pdfkit), p50/p99, and the signed
 *   invoice download over HTTP, p50.
 * Environment: BENCH_TRANSACTIONS, BENCH_CUSTOMERS, BENCH_REQUESTS, BENCH_POSTGRES_URL
 * (default postgres://postgres@127.0.0.1:5432/test), BENCH_ENGINES (sqlite,postgres), and
 * BENCH_PROFILE_DIR to write the service's CPU profile (summarise with bench/lib/summarize-profile.mjs).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildInvoiceDocument, buildTransaction, DEFAULT_TAX_SETTINGS } from '@drawdown/billing-core';
import { openDatabase, storeOn } from '@drawdown/billing-store';
import { renderInvoicePdf } from '../dist/rendering/invoice-pdf.js';
import { CURRENT_SERVICE_DIR, startBillingService } from './lib/billing-service.mjs';
import { createPostgresDatabase } from './lib/event-store.mjs';
import { killAll, stopProcess } from './lib/processes.mjs';
import { formatTable, machine, percentile, round } from './lib/report.mjs';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2_000);
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS_PER_STATEMENT = 1_000;
const STATEMENTS_PER_TRANSACTION = 50;
const HISTORY_STATUSES = 'billed,paid,past_due,completed,canceled';
// A realistic mix: most transactions completed, some open, a few failed or canceled.
const STATUS_MIX = [
  ...Array(70).fill('completed'),
  ...Array(8).fill('billed'),
  ...Array(5).fill('past_due'),
  ...Array(5).fill('ready'),
  ...Array(3).fill('draft'),
  ...Array(7).fill('canceled'),
  ...Array(2).fill('paid'),
];

const NOW = '2026-01-15T10:00:00.000Z';
const idOf = (prefix, n) => `${prefix}_${n.toString(36).padStart(26, '0')}`;

function fixtures(accountId) {
  const product = {
    id: idOf('pro', 1),
    name: 'Analytics',
    description: null,
    type: 'standard',
    taxCategory: 'saas',
    imageUrl: null,
    customData: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  };
  const price = {
    id: idOf('pri', 1),
    productId: product.id,
    name: null,
    description: 'Monthly plan',
    type: 'standard',
    billingCycle: { interval: 'month', frequency: 1 },
    trialPeriod: null,
    taxMode: 'external',
    unitPrice: { amount: '4900', currencyCode: 'EUR' },
    unitPriceOverrides: [],
    quantity: { minimum: 1, maximum: 100 },
    allowances: [],
    customData: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  };
  const customer = {
    id: idOf('ctm', 1),
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    marketingConsent: false,
    locale: 'en',
    customData: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  };
  const address = {
    id: idOf('add', 1),
    customerId: customer.id,
    description: null,
    firstLine: '1 Analytical Way',
    secondLine: null,
    city: 'Berlin',
    postalCode: '10115',
    region: null,
    countryCode: 'DE',
    customData: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  };
  let next = 0;
  const template = buildTransaction(
    {
      items: [{ price, product, quantity: 3 }],
      customer,
      address,
      collectionMode: 'automatic',
      origin: 'subscription_recurring',
    },
    {
      ids: { newId: (prefix) => idOf(prefix, ++next) },
      now: NOW,
      taxSettings: { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: 'DE', rate: '0.19' }] },
    },
  );
  return {
    account: { id: accountId, name: 'Bench account', earlyAccess: false, createdAt: NOW },
    customer,
    address,
    template,
  };
}

/** Seeds rows in big multi-row inserts, many statements per database transaction. */
async function seed(database, accountId, template) {
  const marker = {
    ...template,
    id: '@ID@',
    customerId: '@CTM@',
    status: '@ST@',
    createdAt: '@AT@',
    updatedAt: '@AT@',
    invoiceNumber: null,
  };
  const parts = JSON.stringify(marker).split(/"@(ID|CTM|ST|AT)@"/);
  const body = (values) => parts.map((part, index) => (index % 2 === 1 ? JSON.stringify(values[part]) : part)).join('');
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
  const start = Date.parse('2025-01-01T00:00:00Z');
  const started = performance.now();
  let written = 0;
  while (written < TRANSACTIONS) {
    await database.transaction(async (tx) => {
      for (let statement = 0; statement < STATEMENTS_PER_TRANSACTION && written < TRANSACTIONS; statement += 1) {
        const count = Math.min(ROWS_PER_STATEMENT, TRANSACTIONS - written);
        const params = [];
        for (let index = 0; index < count; index += 1) {
          const n = written + index;
          const id = idOf('txn', n + 1);
          const customerId = idOf('ctm', (n % CUSTOMERS) + 1);
          const status = STATUS_MIX[(n * 7919) % STATUS_MIX.length];
          const at = new Date(start + n * 30_000).toISOString();
          params.push(
            accountId,
            'live',
            id,
            customerId,
            status,
            null,
            'automatic',
            null,
            'subscription_recurring',
            null,
            at,
            at,
            '',
            null,
            body({ ID: id, CTM: customerId, ST: status, AT: at }),
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
  // Steady state: autovacuum would have set the visibility map and statistics by now.
  if (database.dialect === 'postgres') await database.run('vacuum analyze transactions');
  return {
    seconds: (performance.now() - started) / 1000,
    rowsPerSecond: TRANSACTIONS / ((performance.now() - started) / 1000),
  };
}

async function timeRequests(count, makeUrl, key) {
  // A keep-alive connection the server closed while idle (between phases) fails once; warm up anew.
  await fetch(makeUrl(0), { headers: key ? { Authorization: `Bearer ${key}` } : {} })
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);
  const times = [];
  for (let index = 0; index < count; index += 1) {
    const url = makeUrl(index);
    const started = performance.now();
    const response = await fetch(url, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  }
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)) };
}

async function runEngine(engine) {
  const dataDir = mkdtempSync(join(tmpdir(), 'drawdown-txn-bench-'));
  const postgres = engine === 'postgres' ? await createPostgresDatabase(POSTGRES_URL) : null;
  if (postgres?.error) return { engine, skipped: `PostgreSQL unavailable: ${postgres.error}` };
  const service = await startBillingService({
    serviceDir: CURRENT_SERVICE_DIR,
    dataDir,
    ...(process.env.BENCH_PROFILE_DIR
      ? { profileDir: process.env.BENCH_PROFILE_DIR, profileName: `transactions-${engine}.cpuprofile` }
      : {}),
    ...(postgres ? { databaseUrl: postgres.url } : {}),
  });
  const database = openDatabase(
    postgres
      ? { engine: 'postgres', url: postgres.url }
      : { engine: 'sqlite', file: join(dataDir, 'drawdown.sqlite'), synchronous: 'NORMAL' },
  );
  try {
    const { template } = fixtures(service.accountId);
    const seeded = await seed(database, service.accountId, template);
    const customerAt = (index) => idOf('ctm', ((index * 2_654_435_761) % CUSTOMERS) + 1);
    // Warm caches and connections, as a service in use would have them.
    await timeRequests(
      200,
      (index) => `${service.liveUrl}/transactions?customer_id=${customerAt(index)}&status=${HISTORY_STATUSES}`,
      service.liveKey,
    );
    const customerPage = await timeRequests(
      REQUESTS,
      (index) => `${service.liveUrl}/transactions?customer_id=${customerAt(index + 7)}&status=${HISTORY_STATUSES}`,
      service.liveKey,
    );
    // The same page through the store, in this process: the database's share of the latency.
    const store = storeOn(database);
    const scope = { accountId: service.accountId, environment: 'live' };
    const queryTimes = [];
    for (let index = 0; index < REQUESTS; index += 1) {
      const started = performance.now();
      await store.transactions.list(scope, {
        filter: {
          customer_id: [{ op: 'in', values: [customerAt(index + 11)] }],
          status: [{ op: 'in', values: HISTORY_STATUSES.split(',') }],
        },
        perPage: 30,
        direction: 'desc',
        orderBy: 'id',
      });
      queryTimes.push(performance.now() - started);
    }
    const storeQuery = { p50: round(percentile(queryTimes, 50)), p99: round(percentile(queryTimes, 99)) };
    const firstPage = await timeRequests(200, () => `${service.liveUrl}/transactions`, service.liveKey);
    const cursorPage = await timeRequests(
      200,
      (index) =>
        `${service.liveUrl}/transactions?after=${idOf('txn', TRANSACTIONS - ((index * 997) % (TRANSACTIONS - 100)))}`,
      service.liveKey,
    );
    const invoiceIds = [];
    for (let n = 0; invoiceIds.length < 50; n += 1) {
      if (STATUS_MIX[(n * 7919) % STATUS_MIX.length] === 'completed') invoiceIds.push(idOf('txn', n + 1));
    }
    const urls = [];
    for (const id of invoiceIds) {
      const response = await fetch(`${service.liveUrl}/transactions/${id}/invoice`, {
        headers: { Authorization: `Bearer ${service.liveKey}` },
      });
      urls.push((await response.json()).data?.url);
    }
    const download = await timeRequests(200, (index) => urls[index % urls.length], null);
    return {
      engine,
      seeded: { seconds: round(seeded.seconds), rowsPerSecond: Math.round(seeded.rowsPerSecond) },
      customerPage,
      storeQuery,
      firstPage,
      cursorPage,
      download,
    };
  } finally {
    await database.close();
    await stopProcess(service.handle);
    await postgres?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function renderTimes() {
  const { account, customer, address, template } = fixtures(idOf('acc', 1));
  const completed = { ...template, status: 'completed', invoiceNumber: '2026-00001' };
  const times = [];
  let sample;
  for (let index = 0; index < 200; index += 1) {
    const started = performance.now();
    sample = await renderInvoicePdf(buildInvoiceDocument(completed, { account, customer, address }));
    times.push(performance.now() - started);
  }
  const file = join(tmpdir(), 'drawdown-bench-invoice.pdf');
  writeFileSync(file, sample);
  return { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), bytes: sample.length, sample: file };
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});

try {
  const render = await renderTimes();
  const results = [];
  for (const engine of ENGINES) results.push(await runEngine(engine));
  console.log(
    `transactions: ${TRANSACTIONS} across ${CUSTOMERS} customers; ${REQUESTS} customer-page requests, one at a time`,
  );
  console.log(JSON.stringify(machine()));
  console.log(
    formatTable(
      [
        'engine',
        'seed s',
        'seed rows/s',
        'customer+status p50 ms',
        'p99 ms',
        'store query p50/p99',
        'first page p50/p99',
        'cursor page p50/p99',
        'invoice download p50',
      ],
      results.map((result) =>
        result.skipped
          ? [result.engine, result.skipped, '', '', '', '', '', '', '']
          : [
              result.engine,
              result.seeded.seconds,
              result.seeded.rowsPerSecond,
              result.customerPage.p50,
              result.customerPage.p99,
              `${result.storeQuery.p50}/${result.storeQuery.p99}`,
              `${result.firstPage.p50}/${result.firstPage.p99}`,
              `${result.cursorPage.p50}/${result.cursorPage.p99}`,
              result.download.p50,
            ],
      ),
    ),
  );
  console.log(
    `invoice PDF render in process (document + pdfkit): p50 ${render.p50} ms, p99 ${render.p99} ms, ${render.bytes} bytes (sample: ${render.sample})`,
  );
  const failed = results.filter((result) => !result.skipped && result.customerPage.p99 >= 10);
  if (failed.length > 0)
    console.log(`target missed (customer page p99 < 10 ms): ${failed.map((result) => result.engine).join(', ')}`);
} finally {
  killAll();
}
