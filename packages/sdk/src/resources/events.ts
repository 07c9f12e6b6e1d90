/**
 * @module
 * `GET /events` (paged; items parsed like webhook bodies) and `GET /event-types` (one list).
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import { type DrawdownEvent, parseEvent } from '../types/events.js';
import type { EventType } from '../types/notifications.js';
import type { PageParams } from '../types/shared.js';
import { Resource } from './resource.js';

export interface ListEventsParams extends PageParams {
  readonly eventType?: readonly string[];
}

export class EventsResource extends Resource {
  list(params?: ListEventsParams, options?: RequestOptions): Collection<DrawdownEvent> {
    return this.collection<DrawdownEvent>('/events', params, options, (wire) => parseEvent(wire as object));
  }
}

export class EventTypesResource extends Resource {
  /** Every event type the account may subscribe to (usage types only for early access). */
  list(options?: RequestOptions): Promise<EventType[]> {
    return this.data({ method: 'GET', path: '/event-types', ...options });
  }
}
