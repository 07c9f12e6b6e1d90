/**
 * @module
 * Simulation use cases: simulation types, simulations (create, update, get, list), runs and
 * run events. A run writes its events as `pending`; the service's delivery worker sends them
 * (see `simulation-delivery.ts`). Nothing here writes to any entity but simulations, runs and
 * run events: a simulation reads real entities to copy them into payloads, and that is all.
 */

import { EVENT_TYPES, type EventTypeName, isEventTypeAvailable, listEventTypes } from '../events/event-types.js';
import type { EntityKind } from '../events/stored-event.js';
import type { NotificationSetting } from '../notifications/entities.js';
import { BillingError } from '../shared/billing-error.js';
import type { Clock } from '../shared/clock.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import { isIdOf } from '../shared/ids.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { Account } from '../shared/scope.js';
import { entityOfEventType, examplePayload } from './example-payloads.js';
import type {
  SimulationColumn,
  SimulationRunColumn,
  SimulationRunEventColumn,
  SimulationSlice,
} from './repositories.js';
import { defaultScenarioEvents, readScenarioOptions, SCENARIO_ENTITIES, scenarioSteps } from './scenarios.js';
import {
  type EntityPresenter,
  SCENARIO_TYPES,
  type ScenarioConfig,
  type ScenarioType,
  type Simulation,
  type SimulationRun,
  type SimulationRunEvent,
  type SimulationTypeName,
  type WireData,
} from './simulation.js';
import {
  type SimulationBudget,
  type SimulationCost,
  simulatedEventBytes,
  spendSimulationBudget,
} from './simulation-budget.js';

/** A run is due from the epoch on: the delivery worker picks it up at once (ADR 1301). */
export const DUE_NOW = '1970-01-01T00:00:00.000Z';

export interface SimulationContext extends Context<SimulationSlice> {
  readonly presenter: EntityPresenter;
  /** The wall clock the simulation budget counts by (a sandbox clock can be moved). */
  readonly wallClock: Clock;
  /** What runs and replays may send (ADR 1486); null turns the budget off. */
  readonly budget: SimulationBudget | null;
}

/** Charges a run or replay to the scope's simulation budget, under its lock, or refuses it. */
async function chargeBudget(context: SimulationContext, tx: SimulationSlice, cost: SimulationCost): Promise<void> {
  if (context.budget === null) return;
  const spending = await tx.simulationSpending.lockSpending(context.scope);
  const next = spendSimulationBudget(context.budget, spending, context.wallClock.now(), cost);
  await tx.simulationSpending.saveSpending(context.scope, next);
}

/** A simulation type as `GET /simulation-types` lists it. */
export interface SimulationType {
  readonly name: SimulationTypeName;
  readonly label: string;
  readonly description: string;
  readonly group: string;
  readonly type: 'single_event' | 'scenario';
  readonly events: readonly EventTypeName[];
}

const SCENARIO_DESCRIPTIONS: Readonly<Record<ScenarioType, { label: string; description: string }>> = {
  subscription_creation: {
    label: 'Subscription created from a checkout',
    description: 'Occurs when a subscription is created.',
  },
  subscription_renewal: { label: 'Subscription renewed', description: 'Occurs when a subscription is renewed.' },
  subscription_pause: { label: 'Subscription paused', description: 'Occurs when a subscription is paused.' },
  subscription_resume: { label: 'Subscription resumed', description: 'Occurs when a subscription is resumed.' },
  subscription_cancellation: {
    label: 'Subscription canceled',
    description: 'Occurs when a subscription is canceled.',
  },
};

const isScenario = (type: string): type is ScenarioType => (SCENARIO_TYPES as readonly string[]).includes(type);

