/**
 * @module
 * The use cases of events, bound once: the event log and the event types an account may use.
 */
import type { Context } from '../shared/context.js';
import type { Caller, UseCaseBase } from '../shared/use-case-base.js';
import { listEventTypes } from './event-types.js';
import { listEvents } from './list-events.js';
import type { EventSlice } from './repositories.js';

export function eventUseCases({ bind }: UseCaseBase<Context<EventSlice>>) {
  return {
    listEvents: bind(listEvents),
    listEventTypes: async (caller: Caller) => listEventTypes(caller.account),
  };
}
