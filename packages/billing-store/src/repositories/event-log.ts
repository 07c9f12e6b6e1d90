/**
 * @module
 * The event outbox. An event row is written in the transaction of the change that caused
 * it; `sequence` orders rows for the workers that deliver them.
 */
import type { EventColumn, EventLog, ListQuery, Page, Scope, StoredEvent } from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { queryClauses, scopedRowsPage } from './document-collection.js';

/** The event's first notification (replays aside): ids are time-ordered (index of migration 0248). */
const FIRST_NOTIFICATION = `(select min(n.id) from notifications n
  where n.account_id = events.account_id and n.environment = events.environment and n.event_id = events.id
  and n.replay_of is null) as notification_id`;

export class SqlEventLog implements EventLog {
  constructor(private readonly executor: SqlExecutor) {}

  async append(scope: Scope, event: StoredEvent): Promise<void> {
    await this.executor.run(
      `insert into events (account_id, environment, id, event_type, occurred_at, entity_kind, body)
       values (?, ?, ?, ?, ?, ?, ?)`,
      [
        scope.accountId,
        scope.environment,
        event.id,
        event.eventType,
        event.occurredAt,
        event.entityKind,
        JSON.stringify(event),
      ],
    );
  }

  async list(scope: Scope, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>> {
    const page = await scopedRowsPage<{ body: string; notification_id: string | null }>(
      this.executor,
      'events',
      `body, ${FIRST_NOTIFICATION}`,
      scope,
      queryClauses(query),
      query,
    );
    return {
      ...page,
      items: page.items.map((row) => ({
        ...(JSON.parse(row.body) as StoredEvent),
        notificationId: row.notification_id ?? null,
      })),
    };
  }
}