/** Every event type the account may use, then the five scenarios. */
export function listSimulationTypes(account: Account): SimulationType[] {
  const singles: SimulationType[] = listEventTypes(account).map((described) => ({
    name: described.name as EventTypeName,
    label: described.name,
    description: described.description,
    group: described.group,
    type: 'single_event',
    events: [described.name as EventTypeName],
  }));
  const scenarios: SimulationType[] = SCENARIO_TYPES.map((name) => ({
    name,
    ...SCENARIO_DESCRIPTIONS[name],
    group: 'Subscription',
    type: 'scenario',
    events: defaultScenarioEvents(name),
  }));
  return [...singles, ...scenarios];
}

export interface SimulationInput {
  readonly notificationSettingId?: string | undefined;
  readonly name?: string | undefined;
  readonly type?: string | undefined;
  readonly status?: 'active' | 'archived' | undefined;
  readonly payload?: WireData | null | undefined;
  readonly config?: WireData | null | undefined;
}

function requireType(account: Account, type: string): SimulationTypeName {
  if (isScenario(type)) return type;
  if (Object.hasOwn(EVENT_TYPES, type) && isEventTypeAvailable(account, type)) return type as EventTypeName;
  throw BillingError.invalidField('type', `${type} is not a simulation type (see GET /simulation-types)`);
}

/** The destination must be this scope's url destination and accept simulated traffic. */
async function requireDestination(
  context: Context<SimulationSlice>,
  tx: SimulationSlice,
  id: string,
): Promise<NotificationSetting> {
  const setting = isIdOf('ntfset', id) ? await tx.notificationSettings.findById(context.scope, id) : undefined;
  if (!setting) {
    throw new BillingError(
      'simulation_destination_not_found',
      `Notification setting ${id} is not a destination of this account and environment.`,
      [{ field: 'notification_setting_id', message: 'names no destination of this account and environment' }],
    );
  }
  if (setting.trafficSource === 'platform') {
    throw new BillingError(
      'simulation_destination_platform_only',
      `Notification setting ${id} accepts platform traffic only; set its traffic_source to simulation or all.`,
      [{ field: 'notification_setting_id', message: 'accepts platform traffic only' }],
    );
  }
  return setting;
}

/** Normalises `config`: only the member of the simulation's own scenario may be set. */
function requireConfig(type: SimulationTypeName, config: WireData | null | undefined): ScenarioConfig | null {
  if (!isScenario(type)) {
    if (config != null) throw BillingError.invalidField('config', 'applies only to scenario simulations');
    return null;
  }
  if (config != null && (typeof config !== 'object' || Array.isArray(config))) {
    throw BillingError.invalidField('config', 'must be an object or null');
  }
  const normalised = Object.fromEntries(SCENARIO_TYPES.map((name) => [name, null])) as Record<
    ScenarioType,
    WireData | null
  >;
  for (const [name, member] of Object.entries(config ?? {})) {
    if (!isScenario(name)) throw BillingError.invalidField(`config.${name}`, 'is not a scenario');
    if (member === null) continue;
    if (name !== type) {
      throw new BillingError(
        'simulation_options_conflict',
        `config.${name} is set on a ${type} simulation; only config.${type} applies.`,
        [{ field: `config.${name}`, message: `does not apply to a ${type} simulation` }],
      );
    }
    readScenarioOptions(type, member as WireData);
    normalised[name] = member as WireData;
  }
  return normalised;
}

function requirePayload(type: SimulationTypeName, payload: WireData | null | undefined): WireData | null {
  if (payload == null) return null;
  if (isScenario(type)) throw BillingError.invalidField('payload', 'applies only to single-event simulations');
  if (typeof payload !== 'object' || Array.isArray(payload))
    throw BillingError.invalidField('payload', 'must be an object');
  return payload;
}

function requireName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (trimmed === '' || trimmed.length > 200) throw BillingError.invalidField('name', 'must be 1 to 200 characters');
  return trimmed;
}

