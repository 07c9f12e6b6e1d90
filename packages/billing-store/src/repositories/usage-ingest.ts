/**
 * @module
 * Durable acceptance of usage events with group commit, per engine. In the batch's
 * transaction (on PostgreSQL, its one insert statement: ADR 0718) each event is checked against its customer, resolved against the meters of its
 * action (fixing rate and unit at acceptance), and inserted unless the same event (customer,
 * action, event_key, occurred_at) is already stored. The unique index holds a 16-byte hash of
 * that identity; an insert the index refuses is a duplicate only once the stored row's whole
 * identity is confirmed equal, and an event inserted is listed in `usage_pending` for the
 * drawdown, in the same transaction or statement (ADR 0717).
 */
import {
  type IngestOutcome,
  type Meter,
  type PendingUsageEvent,
  type ResolvedDrawdown,
  resolveDrawdowns,
  type Scope,
  type UsageEventIngest,
  type UsageEventInput,
} from '@drawdown/billing-core';
import type Sqlite from 'better-sqlite3';
import type { PostgresDatabase } from '../sql/postgres-database.js';
import { PLAN_EACH_EXECUTION } from '../sql/sql-database.js';
import type { SqliteDatabase } from '../sql/sqlite-database.js';
import { GroupCommit } from './group-commit.js';
import type { RecentlyRecorded } from './recently-recorded.js';
import {
  IdempotencyHashCollision,
  type StoredIdentity,
  sameIdentity,
  usageIdempotencyKey,
} from './usage-idempotency.js';

interface IngestItem {
  readonly scope: Scope;
  readonly event: UsageEventInput & { readonly id: string };
  readonly acceptedAt: string;
}

const INSERT_COLUMNS =
  'account_id, environment, id, customer_id, action, event_key, occurred_at, quantity, accepted_at, drawdowns, idempotency_hash';
const COLUMN_NAMES = INSERT_COLUMNS.split(', ');
/** The insert's columns as a `json_to_recordset` record type: every column is text (the hash in hex). */
const RECORD_COLUMNS = COLUMN_NAMES.map((name) => `${name} text`).join(', ');
/** The same columns read from the record, the hash decoded. */
const RECORD_VALUES = INSERT_COLUMNS.replace('idempotency_hash', "decode(idempotency_hash, 'hex')");
const IDENTITY_COLUMNS = 'account_id, environment, customer_id, action, event_key, occurred_at';

function toRecord(values: readonly (string | null)[]): Record<string, string | null> {
  return Object.fromEntries(COLUMN_NAMES.map((name, index) => [name, values[index] ?? null]));
}

/**
 * A batch's outcome for one event: a collision is returned, not thrown, so it fails that event
 * alone and never the batch (on PostgreSQL the batch's insert has already committed, ADR 0718).
 */
type CommitOutcome = IngestOutcome | IdempotencyHashCollision;

abstract class GroupCommitIngest implements UsageEventIngest {
  private readonly listeners: (() => void)[] = [];
  private readonly group: GroupCommit<IngestItem, CommitOutcome>;

  constructor(maxInFlight: number) {
    this.group = new GroupCommit((items) => this.commitAndNotify(items), { maxBatch: 512, maxInFlight });
  }

  async record(
    scope: Scope,
    event: UsageEventInput & { readonly id: string },
    acceptedAt: string,
  ): Promise<IngestOutcome> {
    const outcome = await this.group.submit({ scope, event, acceptedAt });
    if (outcome instanceof IdempotencyHashCollision) throw outcome;
    return outcome;
  }

  onRecorded(listener: () => void): void {
    this.listeners.push(listener);
  }

  protected abstract commit(items: readonly IngestItem[]): Promise<readonly CommitOutcome[]>;

  private async commitAndNotify(items: readonly IngestItem[]): Promise<readonly CommitOutcome[]> {
    const outcomes = await this.commit(items);
    if (outcomes.includes('recorded')) for (const listener of this.listeners) listener();
    return outcomes;
  }
}

function rowValues<Hash>(
  item: IngestItem,
  meters: readonly Meter[],
  hash: Hash,
  drawdowns = JSON.stringify(resolveDrawdowns(meters, item.event.quantity)),
): (string | Hash | null)[] {
  const { scope, event } = item;
  return [
    scope.accountId,
    scope.environment,
    event.id,
    event.customerId,
    event.action,
    event.eventKey,
    event.occurredAt,
    event.quantity,
    item.acceptedAt,
    drawdowns,
    hash,
  ];
}

/** An insert the hash index refused: the same event, or a collision, which is refused, never merged. */
function confirmDuplicate(
  stored: StoredIdentity | undefined,
  item: IngestItem,
): 'duplicate' | IdempotencyHashCollision {
  if (stored && sameIdentity(stored, item.scope, item.event)) return 'duplicate';
  return new IdempotencyHashCollision(
    `usage event ${item.event.id} shares its idempotency hash with a different stored event; it was not recorded`,
  );
}

