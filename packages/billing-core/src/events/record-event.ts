/**
 * @module
 * The outbox: every change writes its event in the database transaction that made it.
 */
import { toTimestamp } from '../shared/clock.js';
import type { Ambient } from '../shared/context.js';
import type { EventTypeName } from './event-types.js';
import type { EventRepositories } from './repositories.js';
import type { EntityKind } from './stored-event.js';

/** Writes the outbox row for a change, inside the transaction that made the change. */
export async function recordEvent(
  context: Ambient,
  tx: EventRepositories,
  eventType: EventTypeName,
  entityKind: EntityKind,
  entity: unknown,
): Promise<void> {
  await tx.events.append(context.scope, {
    id: context.ids.newId('evt'),
    eventType,
    occurredAt: toTimestamp(context.clock.now()),
    entityKind,
    entity,
  });
}