export async function createSimulation(context: SimulationContext, input: SimulationInput): Promise<Simulation> {
  const type = requireType(context.account, input.type ?? '');
  const name = requireName(input.name);
  const payload = requirePayload(type, input.payload);
  const config = requireConfig(type, input.config);
  return context.store.transaction(async (tx) => {
    await requireDestination(context, tx, input.notificationSettingId ?? '');
    const now = nowTimestamp(context);
    const simulation: Simulation = {
      id: context.ids.newId('ntfsim'),
      status: 'active',
      notificationSettingId: input.notificationSettingId ?? '',
      name,
      type,
      payload,
      config,
      lastRunAt: null,
      createdAt: now,
      updatedAt: now,
    };
    if (config) await resolveScenarioEntities(context, tx, simulation);
    await tx.simulations.insert(context.scope, simulation);
    return simulation;
  });
}

export async function updateSimulation(
  context: SimulationContext,
  id: string,
  input: SimulationInput,
): Promise<Simulation> {
  return context.store.transaction(async (tx) => {
    const current = await tx.simulations.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Simulation', id);
    const type = input.type === undefined ? current.type : requireType(context.account, input.type);
    const typeChanged = type !== current.type;
    // A new type drops the old payload or config unless the request gives new ones.
    const payload = requirePayload(
      type,
      input.payload !== undefined ? input.payload : typeChanged ? null : current.payload,
    );
    const config = requireConfig(type, input.config !== undefined ? input.config : typeChanged ? null : current.config);
    if (input.notificationSettingId !== undefined) await requireDestination(context, tx, input.notificationSettingId);
    const next: Simulation = {
      ...current,
      notificationSettingId: input.notificationSettingId ?? current.notificationSettingId,
      name: input.name === undefined ? current.name : requireName(input.name),
      status: input.status ?? current.status,
      type,
      payload,
      config: isScenario(type) ? (config ?? requireConfig(type, null)) : null,
      updatedAt: nowTimestamp(context),
    };
    if (next.config) await resolveScenarioEntities(context, tx, next);
    await tx.simulations.update(context.scope, next);
    return next;
  });
}

export async function getSimulation(context: Context<SimulationSlice>, id: string): Promise<Simulation> {
  const simulation = await context.store.simulations.findById(context.scope, id);
  if (!simulation) throw BillingError.notFound('Simulation', id);
  return simulation;
}

export function listSimulations(
  context: Context<SimulationSlice>,
  query: ListQuery<SimulationColumn>,
): Promise<Page<Simulation>> {
  return context.store.simulations.list(context.scope, query);
}

/** The real entities a scenario's `config.entities` names, as base payloads by entity. */
type ScenarioBases = Partial<Record<'subscription' | 'customer' | 'address' | 'transaction', WireData>>;

const UNSUPPORTED_ENTITIES = ['business_id', 'payment_method_id', 'discount_id', 'items'];

function entityNotFound(field: string, id: string): BillingError {
  return new BillingError(
    'simulation_entity_not_found',
    `${field} ${id} names no entity of this account and environment.`,
    [{ field, message: 'names no entity of this account and environment' }],
  );
}

/**
 * Checks the ids of the scenario's `config.entities` and reads their entities: each must be
 * this scope's, and the address the customer's. Entities Drawdown does not hold are refused.
 */