/** SQLite batches in flight when commits are synced off the event loop: one syncing, others committing (ADR 0732). */
const SYNCING_BATCHES = 4;

export class SqliteUsageIngest extends GroupCommitIngest {
  private statements:
    | {
        customer: Sqlite.Statement;
        meters: Sqlite.Statement;
        insert: Sqlite.Statement;
        pending: Sqlite.Statement;
        stored: Sqlite.Statement;
      }
    | undefined;

  /**
   * With `recentlyRecorded`, each batch's new events are remembered there once the batch has
   * committed, for the drawdown to take without reading them back (ADR 0734).
   */
  constructor(
    private readonly database: SqliteDatabase,
    private readonly recentlyRecorded?: RecentlyRecorded,
  ) {
    // One writer, so batches commit one at a time; with the WAL synced off the event loop
    // (ADR 0732) the next batches commit while an earlier one's sync runs.
    super(database.syncsOffEventLoop ? SYNCING_BATCHES : 1);
  }

  protected async commit(items: readonly IngestItem[]): Promise<readonly CommitOutcome[]> {
    const memo = this.recentlyRecorded;
    const committed = await this.database.transactionSync(
      (connection) => this.commitBatch(connection, items, memo !== undefined),
      memo && ((batch) => memo.add(batch.recorded)),
    );
    return committed.outcomes;
  }

