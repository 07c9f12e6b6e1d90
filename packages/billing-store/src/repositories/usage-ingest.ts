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
          'select 1 as found from customers where account_id = ? and environment = ? and id = ?',
        ),
        meters: connection.prepare('select body from meters where account_id = ? and environment = ? and action = ?'),
        insert: connection.prepare(
          `insert into usage_events (${INSERT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
        ),
      };
      const { customer, meters, insert } = this.statements;
      return items.map((item): IngestOutcome => {
        const { accountId, environment } = item.scope;
        if (!customer.get(accountId, environment, item.event.customerId)) return 'unknown_customer';
        const matching = (meters.all(accountId, environment, item.event.action) as { body: string }[]).map(
          (row) => JSON.parse(row.body) as Meter,
        );
        return insert.run(...rowValues(item, matching)).changes === 1 ? 'recorded' : 'duplicate';
      });
    });
  }
}

export class PostgresUsageIngest extends GroupCommitIngest {
  constructor(private readonly database: PostgresDatabase) {
    super(4);
  }

  protected commit(items: readonly IngestItem[]): Promise<readonly IngestOutcome[]> {
    return this.database.transaction(async (tx) => {
      const outcomes: IngestOutcome[] = [];
      for (const item of items) {
        const { accountId, environment } = item.scope;
        const found = await tx.get(
          'select 1 as found from customers where account_id = ? and environment = ? and id = ?',
          [accountId, environment, item.event.customerId],
        );
        if (!found) {
          outcomes.push('unknown_customer');
          continue;
        }
        const meters = (
          await tx.all<{ body: string }>(
            'select body from meters where account_id = ? and environment = ? and action = ?',
            [accountId, environment, item.event.action],
          )
        ).map((row) => JSON.parse(row.body) as Meter);
        const inserted = await tx.run(
          `insert into usage_events (${INSERT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
          rowValues(item, meters),
        );
        outcomes.push(inserted === 1 ? 'recorded' : 'duplicate');
      }
      return outcomes;
    });
  }
}
