/**
 * @module
 * Durable acceptance of usage events with group commit, per engine. In the batch's
 * transaction each event is checked against its customer, resolved against the meters of its
 * action (fixing rate and unit at acceptance), and inserted unless the same event (customer,
 * action, event_key, occurred_at) is already stored.
 */
import {
  type IngestOutcome,
  type Meter,
  resolveDrawdowns,
  type Scope,
  type UsageEventIngest,
  type UsageEventInput,
} from '@drawdown/billing-core';
import type Sqlite from 'better-sqlite3';
import type { PostgresDatabase } from '../sql/postgres-database.js';
import type { SqliteDatabase } from '../sql/sqlite-database.js';
import { GroupCommit } from './group-commit.js';

interface IngestItem {
  readonly scope: Scope;
  readonly event: UsageEventInput & { readonly id: string };
  readonly acceptedAt: string;
}

const INSERT_COLUMNS =
  'account_id, environment, id, customer_id, action, event_key, occurred_at, quantity, accepted_at, drawdowns';
const COLUMN_NAMES = INSERT_COLUMNS.split(', ');
/** The insert's columns as a `json_to_recordset` record type: every column is text. */
const RECORD_COLUMNS = COLUMN_NAMES.map((name) => `${name} text`).join(', ');

function toRecord(values: readonly (string | null)[]): Record<string, string | null> {
  return Object.fromEntries(COLUMN_NAMES.map((name, index) => [name, values[index] ?? null]));
}

abstract class GroupCommitIngest implements UsageEventIngest {
  private readonly listeners: (() => void)[] = [];
  private readonly group: GroupCommit<IngestItem, IngestOutcome>;

  constructor(maxInFlight: number) {
    this.group = new GroupCommit((items) => this.commitAndNotify(items), { maxBatch: 512, maxInFlight });
  }

  record(scope: Scope, event: UsageEventInput & { readonly id: string }, acceptedAt: string): Promise<IngestOutcome> {
    return this.group.submit({ scope, event, acceptedAt });
  }

  onRecorded(listener: () => void): void {
    this.listeners.push(listener);
  }

  protected abstract commit(items: readonly IngestItem[]): Promise<readonly IngestOutcome[]>;

  private async commitAndNotify(items: readonly IngestItem[]): Promise<readonly IngestOutcome[]> {
    const outcomes = await this.commit(items);
    if (outcomes.includes('recorded')) for (const listener of this.listeners) listener();
    return outcomes;
  }
}

function rowValues(item: IngestItem, meters: readonly Meter[]): (string | null)[] {
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
    JSON.stringify(resolveDrawdowns(meters, event.quantity)),
  ];
}

export class SqliteUsageIngest extends GroupCommitIngest {
  private statements: { customer: Sqlite.Statement; meters: Sqlite.Statement; insert: Sqlite.Statement } | undefined;

  constructor(private readonly database: SqliteDatabase) {
    super(1);
  }

  protected commit(items: readonly IngestItem[]): Promise<readonly IngestOutcome[]> {
    return this.database.transactionSync((connection) => {
      this.statements ??= {
        customer: connection.prepare(
          'select status from customers where account_id = ? and environment = ? and id = ?',
        ),
        meters: connection.prepare('select body from meters where account_id = ? and environment = ? and action = ?'),
        insert: connection.prepare(
          `insert into usage_events (${INSERT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
        ),
      };
      const { customer, meters, insert } = this.statements;
      return items.map((item): IngestOutcome => {
        const { accountId, environment } = item.scope;
        const found = customer.get(accountId, environment, item.event.customerId) as { status: string } | undefined;
        if (!found) return 'unknown_customer';
        if (found.status === 'archived') return 'archived_customer';
        const matching = (meters.all(accountId, environment, item.event.action) as { body: string }[]).map(
          (row) => JSON.parse(row.body) as Meter,
        );
        return insert.run(...rowValues(item, matching)).changes === 1 ? 'recorded' : 'duplicate';
      });
    });
  }
}

/**
 * On PostgreSQL every statement is a network round trip (about 110 µs of client CPU each, plus
 * the server's parse and plan), so a batch takes three statements whatever its size: the
 * batch's customers and meters are looked up per scope, and its rows go in with one
 * multi-row insert from a JSON array, `returning` the ids that were new (ADR 0701).
 */
export class PostgresUsageIngest extends GroupCommitIngest {
  constructor(private readonly database: PostgresDatabase) {
    super(4);
  }

  protected commit(items: readonly IngestItem[]): Promise<readonly IngestOutcome[]> {
    return this.database.transaction(async (tx) => {
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
      for (const { scope, items: scoped } of byScope.values()) {
        const customerIds = [...new Set(scoped.map((item) => item.event.customerId))];
        const found = new Map(
          (
            await tx.all<{ id: string; status: string }>(
              'select id, status from customers where account_id = ? and environment = ? and id in (select json_array_elements_text(?::json))',
              [scope.accountId, scope.environment, JSON.stringify(customerIds)],
            )
          ).map((row) => [row.id, row.status]),
        );
        const actions = [...new Set(scoped.map((item) => item.event.action))];
        const metersByAction = new Map<string, Meter[]>();
        for (const row of await tx.all<{ action: string; body: string }>(
          'select action, body from meters where account_id = ? and environment = ? and action in (select json_array_elements_text(?::json))',
          [scope.accountId, scope.environment, JSON.stringify(actions)],
        )) {
          const list = metersByAction.get(row.action) ?? [];
          list.push(JSON.parse(row.body) as Meter);
          metersByAction.set(row.action, list);
        }
        for (const item of scoped) {
          if (!found.has(item.event.customerId)) continue;
          if (found.get(item.event.customerId) === 'archived') {
            archived.add(item);
            continue;
          }
          known.add(item);
          rows.push(rowValues(item, metersByAction.get(item.event.action) ?? []));
        }
      }
      const inserted =
        rows.length === 0
          ? new Set<string>()
          : new Set(
              (
                await tx.all<{ id: string }>(
                  `insert into usage_events (${INSERT_COLUMNS})
                   select ${INSERT_COLUMNS}
                   from rows from (json_to_recordset(?::json) as (${RECORD_COLUMNS})) with ordinality as r(${INSERT_COLUMNS}, n)
                   order by n
                   on conflict do nothing
                   returning id`,
                  [JSON.stringify(rows.map(toRecord))],
                )
              ).map((row) => row.id),
            );
      return items.map((item): IngestOutcome => {
        if (archived.has(item)) return 'archived_customer';
        if (!known.has(item)) return 'unknown_customer';
        return inserted.has(item.event.id) ? 'recorded' : 'duplicate';
      });
    });
  }
}
