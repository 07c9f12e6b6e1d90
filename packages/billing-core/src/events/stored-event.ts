/**
 * @module
 * An event as the outbox stores it: the domain entity it carries, not its wire form. The
 * service presents the entity when it lists the event or delivers it, so one presenter
 * decides the wire shape everywhere.
 */
import type { EventTypeName } from './event-types.js';

export type EntityKind =
  | 'product'
  | 'price'
  | 'customer'
  | 'address'
  | 'business'
  | 'usage_balance_unit'
  | 'meter'
  | 'subscription'
  | 'usage_balance'
  | 'transaction'
  | 'adjustment'
  | 'api_key'
  | 'client_token'
  | 'report'
  | 'discount'
  | 'discount_group'
  | 'payment_method';

export interface StoredEvent {
  readonly id: string;
  /** `<entity>.<action>`, for example `meter.created`: always a name of the event-type table. */
  readonly eventType: EventTypeName;
  readonly occurredAt: string;
  readonly entityKind: EntityKind;
  readonly entity: unknown;
  /**
   * The first notification made for the event (a replay's aside), null when none was made yet:
   * read by the event log's list, never stored with the event.
   */
  readonly notificationId?: string | null;
}
