/**
 * @module
 * `GET /events`: the scope's outbox, newest first, filterable by event type.
 */
import type { OperationContext } from '../shared/operation-context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { EventColumn } from './repositories.js';
import type { StoredEvent } from './stored-event.js';

export function listEvents(context: OperationContext, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>> {
  return context.store.events.list(context.scope, query);
}