async function resolveScenarioEntities(
  context: SimulationContext,
  tx: SimulationSlice,
  simulation: Simulation,
): Promise<ScenarioBases> {
  const type = simulation.type as ScenarioType;
  const member = simulation.config?.[type] ?? null;
  const entities = (member?.entities ?? null) as WireData | null;
  const base = `config.${type}.entities`;
  if (entities !== null && (typeof entities !== 'object' || Array.isArray(entities))) {
    throw BillingError.invalidField(base, 'must be an object or null');
  }
  const options = readScenarioOptions(type, member);
  const bases: ScenarioBases = {};
  const present = (kind: EntityKind, entity: unknown) => context.presenter.present(kind, entity);
  for (const [name, value] of Object.entries(entities ?? {})) {
    const field = `${base}.${name}`;
    if (!SCENARIO_ENTITIES[type].includes(name)) throw BillingError.invalidField(field, `is not an entity of ${type}`);
    if (value === null) continue;
    if (UNSUPPORTED_ENTITIES.includes(name)) {
      throw new BillingError(
        'simulation_entity_not_supported',
        `${field} is not supported: Drawdown does not hold this entity for simulations yet.`,
        [{ field, message: 'is not supported by Drawdown simulations' }],
      );
    }
    if (typeof value !== 'string') throw BillingError.invalidField(field, 'must be an id or null');
    const scope = context.scope;
    if (name === 'subscription_id') {
      const found = isIdOf('sub', value) ? await tx.subscriptions.findById(scope, value) : undefined;
      if (!found) throw entityNotFound(field, value);
      bases.subscription = present('subscription', found);
    } else if (name === 'customer_id') {
      const found = isIdOf('ctm', value) ? await tx.customers.findById(scope, value) : undefined;
      if (!found) throw entityNotFound(field, value);
      bases.customer = present('customer', found);
    } else if (name === 'address_id') {
      const found = isIdOf('add', value) ? await tx.addresses.findById(scope, value) : undefined;
      if (!found) throw entityNotFound(field, value);
      bases.address = present('address', found);
    } else if (name === 'transaction_id') {
      const found = isIdOf('txn', value) ? await tx.transactions.findById(scope, value) : undefined;
      if (!found) throw entityNotFound(field, value);
      bases.transaction = present('transaction', found);
    }
  }
  if (type === 'subscription_creation') {
    if (bases.customer && options.customer_simulated_as === 'new') {
      throw new BillingError(
        'simulation_options_conflict',
        'entities.customer_id names an existing customer, but customer_simulated_as is new.',
        [{ field: `${base}.customer_id`, message: 'contradicts customer_simulated_as new' }],
      );
    }
    if (bases.address && bases.customer && bases.address.customer_id !== bases.customer.id) {
      throw new BillingError(
        'simulation_options_conflict',
        'entities.address_id is not an address of entities.customer_id.',
        [{ field: `${base}.address_id`, message: 'belongs to another customer' }],
      );
    }
  }
  return bases;
}

function isPlainObject(value: unknown): value is WireData {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Overlays `patch` on `base`: objects merge key by key, anything else replaces. */
export function overlay(base: WireData, patch: WireData): WireData {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = merged[key];
    merged[key] = isPlainObject(current) && isPlainObject(value) ? overlay(current, value) : value;
  }
  return merged;
}

const COLLECTION_BY_ENTITY = {
  product: 'products',
  price: 'prices',
  customer: 'customers',
  address: 'addresses',
  subscription: 'subscriptions',
  transaction: 'transactions',
  adjustment: 'adjustments',
  meter: 'meters',
  usage_balance_unit: 'usageBalanceUnits',
} as const;

/**
 * The payload of a single-event simulation: the custom payload over a base. When the custom
 * payload's `id` names a real entity of the event's kind in this scope, the base is that entity
 * (copied, never changed); otherwise the static example.
 */
async function singleEventPayload(
  context: SimulationContext,
  tx: SimulationSlice,
  simulation: Simulation,
): Promise<WireData> {
  const eventType = simulation.type as EventTypeName;
  const entity = entityOfEventType(eventType);
  let base = examplePayload(eventType);
  const id = simulation.payload?.id;
  const collection = COLLECTION_BY_ENTITY[entity as keyof typeof COLLECTION_BY_ENTITY];
  if (typeof id === 'string' && collection) {
    const found = await tx[collection].findById(context.scope, id);
    if (found) base = context.presenter.present(entity as EntityKind, found);
  }
  return simulation.payload ? overlay(base, simulation.payload) : base;
}

