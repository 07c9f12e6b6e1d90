/**
 * @module
 * Subscriptions as documents, with `due_at` promoted: the next renewal or scheduled change,
 * which the scheduler and sandbox time control look up.
 */
import {
  type Environment,
  nextDueAt,
  type Scope,
  type Subscription,
  type SubscriptionColumn,
  type SubscriptionRepository,
} from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { DocumentCollection, type DocumentTableSpec } from './document-collection.js';

type StoredColumn = SubscriptionColumn | 'due_at';

const subscriptionsTable: DocumentTableSpec<Subscription, StoredColumn> = {
  table: 'subscriptions',
  columns: {
    customer_id: (subscription) => subscription.customerId,
    address_id: (subscription) => subscription.addressId,
    status: (subscription) => subscription.status,
    collection_mode: (subscription) => subscription.collectionMode,
    scheduled_change_action: (subscription) => subscription.scheduledChange?.action ?? null,
    price_ids: (subscription) => ` ${subscription.items.map((item) => item.price.id).join(' ')} `,
    next_billed_at: (subscription) => subscription.nextBilledAt,
    due_at: (subscription) => nextDueAt(subscription),
  },
};

export class SqlSubscriptionRepository
  extends DocumentCollection<Subscription, StoredColumn>
  implements SubscriptionRepository
{
  constructor(private readonly sql: SqlExecutor) {
    super(sql, subscriptionsTable);
  }

  async findDue(scope: Scope, until: string, limit: number): Promise<readonly string[]> {
    const rows = await this.sql.all<{ id: string }>(
      `select id from subscriptions
       where account_id = ? and environment = ? and due_at is not null and due_at <= ?
       order by due_at, id limit ?`,
      [scope.accountId, scope.environment, until, limit],
    );
    return rows.map((row) => row.id);
  }

  async findDueAccounts(environment: Environment, until: string): Promise<readonly string[]> {
    const rows = await this.sql.all<{ account_id: string }>(
      `select distinct account_id from subscriptions
       where environment = ? and due_at is not null and due_at <= ?`,
      [environment, until],
    );
    return rows.map((row) => row.account_id);
  }
}
