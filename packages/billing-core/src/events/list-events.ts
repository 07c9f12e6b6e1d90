/**
 * @module
 * `GET /events`: the scope's outbox, newest first, filterable by event type.
 */

import type { Context } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { EventColumn, EventSlice } from './repositories.js';
import type { StoredEvent } from './stored-event.js';

export function listEvents(context: Context<EventSlice>, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>> {
  return context.store.events.list(context.scope, query);
}