  private commitBatch(
    connection: Sqlite.Database,
    items: readonly IngestItem[],
    remember: boolean,
  ): { readonly outcomes: readonly CommitOutcome[]; readonly recorded: PendingUsageEvent[] } {
    this.statements ??= {
      customer: connection.prepare('select status from customers where account_id = ? and environment = ? and id = ?'),
      meters: connection.prepare('select body from meters where account_id = ? and environment = ? and action = ?'),
      insert: connection.prepare(
        `insert into usage_events (${INSERT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
      ),
      // The batch's new events are listed pending in one statement (a JSON array of sequences).
      pending: connection.prepare('insert into usage_pending (sequence) select value from json_each(?)'),
      stored: connection.prepare(`select ${IDENTITY_COLUMNS} from usage_events where idempotency_hash = ?`),
    };
    const { customer, meters, insert, pending, stored } = this.statements;
    // A batch's events name few customers and actions: each is read once per batch, inside its
    // transaction (nothing in the batch changes them), rather than once per event.
    const statuses = new Map<string, string | undefined>();
    const metersOf = new Map<string, Meter[]>();
    const drawdownsOf = new Map<string, string>();
    const parsedDrawdownsOf = new Map<string, readonly ResolvedDrawdown[]>();
    const inserted: (number | bigint)[] = [];
    const recorded: PendingUsageEvent[] = [];
    const outcomes = items.map((item): CommitOutcome => {
      const { accountId, environment } = item.scope;
      const customerKey = `${accountId}\u0000${environment}\u0000${item.event.customerId}`;
      let status = statuses.get(customerKey);
      if (status === undefined && !statuses.has(customerKey)) {
        status = (customer.get(accountId, environment, item.event.customerId) as { status: string } | undefined)
          ?.status;
        statuses.set(customerKey, status);
      }
      if (status === undefined) return 'unknown_customer';
      if (status === 'archived') return 'archived_customer';
      const actionKey = `${accountId}\u0000${environment}\u0000${item.event.action}`;
      let matching = metersOf.get(actionKey);
      if (!matching) {
        matching = (meters.all(accountId, environment, item.event.action) as { body: string }[]).map(
          (row) => JSON.parse(row.body) as Meter,
        );
        metersOf.set(actionKey, matching);
      }
      // Events of one action and quantity draw the same amounts: resolved once per batch.
      const drawdownsKey = `${actionKey}\u0000${item.event.quantity}`;
      let drawdowns = drawdownsOf.get(drawdownsKey);
      if (drawdowns === undefined) {
        drawdowns = JSON.stringify(resolveDrawdowns(matching, item.event.quantity));
        drawdownsOf.set(drawdownsKey, drawdowns);
      }
      const hash = usageIdempotencyKey(item.scope, item.event);
      const result = insert.run(...rowValues(item, matching, hash, drawdowns));
      if (result.changes !== 1) return confirmDuplicate(stored.get(hash) as StoredIdentity | undefined, item);
      inserted.push(result.lastInsertRowid);
      if (remember) {
        // The event exactly as the drawdown would read it back (toRecordedEvent); events of one
        // batch with the same drawdowns share one parsed list, which nothing changes.
        let parsed = parsedDrawdownsOf.get(drawdowns);
        if (parsed === undefined) {
          parsed = JSON.parse(drawdowns) as ResolvedDrawdown[];
          parsedDrawdownsOf.set(drawdowns, parsed);
        }
        const { event } = item;
        recorded.push({
          scope: item.scope,
          sequence: Number(result.lastInsertRowid),
          event: {
            id: event.id,
            customerId: event.customerId,
            action: event.action,
            eventKey: event.eventKey,
            occurredAt: event.occurredAt,
            quantity: event.quantity,
            acceptedAt: item.acceptedAt,
            drawdowns: parsed,
          },
        });
      }
      return 'recorded';
    });
    if (inserted.length > 0) pending.run(`[${inserted.join(',')}]`);
    return { outcomes, recorded };
  }
}

/**
 * On PostgreSQL every statement is a network round trip (about 110 µs of client CPU each, plus
 * the server's parse and plan), so a batch takes three statements whatever its size: the
 * batch's customers and meters are looked up per scope, and its rows go in with one
 * multi-row insert from a JSON array, `returning` the ids that were new (ADR 0701), which lists
 * them in `usage_pending` in the same statement. Only a batch with refused inserts reads the
 * stored identities of their hashes, a fourth statement (ADR 0717).
 */
export class PostgresUsageIngest extends GroupCommitIngest {
  constructor(private readonly database: PostgresDatabase) {
    super(4);
  }

  /**
   * No explicit transaction (ADR 0718): the lookups are reads, and the insert that lists the new
   * events as pending is one statement, atomic and durable on its own when it returns. That is
   * two round trips a batch instead of five (BEGIN, customers, meters, insert, COMMIT). The
   * customer check reads without a lock, exactly as it did inside a read-committed transaction.
   */
  protected async commit(items: readonly IngestItem[]): Promise<readonly CommitOutcome[]> {
    const sql = this.database;
    const byScope = new Map<string, { scope: Scope; items: IngestItem[] }>();
    for (const item of items) {
      const key = `${item.scope.accountId}\u0000${item.scope.environment}`;
      const group = byScope.get(key) ?? { scope: item.scope, items: [] };
      group.items.push(item);
      byScope.set(key, group);
    }
    const known = new Set<IngestItem>();
    const archived = new Set<IngestItem>();
    const rows: (string | null)[][] = [];
    const hashes = new Map<IngestItem, string>();
    for (const { scope, items: scoped } of byScope.values()) {
      const customerIds = [...new Set(scoped.map((item) => item.event.customerId))];
      const actions = [...new Set(scoped.map((item) => item.event.action))];
      // The batch's customers and the meters of its actions in one round trip.
      const found = new Map<string, string>();
      const metersByAction = new Map<string, Meter[]>();
      for (const row of await sql.all<{ kind: string; key: string; value: string }>(
        `select 'c' as kind, id as key, status as value from customers
         where account_id = ? and environment = ? and id in (select json_array_elements_text(?::json))
         union all
         select 'm', action, body from meters
         where account_id = ? and environment = ? and action in (select json_array_elements_text(?::json))`,
        [
          scope.accountId,
          scope.environment,
          JSON.stringify(customerIds),
          scope.accountId,
          scope.environment,
          JSON.stringify(actions),
        ],
      )) {
        if (row.kind === 'c') {
          found.set(row.key, row.value);
          continue;
        }
        const list = metersByAction.get(row.key) ?? [];
        list.push(JSON.parse(row.value) as Meter);
        metersByAction.set(row.key, list);
      }
      for (const item of scoped) {
        if (!found.has(item.event.customerId)) continue;
        if (found.get(item.event.customerId) === 'archived') {
          archived.add(item);
          continue;
        }
        known.add(item);
        const hash = usageIdempotencyKey(item.scope, item.event).toString('hex');
        hashes.set(item, hash);
        rows.push(rowValues(item, metersByAction.get(item.event.action) ?? [], hash));
      }
    }
    const inserted =
      rows.length === 0
        ? new Set<string>()
        : new Set(
            (
              await sql.all<{ id: string }>(
                `with inserted as (
                   insert into usage_events (${INSERT_COLUMNS})
                   select ${RECORD_VALUES}
                   from rows from (json_to_recordset(?::json) as (${RECORD_COLUMNS})) with ordinality as r(${INSERT_COLUMNS}, n)
                   order by n
                   on conflict (idempotency_hash) do nothing
                   returning sequence, id
                 ), pending as (insert into usage_pending (sequence) select sequence from inserted)
                 select id from inserted`,
                [JSON.stringify(rows.map(toRecord))],
              )
            ).map((row) => row.id),
          );
    const refused = [...known].filter((item) => !inserted.has(item.event.id));
    const stored = new Map<string, StoredIdentity>();
    if (refused.length > 0) {
      for (const row of await sql.all<StoredIdentity & { hash: string }>(
        `${PLAN_EACH_EXECUTION}select encode(idempotency_hash, 'hex') as hash, ${IDENTITY_COLUMNS} from usage_events
         where idempotency_hash in (select decode(json_array_elements_text(?::json), 'hex'))`,
        [JSON.stringify(refused.map((item) => hashes.get(item)))],
      ))
        stored.set(row.hash, row);
    }
    return items.map((item): CommitOutcome => {
      if (archived.has(item)) return 'archived_customer';
      if (!known.has(item)) return 'unknown_customer';
      if (inserted.has(item.event.id)) return 'recorded';
      return confirmDuplicate(stored.get(hashes.get(item) as string), item);
    });
  }
}
