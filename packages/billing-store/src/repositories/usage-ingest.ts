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

/**
 * An event's row as the PostgreSQL insert reads it (`json_to_recordset` with RECORD_COLUMNS):
 * every value text, the hash in hex, the drawdowns as JSON text.
 */
function postgresRecord(item: IngestItem, hash: string, drawdowns: string): Record<string, string> {
  const { scope, event } = item;
  return {
    account_id: scope.accountId,
    environment: scope.environment,
    id: event.id,
    customer_id: event.customerId,
    action: event.action,
    event_key: event.eventKey,
    occurred_at: event.occurredAt,
    quantity: event.quantity,
    accepted_at: item.acceptedAt,
    drawdowns,
    idempotency_hash: hash,
  };
}

/**
 * The drawdowns of `quantity` by `meters` as stored (JSON text): events of one action and
 * quantity in a batch draw the same amounts, so each is resolved once per batch (`memo`).
 */
function drawdownsText(
  memo: Map<string, string>,
  actionKey: string,
  meters: readonly Meter[],
  quantity: string,
): string {
  const key = `${actionKey}\u0000${quantity}`;
  let text = memo.get(key);
  if (text === undefined) {
    text = JSON.stringify(resolveDrawdowns(meters, quantity));
    memo.set(key, text);
  }
  return text;
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
 * The meters of one action in one scope as the ingest last read them, in `id` order (collation
 * "C"), and their bodies joined by U+001E (which JSON text never holds raw): the text the one-statement
 * batch compares with the table's to know they are still the meters (ADR 0750).
 */
interface KnownMeters {
  readonly meters: readonly Meter[];
  readonly bodies: string;
}

/** Actions whose meters a PostgreSQL ingest remembers at most (the oldest forgotten first). */
const KNOWN_ACTIONS = 4_096;
const BODY_SEPARATOR = '\u001e';

function actionKeyOf(scope: Scope, action: string): string {
  return `${scope.accountId}\u0000${scope.environment}\u0000${action}`;
}

/**
 * On PostgreSQL every statement is a network round trip (about 110 µs of client CPU each, plus
 * the server's parse and plan, and the wait for both event loops), so a batch whose actions'
 * meters this process has read before takes one statement (ADR 0750): the insert itself reads
 * each event's customer and compares each action's meters with the ones the rows were resolved
 * with, inserts only the events whose customer is active and whose meters are unchanged,
 * `returning` the ids that were new (ADR 0701), and lists them in `usage_pending`, all in one
 * snapshot. Events of an action not read before, or whose meters changed, take the two
 * statements of ADR 0718 (the batch's customers and meters, then the insert), which also remember
 * the meters read. Only a batch with refused inserts reads the stored identities of their
 * hashes, one more statement (ADR 0717).
 */
export class PostgresUsageIngest extends GroupCommitIngest {
  private readonly knownMeters = new Map<string, KnownMeters>();

  constructor(private readonly database: PostgresDatabase) {
    super(4);
  }

  /**
   * No explicit transaction (ADR 0718): each statement is atomic and durable on its own when it
   * returns, and the insert that lists the new events as pending is one statement.
   */
  protected async commit(items: readonly IngestItem[]): Promise<readonly CommitOutcome[]> {
    const outcomes = new Map<IngestItem, CommitOutcome>();
    const known: IngestItem[] = [];
    const unread: IngestItem[] = [];
    for (const item of items) {
      (this.knownMeters.has(actionKeyOf(item.scope, item.event.action)) ? known : unread).push(item);
    }
    if (known.length > 0) unread.push(...(await this.commitChecked(known, outcomes)));
    if (unread.length > 0) await this.commitRead(unread, outcomes);
    return items.map((item) => outcomes.get(item) as CommitOutcome);
  }

  /**
   * One statement for events whose meters were read before: the customer of each event and the
   * meters of each action are read by the insert, in its snapshot. Returns the events whose
   * meters changed since (their remembered meters are forgotten), for the two-statement path.
   */
  private async commitChecked(
    items: readonly IngestItem[],
    outcomes: Map<IngestItem, CommitOutcome>,
  ): Promise<IngestItem[]> {
    const rows: Record<string, string>[] = [];
    const hashes = new Map<IngestItem, string>();
    const drawdownsOf = new Map<string, string>();
    const expected = new Map<string, { account_id: string; environment: string; action: string; bodies: string }>();
    for (const item of items) {
      const key = actionKeyOf(item.scope, item.event.action);
      const known = this.knownMeters.get(key) as KnownMeters;
      if (!expected.has(key)) {
        expected.set(key, {
          account_id: item.scope.accountId,
          environment: item.scope.environment,
          action: item.event.action,
          bodies: known.bodies,
        });
      }
      const hash = usageIdempotencyKey(item.scope, item.event).toString('hex');
      hashes.set(item, hash);
      rows.push(postgresRecord(item, hash, drawdownsText(drawdownsOf, key, known.meters, item.event.quantity)));
    }
    // Only the events not inserted come back: an accepted batch answers with no rows to parse.
    const notInserted = new Map<string, { found: boolean; status: string | null; fresh: boolean }>();
    for (const row of await this.database.all<{
      id: string;
      found: boolean;
      status: string | null;
      fresh: boolean;
    }>(
      `with batch as (
         select * from rows from (json_to_recordset(?::json) as (${RECORD_COLUMNS})) with ordinality as r(${INSERT_COLUMNS}, n)
       ), expected as materialized (
         select e.account_id, e.environment, e.action,
           e.bodies = coalesce((
             select string_agg(m.body, chr(30) order by m.id collate "C") from meters m
             where m.account_id = e.account_id and m.environment = e.environment and m.action = e.action
           ), '') as fresh
         from json_to_recordset(?::json) as e(account_id text, environment text, action text, bodies text)
       ), checked as (
         select batch.*, c.id is not null as found, c.status, coalesce(x.fresh, false) as fresh from batch
         left join expected x on x.account_id = batch.account_id and x.environment = batch.environment and x.action = batch.action
         left join customers c
           on c.account_id = batch.account_id and c.environment = batch.environment and c.id = batch.customer_id
       ), inserted as (
         insert into usage_events (${INSERT_COLUMNS})
         select ${RECORD_VALUES} from checked
         where fresh and found and status is distinct from 'archived'
         order by n
         on conflict (idempotency_hash) do nothing
         returning sequence, id
       ), pending as (insert into usage_pending (sequence) select sequence from inserted)
       select checked.id, checked.found, checked.status, checked.fresh
       from checked left join inserted on inserted.id = checked.id
       where inserted.id is null`,
      [JSON.stringify(rows), JSON.stringify([...expected.values()])],
    ))
      notInserted.set(row.id, row);
    const stale: IngestItem[] = [];
    const refused: IngestItem[] = [];
    for (const item of items) {
      const row = notInserted.get(item.event.id);
      if (row === undefined) outcomes.set(item, 'recorded');
      else if (!row.found) outcomes.set(item, 'unknown_customer');
      else if (row.status === 'archived') outcomes.set(item, 'archived_customer');
      else if (!row.fresh) {
        this.knownMeters.delete(actionKeyOf(item.scope, item.event.action));
        stale.push(item);
      } else refused.push(item);
    }
    await this.confirmRefused(refused, hashes, outcomes);
    return stale;
  }

  /** The two statements of ADR 0718: the batch's customers and meters, then the insert. */
  private async commitRead(items: readonly IngestItem[], outcomes: Map<IngestItem, CommitOutcome>): Promise<void> {
    const sql = this.database;
    const byScope = new Map<string, { scope: Scope; items: IngestItem[] }>();
    for (const item of items) {
      const key = `${item.scope.accountId}\u0000${item.scope.environment}`;
      const group = byScope.get(key) ?? { scope: item.scope, items: [] };
      group.items.push(item);
      byScope.set(key, group);
    }
    const known: IngestItem[] = [];
    const rows: Record<string, string>[] = [];
    const hashes = new Map<IngestItem, string>();
    const drawdownsOf = new Map<string, string>();
    for (const { scope, items: scoped } of byScope.values()) {
      const customerIds = [...new Set(scoped.map((item) => item.event.customerId))];
      const actions = [...new Set(scoped.map((item) => item.event.action))];
      // The batch's customers and the meters of its actions in one round trip, the meters of
      // each action in the order the one-statement path compares them.
      const found = new Map<string, string>();
      const metersByAction = new Map<string, { meters: Meter[]; bodies: string[] }>(
        actions.map((action) => [action, { meters: [], bodies: [] }]),
      );
      for (const row of await sql.all<{ kind: string; key: string; value: string }>(
        `select 'c' as kind, id as key, status as value, id collate "C" as ord from customers
         where account_id = ? and environment = ? and id in (select json_array_elements_text(?::json))
         union all
         select 'm', action, body, id collate "C" from meters
         where account_id = ? and environment = ? and action in (select json_array_elements_text(?::json))
         order by kind, key, ord`,
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
        const read = metersByAction.get(row.key);
        if (!read) continue;
        read.meters.push(JSON.parse(row.value) as Meter);
        read.bodies.push(row.value);
      }
      for (const [action, read] of metersByAction) this.remember(actionKeyOf(scope, action), read);
      for (const item of scoped) {
        const status = found.get(item.event.customerId);
        if (status === undefined) {
          outcomes.set(item, 'unknown_customer');
          continue;
        }
        if (status === 'archived') {
          outcomes.set(item, 'archived_customer');
          continue;
        }
        known.push(item);
        const hash = usageIdempotencyKey(item.scope, item.event).toString('hex');
        hashes.set(item, hash);
        const meters = metersByAction.get(item.event.action)?.meters ?? [];
        const key = actionKeyOf(scope, item.event.action);
        rows.push(postgresRecord(item, hash, drawdownsText(drawdownsOf, key, meters, item.event.quantity)));
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
                [JSON.stringify(rows)],
              )
            ).map((row) => row.id),
          );
    const refused: IngestItem[] = [];
    for (const item of known) {
      if (inserted.has(item.event.id)) outcomes.set(item, 'recorded');
      else refused.push(item);
    }
    await this.confirmRefused(refused, hashes, outcomes);
  }

  private remember(key: string, read: { readonly meters: readonly Meter[]; readonly bodies: readonly string[] }): void {
    this.knownMeters.delete(key);
    if (this.knownMeters.size >= KNOWN_ACTIONS) {
      const oldest = this.knownMeters.keys().next();
      if (!oldest.done) this.knownMeters.delete(oldest.value);
    }
    this.knownMeters.set(key, { meters: read.meters, bodies: read.bodies.join(BODY_SEPARATOR) });
  }

  /** Inserts the hash index refused: duplicates once the stored identities are read and equal. */
  private async confirmRefused(
    refused: readonly IngestItem[],
    hashes: ReadonlyMap<IngestItem, string>,
    outcomes: Map<IngestItem, CommitOutcome>,
  ): Promise<void> {
    if (refused.length === 0) return;
    const stored = new Map<string, StoredIdentity>();
    for (const row of await this.database.all<StoredIdentity & { hash: string }>(
      `${PLAN_EACH_EXECUTION}select encode(idempotency_hash, 'hex') as hash, ${IDENTITY_COLUMNS} from usage_events
       where idempotency_hash in (select decode(json_array_elements_text(?::json), 'hex'))`,
      [JSON.stringify(refused.map((item) => hashes.get(item)))],
    ))
      stored.set(row.hash, row);
    for (const item of refused) outcomes.set(item, confirmDuplicate(stored.get(hashes.get(item) as string), item));
  }
}
