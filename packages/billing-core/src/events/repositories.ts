/**
 * @module
 * Storage port of events: the event log, which is also the outbox.
 */
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Scope } from '../shared/scope.js';
import type { StoredEvent } from './stored-event.js';

export type EventColumn = 'id' | 'event_type';

export interface EventLog {
  /** Appends an event in the current transaction: the outbox row of the change that caused it. */
  append(scope: Scope, event: StoredEvent): Promise<void>;
  list(scope: Scope, query: ListQuery<EventColumn>): Promise<Page<StoredEvent>>;
}

/** The repositories events own. */
export interface EventRepositories {
  readonly events: EventLog;
}

/** What events use: the event log alone. */
export interface EventSlice extends EventRepositories {}
