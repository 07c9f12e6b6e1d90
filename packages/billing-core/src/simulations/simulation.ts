/**
 * @module
 * Webhook simulations: a simulation names a destination and what to send (one event type, or a
 * scenario), a run sends it, and each run event records one signed delivery: the payload, the
 * exact request body and the receiver's answer. Simulations never touch real entities or
 * balances: payloads are examples, or copies of real entities, and nothing is written back.
 */

import type { EventTypeName } from '../events/event-types.js';
import type { EntityKind } from '../events/stored-event.js';

export const SCENARIO_TYPES = [
  'subscription_creation',
  'subscription_renewal',
  'subscription_pause',
  'subscription_resume',
  'subscription_cancellation',
] as const;
export type ScenarioType = (typeof SCENARIO_TYPES)[number];

export type SimulationTypeName = EventTypeName | ScenarioType;

/** A JSON object in wire form (snake_case keys), as receivers see it. */
export type WireData = { readonly [key: string]: unknown };

/** The options and entities of one scenario, in wire form; null members for the other scenarios. */
export type ScenarioConfig = { readonly [Type in ScenarioType]: WireData | null };

export interface Simulation {
  readonly id: string;
  readonly status: 'active' | 'archived';
  readonly notificationSettingId: string;
  readonly name: string;
  readonly type: SimulationTypeName;
  /** For a single event: the custom payload (merged over the example); null for the example itself. */
  readonly payload: WireData | null;
  readonly config: ScenarioConfig | null;
  readonly lastRunAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export type SimulationRunStatus = 'pending' | 'completed' | 'canceled';

export interface SimulationRun {
  readonly id: string;
  readonly simulationId: string;
  readonly status: SimulationRunStatus;
  readonly type: SimulationTypeName;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** When a delivery worker should next pick the run up; null once nothing is left to send. */
  readonly dueAt: string | null;
}

export type SimulationRunEventStatus = 'pending' | 'success' | 'failed' | 'aborted';

export interface SimulationRunEvent {
  readonly id: string;
  readonly simulationId: string;
  readonly simulationRunId: string;
  /** The position of the event in its run: deliveries follow it. */
  readonly sequence: number;
  readonly status: SimulationRunEventStatus;
  readonly eventType: EventTypeName;
  /** The event's `data`, in wire form. */
  readonly payload: WireData;
  /** The body sent, exactly as signed. */
  readonly request: { readonly body: string } | null;
  readonly response: { readonly body: string; readonly statusCode: number } | null;
  /** The webhook envelope's `event_id`, kept across replays. */
  readonly eventId: string;
  /** The envelope's `notification_id`; a replay gets a new one. */
  readonly notificationId: string;
  readonly occurredAt: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Turns a real entity into its wire form (the service's presenter), so a simulation can copy
 * one into a payload without the core knowing the wire shape.
 */
export interface EntityPresenter {
  present(kind: EntityKind, entity: unknown): WireData;
}
