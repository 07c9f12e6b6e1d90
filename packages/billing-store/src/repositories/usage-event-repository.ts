/**
 * @module
 * Accepted usage events waiting for the drawdown worker, and the record of all of them.
 */
import type {
  Environment,
  PendingUsageEvent,
  RecordedUsageEvent,
  ResolvedDrawdown,
  Scope,
  UsageEventRepository,
} from '@drawdown/billing-core';
import { PLAN_EACH_EXECUTION, type SqlExecutor } from '../sql/sql-database.js';
import type { RecentlyRecorded } from './recently-recorded.js';

export interface UsageEventRow extends Record<string, unknown> {
  sequence: number;
  account_id: string;
  environment: Environment;
  id: string;
  customer_id: string;
  action: string;
  event_key: string;
  occurred_at: string;
  quantity: string;
  accepted_at: string;
  drawdowns: string;
}

export function toRecordedEvent(row: UsageEventRow): RecordedUsageEvent {
  return {
    id: row.id,
    customerId: row.customer_id,
    action: row.action,
    eventKey: row.event_key,
    occurredAt: row.occurred_at,
    quantity: row.quantity,
    acceptedAt: row.accepted_at,
    drawdowns: JSON.parse(row.drawdowns) as ResolvedDrawdown[],
  };
}

const PENDING_COLUMNS =
  'e.sequence, e.account_id, e.environment, e.id, e.customer_id, e.action, e.event_key, e.occurred_at, e.quantity, e.accepted_at, e.drawdowns';

/**
 * The oldest pending sequences (of a scope, when given); on PostgreSQL two workers skip each
 * other's rows instead of waiting for them. `usage_pending` holds only sequences
 * (ADR 0717), so a scoped pick joins the events; the pending list is short.
 */
function pendingPick(scope: Scope | undefined, locked: boolean): string {
  return scope
    ? `select p.sequence from usage_pending p join usage_events e on e.sequence = p.sequence
       where e.account_id = ? and e.environment = ? order by p.sequence limit ?${locked ? ' for update of p skip locked' : ''}`
    : `select sequence from usage_pending order by sequence limit ?${locked ? ' for update skip locked' : ''}`;
}

function toPending(row: UsageEventRow): PendingUsageEvent {
  return {
    scope: { accountId: row.account_id, environment: row.environment },
    sequence: Number(row.sequence),
    event: toRecordedEvent(row),
  };
}

export class SqlUsageEventRepository implements UsageEventRepository {
  /** `recentlyRecorded`: this process's ingest's new events, taken without reading them back (ADR 0734). */
  constructor(
    private readonly sql: SqlExecutor,
    private readonly recentlyRecorded?: RecentlyRecorded,
  ) {}

  async claimPending(limit: number, scope?: Scope): Promise<readonly PendingUsageEvent[]> {
    const rows = await this.sql.all<UsageEventRow>(
      `${PLAN_EACH_EXECUTION}select ${PENDING_COLUMNS} from usage_events e where e.sequence in (${pendingPick(scope, this.sql.dialect === 'postgres')})
       order by e.sequence`,
      scope ? [scope.accountId, scope.environment, limit] : [limit],
    );
    return rows.map(toPending);
  }