/** The events a run sends, with their payloads, in order. */
async function runPayloads(
  context: SimulationContext,
  tx: SimulationSlice,
  simulation: Simulation,
): Promise<{ readonly eventType: EventTypeName; readonly payload: WireData }[]> {
  if (!isScenario(simulation.type)) {
    return [{ eventType: simulation.type, payload: await singleEventPayload(context, tx, simulation) }];
  }
  const type = simulation.type;
  const bases = await resolveScenarioEntities(context, tx, simulation);
  const options = readScenarioOptions(type, simulation.config?.[type] ?? null);
  const subscription = bases.subscription;
  // Entities of one run refer to each other: the subscription's customer is the transaction's.
  const customerId = (bases.customer?.id ?? subscription?.customer_id) as string | undefined;
  const addressId = (bases.address?.id ?? subscription?.address_id) as string | undefined;
  const links: WireData = {
    ...(customerId ? { customer_id: customerId } : {}),
    ...(addressId ? { address_id: addressId } : {}),
  };
  const baseOf = (entity: string): WireData => {
    const real = bases[entity as keyof ScenarioBases];
    if (real) return real;
    const example = examplePayload(`${entity}.created`);
    if (entity === 'transaction') {
      return overlay(example, { ...links, ...(subscription ? { subscription_id: subscription.id } : {}) });
    }
    if (entity === 'address' && customerId) return overlay(example, { customer_id: customerId });
    if (entity === 'subscription') return overlay(example, links);
    return example;
  };
  return scenarioSteps(type, options).map((entry) => ({
    eventType: entry.eventType,
    payload: entry.set ? overlay(baseOf(entry.entity), entry.set) : baseOf(entry.entity),
  }));
}

/**
 * Starts a run: checks the simulation and its destination again, charges the run to the
 * simulation budget (ADR 1486), writes the run and its events as `pending`, and stamps the
 * simulation's `last_run_at`.
 */
export async function createSimulationRun(context: SimulationContext, simulationId: string): Promise<SimulationRun> {
  return context.store.transaction(async (tx) => {
    const simulation = await tx.simulations.findByIdForUpdate(context.scope, simulationId);
    if (!simulation) throw BillingError.notFound('Simulation', simulationId);
    if (simulation.status === 'archived') {
      throw new BillingError(
        'simulation_archived',
        `Simulation ${simulationId} is archived; make it active to run it.`,
      );
    }
    await requireDestination(context, tx, simulation.notificationSettingId);
    const payloads = await runPayloads(context, tx, simulation);
    await chargeBudget(context, tx, {
      events: payloads.length,
      bytes: payloads.reduce((sum, { payload }) => sum + simulatedEventBytes(payload), 0),
    });
    const now = nowTimestamp(context);
    const run: SimulationRun = {
      id: context.ids.newId('ntfsimrun'),
      simulationId,
      status: 'pending',
      type: simulation.type,
      createdAt: now,
      updatedAt: now,
      dueAt: DUE_NOW,
    };
    await tx.simulationRuns.insert(context.scope, run);
    for (const [sequence, { eventType, payload }] of payloads.entries()) {
      const event: SimulationRunEvent = {
        id: context.ids.newId('ntfsimevt'),
        simulationId,
        simulationRunId: run.id,
        sequence,
        status: 'pending',
        eventType,
        payload,
        request: null,
        response: null,
        eventId: context.ids.newId('evt'),
        notificationId: context.ids.newId('ntf'),
        occurredAt: now,
        createdAt: now,
        updatedAt: now,
      };
      await tx.simulationRunEvents.insert(context.scope, event);
    }
    await tx.simulations.update(context.scope, { ...simulation, lastRunAt: now, updatedAt: now });
    return run;
  });
}

async function requireRun(
  context: Context<SimulationSlice>,
  simulationId: string,
  runId: string,
): Promise<SimulationRun> {
  const run = await context.store.simulationRuns.findById(context.scope, runId);
  if (!run || run.simulationId !== simulationId) throw BillingError.notFound('Simulation run', runId);
  return run;
}

