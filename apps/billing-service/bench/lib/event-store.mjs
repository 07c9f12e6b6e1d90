/**
 * @module
 * The bench's own look into the service's database, beside the running service: a fresh
 * PostgreSQL database per run, the usage_events counts and lag stamps, and the seeding of
 * stored events in big batches for the memory measurement. Read-only toward the service's
 * state except for the seeded rows, which are marked applied so no worker touches them.
 *
 * Two schemas, since a run compares two builds: before migration 0200 a pending event has
 * `applied_at` null and the drawdown stamps it; from 0200 (ADR 0717) pending events are the rows
 * of `usage_pending`, which the drawdown deletes, and nothing is stamped. For the lag phase the
 * bench then stamps them itself: `startLagStamps` adds a trigger that records, for each deleted
 * pending row, the start of the deleting transaction (what the drawdown's `applied_at` was), and
 * `stopLagStamps` drops it, so the ingestion phases never pay for it.
 */
import { createHash, randomBytes } from 'node:crypto';
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

/**
 * The compact idempotency key of migration 0200 (ADR 0717), as the service computes it; from
 * migration 0252 (ADR 0738) led by `occurred_at`'s date and time-of-day digits (`timeLed`).
 */
function idempotencyHash(timeLed, accountId, environment, customerId, action, eventKey, occurredAt) {
  const hash = createHash('sha256')
    .update([accountId, environment, customerId, action, eventKey, occurredAt].join('\u0000'), 'utf8')
    .digest()
    .subarray(0, 16);
  if (!timeLed) return hash;
  const [, date, time, fraction = ''] = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/.exec(occurredAt) ?? [];
  if (!date) throw new Error(`not a canonical occurred_at: ${occurredAt}`);
  const prefix = Buffer.alloc(8);
  prefix.writeUInt32BE(Number(date.replaceAll('-', '')), 0);
  prefix.writeUInt32BE(Number(time.replaceAll(':', '') + fraction.padEnd(3, '0').slice(0, 3)), 4);
  return Buffer.concat([prefix, hash]);
}

/** The same eight bytes in PostgreSQL, over the seeded row's `occurred_at`, followed by `||`. */
const POSTGRES_TIME_PREFIX = `int4send(cast(substr(occurred_at, 1, 4) || substr(occurred_at, 6, 2) || substr(occurred_at, 9, 2) as integer)) ||
  int4send(cast(substr(occurred_at, 12, 2) || substr(occurred_at, 15, 2) || substr(occurred_at, 18, 2) ||
    substr(case when substr(occurred_at, 20, 1) = '.' then substr(occurred_at, 21, length(occurred_at) - 21) else '' end || '000', 1, 3)
    as integer)) || `;

/** Whether the build's schema keys usage events by time first (migration 0252, ADR 0738). */
const TIME_LED_MIGRATION = '0252-usage-keys-led-by-time';

