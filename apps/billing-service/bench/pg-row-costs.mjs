/**
 * @module
 * PostgreSQL's CPU per usage event for the store's own work, without HTTP: ingest batches of a
 * fixed size through `usageIngest.record`, each followed by the drawdown's `takePending`, against a
 * fresh database; the backends' user + system time from /proc/<pid>/stat, divided by the events.
 * No meters, so the taken events draw nothing (balances and ledger are not exercised). Builds
 * compare at one batch size, which a saturating HTTP run cannot promise on a shared machine:
 *
 *   node bench/pg-row-costs.mjs <checkout root, built> <label> [events per batch = 50] [batches = 200]
 *
 * (`takePending` gets a second argument for builds before ADR 0717, which took `appliedAt`.)
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const [root, label, batchArg, batchesArg] = process.argv.slice(2);
const batch = Number(batchArg ?? 50),
  batches = Number(batchesArg ?? 200);
const { openStore } = await import(`${root}/packages/billing-store/dist/index.js`);
const name = `hperf_micro_${label}_${randomBytes(3).toString('hex')}`;
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect();
await admin.query(`create database ${name}`);
const url = `postgres://postgres@127.0.0.1:5432/${name}`;
const store = await openStore({ engine: 'postgres', url, maxConnections: 4 });
const raw = new pg.Client({ connectionString: url });
await raw.connect();
const scope = { accountId: 'acc_micro', environment: 'live' };
for (let c = 0; c < 20; c++)
  await raw.query(
    `insert into customers (account_id, environment, id, status, email, search, body) values ($1,$2,$3,'active',$4,'', '{}')`,
    [scope.accountId, scope.environment, `ctm_${c}`, `c${c}@x.test`],
  );
const ticks = 100; // USER_HZ
function cpuOfMatching(text) {
  let total = 0;
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (!readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(text)) continue;
      const f = readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(f[11]) + Number(f[12])) * (1000 / ticks);
    } catch {}
  }
  return total;
}
const now = new Date().toISOString();
let n = 0;
async function round() {
  const results = await Promise.all(
    Array.from({ length: batch }, () => {
      n += 1;
      return store.usageIngest.record(
        scope,
        {
          id: `uev_${label}${n}`,
          customerId: `ctm_${n % 20}`,
          action: 'api_call',
          eventKey: randomBytes(8).toString('hex'),
          quantity: '1',
          occurredAt: now,
        },
        now,
      );
    }),
  );
  if (results.some((r) => r !== 'recorded')) throw new Error(String(results));
  let taken;
  do taken = await store.transaction((tx) => tx.usageEvents.takePending(500, now));
  while (taken.length === 500);
}
for (let i = 0; i < 20; i++) await round(); // warm-up
const before = cpuOfMatching(name),
  t0 = process.cpuUsage(),
  w0 = Date.now();
for (let i = 0; i < batches; i++) await round();
const dbMs = cpuOfMatching(name) - before,
  cu = process.cpuUsage(t0);
const events = batch * batches;
console.log(
  `${label}: batch ${batch}, ${events} events, PostgreSQL CPU ${((dbMs * 1000) / events).toFixed(1)} µs/event, client CPU ${((cu.user + cu.system) / events).toFixed(1)} µs/event, wall ${Date.now() - w0} ms`,
);
await raw.end();
await store.close();
await admin.query(`drop database ${name} with (force)`);
await admin.end();
