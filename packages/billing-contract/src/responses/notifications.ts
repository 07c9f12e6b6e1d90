/**
 * @module
 * Response schemas of events, event types, notification settings, notifications and their
 * delivery logs, and the webhook simulator (simulation types, simulations, runs, run events).
 */
import { z } from 'zod';
import { ApiKeyEventData, ClientToken } from './access.js';
import { Address, Business, Customer, Meter, Price, Product, UsageBalance, UsageBalanceUnit } from './catalogue.js';
import { entity, id, nullableTimestamp, timestamp } from './common.js';
import { Discount, DiscountGroup } from './discounts.js';
import { Report } from './operations.js';
import { PaymentMethodDeletedEventData, PaymentMethodSavedEventData } from './payments.js';
import { Subscription } from './subscriptions.js';
import { Adjustment, Transaction } from './transactions.js';

/** An event type name such as `transaction.completed`. */
const eventTypeName = z.string().regex(/^[a-z_]+\.[a-z_]+$/);

/**
 * The entity an event's `data` holds, by the event type's prefix (`transaction.paid` → Transaction),
 * or by the whole event type where the types of one prefix carry different shapes
 * (`payment_method.deleted` adds `deletion_reason`). The document turns this into one `if`/`then`
 * per entry on events and notification payloads.
 */
export const EVENT_DATA: Readonly<Record<string, z.ZodType>> = {
  address: Address,
  adjustment: Adjustment,
  api_key: ApiKeyEventData,
  client_token: ClientToken,
  'payment_method.saved': PaymentMethodSavedEventData,
  'payment_method.deleted': PaymentMethodDeletedEventData,
  business: Business,
  customer: Customer,
  discount: Discount,
  discount_group: DiscountGroup,
  meter: Meter,
  price: Price,
  product: Product,
  report: Report,
  subscription: Subscription,
  transaction: Transaction,
  usage_balance: UsageBalance,
  usage_balance_unit: UsageBalanceUnit,
};

const eventFields = {
  event_id: id('evt'),
  event_type: eventTypeName,
  occurred_at: timestamp,
};

export const Event = entity(
  'Event',
  'Something that happened; `data` is the entity as it was then, in its own wire form (by the type’s prefix).',
  z.strictObject({
    ...eventFields,
    notification_id: id('ntf').nullable().describe('The first notification made for the event; null when none was.'),
    data: z.record(z.string(), z.unknown()),
  }),
);

/** A webhook body: the event and the notification that carries it. */
export const NotificationPayload = entity(
  'NotificationPayload',
  'The body of a webhook: the event, and the notification that carries it.',
  z.strictObject({ ...eventFields, notification_id: id('ntf'), data: z.record(z.string(), z.unknown()) }),
);

export const EventType = entity(
  'EventType',
  'A kind of event one can subscribe to.',
  z.strictObject({
    name: eventTypeName,
    description: z.string(),
    group: z.string(),
    available_versions: z.array(z.number().int()),
  }),
);

export const NotificationSetting = entity(
  'NotificationSetting',
  'Where and what to deliver as webhooks.',
  z.strictObject({
    id: id('ntfset'),
    description: z.string(),
    type: z.literal('url').describe('Drawdown delivers to URLs only; email destinations are refused.'),
    destination: z.url(),
    active: z.boolean(),
    api_version: z.number().int(),
    include_sensitive_fields: z.boolean(),
    traffic_source: z.enum(['platform', 'simulation', 'all']),
    subscribed_events: z.array(EventType),
    endpoint_secret_key: z.string().regex(/^pdl_ntfset_/),
  }),
);

export const NOTIFICATION_STATUSES = ['not_attempted', 'needs_retry', 'delivered', 'failed'] as const;

export const Notification = entity(
  'Notification',
  'One event for one notification setting, and how its delivery went.',
  z.strictObject({
    id: id('ntf'),
    type: eventTypeName,
    status: z.enum(NOTIFICATION_STATUSES),
    payload: NotificationPayload,
    occurred_at: timestamp,
    delivered_at: nullableTimestamp,
    replayed_at: nullableTimestamp,
    origin: z.enum(['event', 'replay']),
    last_attempt_at: nullableTimestamp,
    retry_at: nullableTimestamp,
    times_attempted: z.number().int().min(0),
    notification_setting_id: id('ntfset'),
  }),
);

export const NotificationLog = entity(
  'NotificationLog',
  'One delivery attempt of a notification and the answer it got.',
  z.strictObject({
    id: id('ntflog'),
    notification_id: id('ntf').describe('Drawdown: the notification the attempt belongs to.'),
    response_code: z.number().int(),
    response_content_type: z.string().nullable(),
    response_body: z.string(),
    attempted_at: timestamp,
  }),
);

export const NotificationReplay = entity(
  'NotificationReplay',
  'The new notification a replay made.',
  z.strictObject({ notification_id: id('ntf') }),
);

export const SCENARIO_TYPES = [
  'subscription_creation',
  'subscription_renewal',
  'subscription_pause',
  'subscription_resume',
  'subscription_cancellation',
] as const;

const simulationTypeName = z.union([eventTypeName, z.enum(SCENARIO_TYPES)]);

export const SimulationType = entity(
  'SimulationType',
  'What can be simulated: one event type, or a scenario of several.',
  z.strictObject({
    name: simulationTypeName,
    label: z.string(),
    description: z.string(),
    group: z.string(),
    type: z.enum(['single_event', 'scenario']),
    events: z.array(eventTypeName),
  }),
);

export const Simulation = entity(
  'Simulation',
  'A webhook simulation: what to send and to which notification setting.',
  z.strictObject({
    id: id('ntfsim'),
    status: z.enum(['active', 'archived']),
    notification_setting_id: id('ntfset'),
    name: z.string(),
    type: simulationTypeName,
    payload: z.record(z.string(), z.unknown()).nullable(),
    config: z.record(z.string(), z.unknown()).nullable(),
    last_run_at: nullableTimestamp,
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const SimulationRunEvent = entity(
  'SimulationRunEvent',
  'One event a simulation run sent, with the request and the answer.',
  z.strictObject({
    id: id('ntfsimevt'),
    status: z.enum(['pending', 'success', 'failed', 'aborted']),
    event_type: eventTypeName,
    payload: z.record(z.string(), z.unknown()),
    request: z.strictObject({ body: z.string() }).nullable(),
    response: z.strictObject({ body: z.string(), status_code: z.number().int() }).nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const SimulationRun = entity(
  'SimulationRun',
  'One run of a simulation; `events` only with `include=events`.',
  z.strictObject({
    id: id('ntfsimrun'),
    status: z.enum(['pending', 'completed', 'canceled']),
    type: simulationTypeName,
    created_at: timestamp,
    updated_at: timestamp,
    events: z.array(SimulationRunEvent).optional(),
  }),
);