export async function getSimulationRun(
  context: Context<SimulationSlice>,
  simulationId: string,
  runId: string,
): Promise<SimulationRun> {
  return requireRun(context, simulationId, runId);
}

export async function listSimulationRuns(
  context: Context<SimulationSlice>,
  simulationId: string,
  query: ListQuery<SimulationRunColumn>,
): Promise<Page<SimulationRun>> {
  await getSimulation(context, simulationId);
  return context.store.simulationRuns.list(context.scope, {
    ...query,
    filter: { ...query.filter, simulation_id: [{ op: 'eq', value: simulationId }] },
  });
}

export function listRunEvents(
  context: Context<SimulationSlice>,
  runId: string,
): Promise<readonly SimulationRunEvent[]> {
  return context.store.simulationRunEvents.listByRun(context.scope, runId);
}

export async function listSimulationRunEvents(
  context: Context<SimulationSlice>,
  simulationId: string,
  runId: string,
  query: ListQuery<SimulationRunEventColumn>,
): Promise<Page<SimulationRunEvent>> {
  await requireRun(context, simulationId, runId);
  return context.store.simulationRunEvents.list(context.scope, {
    ...query,
    filter: { ...query.filter, simulation_run_id: [{ op: 'eq', value: runId }] },
  });
}

export async function getSimulationRunEvent(
  context: Context<SimulationSlice>,
  simulationId: string,
  runId: string,
  eventId: string,
): Promise<SimulationRunEvent> {
  const event = await context.store.simulationRunEvents.findById(context.scope, eventId);
  if (!event || event.simulationRunId !== runId || event.simulationId !== simulationId) {
    throw BillingError.notFound('Simulation run event', eventId);
  }
  return event;
}

/**
 * Sends a run event again as a new run event of the same run: `pending`, with its own id and a new
 * notification id (the event id and payload stay, as a replayed notification's do); the run
 * becomes due and the replayed event keeps its own record. A replay is a send of one event for
 * the simulation budget.
 */
export async function replaySimulationRunEvent(
  context: SimulationContext,
  simulationId: string,
  runId: string,
  eventId: string,
): Promise<SimulationRunEvent> {
  return context.store.transaction(async (tx) => {
    const run = await tx.simulationRuns.findByIdForUpdate(context.scope, runId);
    const event = await tx.simulationRunEvents.findByIdForUpdate(context.scope, eventId);
    if (!run || run.simulationId !== simulationId) throw BillingError.notFound('Simulation run', runId);
    if (!event || event.simulationRunId !== runId) throw BillingError.notFound('Simulation run event', eventId);
    const simulation = await tx.simulations.findById(context.scope, simulationId);
    if (!simulation) throw BillingError.notFound('Simulation', simulationId);
    await requireDestination(context, tx, simulation.notificationSettingId);
    await chargeBudget(context, tx, { events: 1, bytes: simulatedEventBytes(event.payload) });
    const now = nowTimestamp(context);
    // A new run event, as the public API makes one (issue 36): the same event (its `event_id` and
    // payload) in a new notification, sent after the run's other events; the replayed one keeps its record.
    const sequence = Math.max(...(await tx.simulationRunEvents.listByRun(context.scope, runId)).map((e) => e.sequence));
    const replayed: SimulationRunEvent = {
      ...event,
      id: context.ids.newId('ntfsimevt'),
      sequence: sequence + 1,
      status: 'pending',
      request: null,
      response: null,
      notificationId: context.ids.newId('ntf'),
      createdAt: now,
      updatedAt: now,
    };
    await tx.simulationRunEvents.insert(context.scope, replayed);
    await tx.simulationRuns.update(context.scope, { ...run, dueAt: DUE_NOW, updatedAt: now });
    return replayed;
  });
}