/** Lag stamps from the bench's trigger (schema 0200 on): the events' acceptance beside the deletion's time. */
const TRIGGER_STAMPS = `select e.accepted_at, b.applied_at from bench_applied b join usage_events e on e.sequence = b.sequence
  where b.sequence > ?`;

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
  const pendingTable = value("select count(*) from sqlite_master where type = 'table' and name = 'usage_pending'") > 0;
  const timeLed = value('select count(*) from schema_migrations where id = ?', TIME_LED_MIGRATION) > 0;
  return {
    engine: 'sqlite',
    pendingTable,
    maxSequence: async () => Number(value('select coalesce(max(sequence), 0) from usage_events')),
    count: async () => Number(value('select count(*) from usage_events')),
    pending: async () =>
      Number(
        value(
          pendingTable
            ? 'select count(*) from usage_pending'
            : 'select count(*) from usage_events where applied_at is null',
        ),
      ),
    countWithPrefix: async (prefix) =>
      Number(value('select count(*) from usage_events where event_key like ?', `${prefix}-%`)),
    async startLagStamps() {
      if (!pendingTable) return;
      db.exec(`create table if not exists bench_applied (sequence integer, applied_at text);
        create trigger if not exists bench_stamp after delete on usage_pending begin
          insert into bench_applied values (old.sequence, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
        end;`);
    },
    async stopLagStamps() {
      if (pendingTable) db.exec('drop trigger if exists bench_stamp');
    },
    stamps: async (afterSequence) =>
      db
        .prepare(
          pendingTable
            ? TRIGGER_STAMPS
            : 'select accepted_at, applied_at from usage_events where sequence > ? and applied_at is not null',
        )
        .all(afterSequence),
    sampleDrawdowns: async () => value('select drawdowns from usage_events where drawdowns <> ? limit 1', '[]'),
    async seed(rows, batchFrom) {
      const insert = db.prepare(
        pendingTable
          ? `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
           quantity, accepted_at, drawdowns, idempotency_hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
          : `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
           quantity, accepted_at, drawdowns, applied_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertMany = db.transaction((from, to) => {
        for (let index = from; index < to; index += 1) {
          const row = rows(index);
          // Seeded rows are applied: before 0200 by their stamp, from 0200 by having no pending row.
          if (pendingTable) row[10] = idempotencyHash(timeLed, row[0], row[1], row[3], row[4], row[5], row[6]);
          insert.run(...row);
        }
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
  const pendingTable = (await value(`select to_regclass('usage_pending') is not null`)) === true;
  const timeLed = Number(await value('select count(*) from schema_migrations where id = $1', [TIME_LED_MIGRATION])) > 0;
  return {
    engine: 'postgres',
    pendingTable,
    maxSequence: async () => Number(await value('select coalesce(max(sequence), 0) from usage_events')),
    count: async () => Number(await value('select count(*) from usage_events')),
    pending: async () =>
      Number(
        await value(
          pendingTable
            ? 'select count(*) from usage_pending'
            : 'select count(*) from usage_events where applied_at is null',
        ),
      ),
    countWithPrefix: async (prefix) =>
      Number(await value('select count(*) from usage_events where event_key like $1', [`${prefix}-%`])),
    async startLagStamps() {
      if (!pendingTable) return;
      // One statement-level trigger per deleting statement: a few µs per batch, not per event.
      await client.query(`create table if not exists bench_applied (sequence bigint, applied_at text);
        create or replace function bench_stamp() returns trigger language plpgsql as $f$
        begin
          insert into bench_applied
            select sequence, to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from gone;
          return null;
        end $f$;
        drop trigger if exists bench_stamp on usage_pending;
        create trigger bench_stamp after delete on usage_pending referencing old table as gone
          for each statement execute function bench_stamp();`);
    },
    async stopLagStamps() {
      if (pendingTable) await client.query('drop trigger if exists bench_stamp on usage_pending');
    },
    stamps: async (afterSequence) =>
      (
        await client.query(
          pendingTable
            ? TRIGGER_STAMPS.replace('?', '$1')
            : 'select accepted_at, applied_at from usage_events where sequence > $1 and applied_at is not null',
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
        const rowsSql = `select $1::text as account_id, 'live'::text as environment, $2 || n as id,
             ($3::text[])[1 + n % array_length($3::text[], 1)] as customer_id, $4::text as action,
             $5 || lpad(to_hex((n * 2654435761) % 4294967296), 8, '0') || '-' || n as event_key, $6::text as occurred_at,
             '1'::text as quantity, $7::text as accepted_at, $8::text as drawdowns
           from generate_series($9::bigint, $10::bigint) as n`;
        await client.query(
          pendingTable
            ? `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
             quantity, accepted_at, drawdowns, idempotency_hash)
           select *, ${timeLed ? POSTGRES_TIME_PREFIX : ''}substring(sha256(convert_to(account_id, 'UTF8') || '\\x00'::bytea || convert_to(environment, 'UTF8') ||
             '\\x00'::bytea || convert_to(customer_id, 'UTF8') || '\\x00'::bytea || convert_to(action, 'UTF8') ||
             '\\x00'::bytea || convert_to(event_key, 'UTF8') || '\\x00'::bytea || convert_to(occurred_at, 'UTF8')) from 1 for 16)
           from (${rowsSql}) as r`
            : `insert into usage_events (account_id, environment, id, customer_id, action, event_key, occurred_at,
             quantity, accepted_at, drawdowns, applied_at)
           select *, accepted_at from (${rowsSql}) as r`,
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