  /**
   * Takes the oldest pending events off `usage_pending` and returns them. Applying an event
   * deletes its pending row and leaves the event's own row untouched: no second version of a
   * wide row, no second set of index entries (ADR 0717; before, ADR 0716 stamped `applied_at`).
   * On PostgreSQL one statement; a second worker skips the rows the first holds.
   */
  async takePending(limit: number, scope?: Scope): Promise<readonly PendingUsageEvent[]> {
    const params = scope ? [scope.accountId, scope.environment, limit] : [limit];
    if (this.sql.dialect === 'postgres') {
      // The events are read by primary key from the array of taken sequences, and the statement
      // is planned on each execution: prepared, its generic plan (made while the tables were
      // small) hashed or filtered the whole of `usage_events` on every batch, a scan that grew
      // with the store (ADR 0723).
      const rows = await this.sql.all<UsageEventRow>(
        `${PLAN_EACH_EXECUTION}with taken as (delete from usage_pending where sequence = any(array(${pendingPick(scope, true)})) returning sequence)
         select ${PENDING_COLUMNS} from usage_events e where e.sequence = any(array(select sequence from taken))
         order by e.sequence`,
        params,
      );
      return rows.map(toPending);
    }
    // SQLite: the transaction holds the only write lock, so a read then a delete take the same rows.
    if (this.recentlyRecorded && !scope) return this.takeRemembered(limit, this.recentlyRecorded);
    const rows = await this.sql.all<UsageEventRow>(
      `select ${PENDING_COLUMNS} from usage_events e where e.sequence in (${pendingPick(scope, false)}) order by e.sequence`,
      params,
    );
    if (rows.length > 0)
      await this.sql.run('delete from usage_pending where sequence in (select value from json_each(?))', [
        JSON.stringify(rows.map((row) => Number(row.sequence))),
      ]);
    return rows.map(toPending);
  }

  /**
   * SQLite, unscoped: the oldest pending sequences with their events' ids; an event this process's
   * ingest remembers under the same sequence and id is taken from memory, every other one read
   * from `usage_events` (ADR 0734). The pending rows are deleted as on the table path.
   */
  private async takeRemembered(limit: number, memo: RecentlyRecorded): Promise<readonly PendingUsageEvent[]> {
    const heads = await this.sql.all<{ sequence: number; id: string }>(
      'select p.sequence, e.id from usage_pending p join usage_events e on e.sequence = p.sequence order by p.sequence limit ?',
      [limit],
    );
    if (heads.length === 0) return [];
    memo.forgetBefore(Number(heads[0]?.sequence));
    const taken: (PendingUsageEvent | undefined)[] = [];
    const unknown: number[] = [];
    const sequences: number[] = [];
    for (const head of heads) {
      const sequence = Number(head.sequence);
      sequences.push(sequence);
      const remembered = memo.take(sequence, head.id);
      taken.push(remembered);
      if (remembered === undefined) unknown.push(sequence);
    }
    if (unknown.length > 0) {
      const read = new Map<number, PendingUsageEvent>();
      for (const row of await this.sql.all<UsageEventRow>(
        `select ${PENDING_COLUMNS} from usage_events e where e.sequence in (select value from json_each(?))`,
        [JSON.stringify(unknown)],
      ))
        read.set(Number(row.sequence), toPending(row));
      for (const [index, sequence] of sequences.entries()) taken[index] ??= read.get(sequence);
    }
    await this.sql.run('delete from usage_pending where sequence in (select value from json_each(?))', [
      JSON.stringify(sequences),
    ]);
    return taken.filter((pending): pending is PendingUsageEvent => pending !== undefined);
  }

  async hasPending(scope: Scope): Promise<boolean> {
    const row = await this.sql.get<{ found: number }>(
      `${PLAN_EACH_EXECUTION}select 1 as found from usage_pending p join usage_events e on e.sequence = p.sequence
       where e.account_id = ? and e.environment = ? limit 1`,
      [scope.accountId, scope.environment],
    );
    return row !== undefined;
  }

  /**
   * For tests, audits and recomputation, never on a hot path: no index leads with the customer
   * since the idempotency index holds a hash (ADR 0717), so this reads the scope's events.
   */
  async listByCustomer(scope: Scope, customerId: string): Promise<readonly RecordedUsageEvent[]> {
    const rows = await this.sql.all<UsageEventRow>(
      `select sequence, account_id, environment, id, customer_id, action, event_key, occurred_at, quantity, accepted_at, drawdowns from usage_events where account_id = ? and environment = ? and customer_id = ? order by sequence`,
      [scope.accountId, scope.environment, customerId],
    );
    return rows.map(toRecordedEvent);
  }
}
