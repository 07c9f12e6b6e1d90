/**
 * @module
 * The bench's own look into the service's database, beside the running service: a fresh
 * PostgreSQL database per run, the usage_events counts and lag stamps, and the seeding of
 * stored events in big batches for the memory measurement. Read-only toward the service's
 * state except for the seeded rows, which are marked applied so no worker touches them.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';

const SEED_BATCH = 50_000;

/** Creates an empty database on the PostgreSQL server at `serverUrl`; null when none answers. */
export async function createPostgresDatabase(serverUrl) {
  const name = `drawdown_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

function sqliteProbe(dataDir) {
  const db = new Sqlite(join(dataDir, 'drawdown.sqlite'));
  db.pragma('busy_timeout = 30000');
  // Seeding is fixture setup, not the measured path; the service's own connection stays FULL.
  db.pragma('synchronous = NORMAL');
  const value = (sql, ...params) =>
    db
      .prepare(sql)
      .pluck()
      .get(...params);
  return {
    engine: 'sqlite',
    maxSequence: async () => Number(value('select coalesce(max(sequence), 0) from usage_events')),
    count: async () => Number(value('select count(*) from usage_events')),
    pending: async () => Number(value('select count(*) from usage_events where applied_at is null')),
    countWithPrefix: async (prefix) =>
      Number(value('select count(*) from usage_events where event_key like ?', `${prefix}-%`)),
    stamps: async (afterSequence) =>
      db
        .prepare('select accepted_at, applied_at from usage_events where sequence > ? and applied_at is not null')
        .all(afterSequence),
    sampleDrawdowns: async () => value('select drawdowns from usage_events where drawdowns <> ? limit 1', '[]'),
    async seed(rows, batchFrom) {
      const insert = db.prepare(
        `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
           quantity, accepted_at, drawdowns, applied_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertMany = db.transaction((from, to) => {
        for (let index = from; index < to; index += 1) insert.run(...rows(index));
      });
      for (let from = 0; from < batchFrom.total; from += SEED_BATCH) {
        insertMany(from, Math.min(batchFrom.total, from + SEED_BATCH));
        // Let the service's writer in between batches.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // A service that stored these rows itself would have checkpointed them as it went; leave
      // no oversized WAL for the measured phases to pay for.
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    close: async () => db.close(),
  };
}

async function postgresProbe(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const value = async (sql, params = []) => Object.values((await client.query(sql, params)).rows[0] ?? {})[0];
  return {
    engine: 'postgres',
    maxSequence: async () => Number(await value('select coalesce(max(sequence), 0) from usage_events')),
    count: async () => Number(await value('select count(*) from usage_events')),
    pending: async () => Number(await value('select count(*) from usage_events where applied_at is null')),
    countWithPrefix: async (prefix) =>
      Number(await value('select count(*) from usage_events where event_key like $1', [`${prefix}-%`])),
    stamps: async (afterSequence) =>
      (
        await client.query(
          'select accepted_at, applied_at from usage_events where sequence > $1 and applied_at is not null',
          [afterSequence],
        )
      ).rows,
    sampleDrawdowns: async () =>
      value(`select drawdowns from usage_events where drawdowns <> '[]' limit 1`).then((text) => text ?? null),
    async seed(_rows, batchFrom) {
      // generate_series builds the rows in the server: a million rows in seconds, not minutes.
      const { accountId, customerIds, action, occurredAt, acceptedAt, drawdowns, prefix } = batchFrom;
      for (let from = 0; from < batchFrom.total; from += SEED_BATCH * 4) {
        const to = Math.min(batchFrom.total, from + SEED_BATCH * 4);
        await client.query(
          `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
             quantity, accepted_at, drawdowns, applied_at)
           select $1, 'live', $2 || n, ($3::text[])[1 + n % array_length($3::text[], 1)], $4,
             $5 || lpad(to_hex((n * 2654435761) % 4294967296), 8, '0') || '-' || n, $6,
             '1', $7, $8, $7
           from generate_series($9::bigint, $10::bigint) as n`,
          [
            accountId,
            `uev_${prefix}`,
            customerIds,
            action,
            `${prefix}-`,
            occurredAt,
            acceptedAt,
            drawdowns,
            from,
            to - 1,
          ],
        );
      }
    },
    close: () => client.end(),
  };
}

/** Opens the probe for the engine the service runs on. */
export function openEventStore(storage) {
  return storage.databaseUrl ? postgresProbe(storage.databaseUrl) : Promise.resolve(sqliteProbe(storage.dataDir));
}

/**
 * Eight hex digits that jump around as `index` counts up (Knuth's multiplicative hash), so seeded
 * event keys land all over the idempotency index as UUID keys would. The PostgreSQL seed computes
 * the same digits in SQL.
 */
function scatter(index) {
  return Number((BigInt(index) * 2654435761n) % 4294967296n)
    .toString(16)
    .padStart(8, '0');
}

/**
 * Adds `total` usage events, already applied, spread over `customerIds`, in big batches.
 * @param {Awaited<ReturnType<typeof openEventStore>>} store
 */
export async function seedStoredEvents(store, options) {
  const drawdowns = (await store.sampleDrawdowns()) ?? '[]';
  const acceptedAt = new Date().toISOString();
  const { accountId, customerIds, action, occurredAt, prefix, total } = options;
  const rows = (index) => [
    accountId,
    'live',
    `uev_${prefix}${index}`,
    customerIds[index % customerIds.length],
    action,
    `${prefix}-${scatter(index)}-${index}`,
    occurredAt,
    '1',
    acceptedAt,
    drawdowns,
    acceptedAt,
  ];
  await store.seed(rows, { accountId, customerIds, action, occurredAt, acceptedAt, drawdowns, prefix, total });
}
