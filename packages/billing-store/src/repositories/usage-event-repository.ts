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
import type { SqlExecutor } from '../sql/sql-database.js';

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
  'sequence, account_id, environment, id, customer_id, action, event_key, occurred_at, quantity, accepted_at, drawdowns';

function pendingWhere(scope: Scope | undefined): string {
  return scope ? 'applied_at is null and account_id = ? and environment = ?' : 'applied_at is null';
}

function toPending(row: UsageEventRow): PendingUsageEvent {
  return {
    scope: { accountId: row.account_id, environment: row.environment },
    sequence: Number(row.sequence),
    event: toRecordedEvent(row),
  };
}

export class SqlUsageEventRepository implements UsageEventRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async claimPending(limit: number, scope?: Scope): Promise<readonly PendingUsageEvent[]> {
    const rows = await this.sql.all<UsageEventRow>(
      `select ${PENDING_COLUMNS} from usage_events where ${pendingWhere(scope)} order by sequence limit ?${this.lock()}`,
      scope ? [scope.accountId, scope.environment, limit] : [limit],
    );
    return rows.map(toPending);
  }

  /**
   * One statement where a claim and a later update were two: on PostgreSQL the row lock of
   * `for update` and the update's new row version were two writes per event, and two round
   * trips per batch (ADR 0716).
   */
  async takePending(limit: number, appliedAt: string, scope?: Scope): Promise<readonly PendingUsageEvent[]> {
    const rows = await this.sql.all<UsageEventRow>(
      `update usage_events set applied_at = ?
       where sequence in (select sequence from usage_events where ${pendingWhere(scope)} order by sequence limit ?${this.lock()})
       returning ${PENDING_COLUMNS}`,
      scope ? [appliedAt, scope.accountId, scope.environment, limit] : [appliedAt, limit],
    );
    // RETURNING gives no order: drawdowns apply in the order of acceptance.
    return rows.map(toPending).sort((a, b) => a.sequence - b.sequence);
  }

  /** Two workers on PostgreSQL skip each other's rows instead of waiting for them. */
  private lock(): string {
    return this.sql.dialect === 'postgres' ? ' for update skip locked' : '';
  }

  async hasPending(scope: Scope): Promise<boolean> {
    const row = await this.sql.get<{ found: number }>(
      'select 1 as found from usage_events where applied_at is null and account_id = ? and environment = ? limit 1',
      [scope.accountId, scope.environment],
    );
    return row !== undefined;
  }

  async listByCustomer(scope: Scope, customerId: string): Promise<readonly RecordedUsageEvent[]> {
    const rows = await this.sql.all<UsageEventRow>(
      `select * from usage_events where account_id = ? and environment = ? and customer_id = ? order by sequence`,
      [scope.accountId, scope.environment, customerId],
    );
    return rows.map(toRecordedEvent);
  }
}
