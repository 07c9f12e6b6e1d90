/**
 * @module
 * The event outbox. An event row is written in the transaction of the change that caused
 * it; `sequence` orders rows for the workers that deliver them.
 */
import type { EventColumn, EventLog, ListQuery, Page, Scope, StoredEvent } from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';
import { listPage } from './document-collection.js';

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

  list(scope: Scope, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>> {
    return listPage(this.executor, 'events', scope, query, (body) => JSON.parse(body) as StoredEvent);
  }
}
