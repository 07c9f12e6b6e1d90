/**
 * @module
 * The five scenarios: their documented options, which option sets contradict each other, and
 * the events each sends, in order, with the state each event's entity is in (ADR 1301).
 */

import type { EventTypeName } from '../events/event-types.js';
import { BillingError } from '../shared/billing-error.js';
import type { ScenarioType, WireData } from './simulation.js';

/** The entity one scenario event carries, and the fields that differ from the entity's base. */
export interface ScenarioStep {
  readonly eventType: EventTypeName;
  readonly entity: 'transaction' | 'subscription' | 'customer' | 'address' | 'business';
  readonly set?: WireData;
}

const OPTION_VALUES = {
  customer_simulated_as: ['new', 'existing_email_matched', 'existing_details_prefilled'],
  business_simulated_as: ['not_provided', 'new', 'existing_details_prefilled'],
  discount_simulated_as: ['not_provided', 'entered_by_customer', 'prefilled'],
  payment_outcome: ['success', 'recovered_existing_payment_method', 'recovered_updated_payment_method', 'failed'],
  dunning_exhausted_action: ['subscription_paused', 'subscription_canceled'],
  effective_from: ['immediately', 'next_billing_period'],
} as const;

type OptionName = keyof typeof OPTION_VALUES;

/** The options each scenario documents; any other is refused. */
const SCENARIO_OPTIONS: Readonly<Record<ScenarioType, readonly (OptionName | 'has_past_due_transaction')[]>> = {
  subscription_creation: ['customer_simulated_as', 'business_simulated_as', 'discount_simulated_as'],
  subscription_renewal: ['payment_outcome', 'dunning_exhausted_action'],
  subscription_resume: ['payment_outcome', 'dunning_exhausted_action'],
  subscription_pause: ['effective_from', 'has_past_due_transaction'],
  subscription_cancellation: ['effective_from', 'has_past_due_transaction'],
};

/** The entity ids each scenario documents. */
export const SCENARIO_ENTITIES: Readonly<Record<ScenarioType, readonly string[]>> = {
  subscription_creation: [
    'customer_id',
    'address_id',
    'business_id',
    'payment_method_id',
    'discount_id',
    'transaction_id',
    'items',
  ],
  subscription_renewal: ['subscription_id'],
  subscription_resume: ['subscription_id'],
  subscription_pause: ['subscription_id'],
  subscription_cancellation: ['subscription_id'],
};

/** Options with their defaults filled in. */
export interface ScenarioOptions {
  readonly customer_simulated_as: (typeof OPTION_VALUES.customer_simulated_as)[number];
  readonly business_simulated_as: (typeof OPTION_VALUES.business_simulated_as)[number];
  readonly discount_simulated_as: (typeof OPTION_VALUES.discount_simulated_as)[number];
  readonly payment_outcome: (typeof OPTION_VALUES.payment_outcome)[number];
  readonly dunning_exhausted_action: (typeof OPTION_VALUES.dunning_exhausted_action)[number] | null;
  readonly effective_from: (typeof OPTION_VALUES.effective_from)[number];
  readonly has_past_due_transaction: boolean;
}

const isObject = (value: unknown): value is WireData =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function conflict(field: string, message: string): BillingError {
  return new BillingError('simulation_options_conflict', message, [{ field, message }]);
}

/**
 * Checks one scenario's `config` member (`{ entities?, options? }`) and returns its options with
 * defaults. Unknown options or entities, bad values and contradicting sets are refused.
 */
export function readScenarioOptions(type: ScenarioType, member: WireData | null): ScenarioOptions {
  const base = `config.${type}`;
  if (member !== null && !isObject(member)) throw BillingError.invalidField(base, 'must be an object or null');
  for (const key of Object.keys(member ?? {})) {
    if (key !== 'entities' && key !== 'options')
      throw BillingError.invalidField(`${base}.${key}`, 'is not a field of this scenario');
  }
  const options = member?.options ?? null;
  if (options !== null && !isObject(options))
    throw BillingError.invalidField(`${base}.options`, 'must be an object or null');
  const allowed = SCENARIO_OPTIONS[type];
  for (const [name, value] of Object.entries(options ?? {})) {
    const field = `${base}.options.${name}`;
    if (!(allowed as readonly string[]).includes(name))
      throw BillingError.invalidField(field, `is not an option of ${type}`);
    if (value === null) continue;
    if (name === 'has_past_due_transaction') {
      if (typeof value !== 'boolean') throw BillingError.invalidField(field, 'must be true or false');
      continue;
    }
    const values = OPTION_VALUES[name as OptionName] as readonly string[];
    if (typeof value !== 'string' || !values.includes(value)) {
      throw BillingError.invalidField(field, `must be one of ${values.join(', ')}`);
    }
  }
  const read = <Name extends OptionName>(name: Name, fallback: ScenarioOptions[Name]): ScenarioOptions[Name] =>
    ((options?.[name] as ScenarioOptions[Name] | null | undefined) ?? fallback) as ScenarioOptions[Name];
  const paymentOutcome = read('payment_outcome', 'success');
  const exhausted = (options?.dunning_exhausted_action ?? null) as ScenarioOptions['dunning_exhausted_action'];
  if (exhausted !== null && paymentOutcome !== 'failed') {
    throw conflict(
      `${base}.options.dunning_exhausted_action`,
      'applies only when payment_outcome is failed: a payment that succeeds or recovers exhausts no dunning',
    );
  }
  return {
    customer_simulated_as: read('customer_simulated_as', 'new'),
    business_simulated_as: read('business_simulated_as', 'not_provided'),
    discount_simulated_as: read('discount_simulated_as', 'not_provided'),
    payment_outcome: paymentOutcome,
    dunning_exhausted_action: paymentOutcome === 'failed' ? (exhausted ?? 'subscription_canceled') : null,
    effective_from: read('effective_from', 'immediately'),
    has_past_due_transaction: options?.has_past_due_transaction === true,
  };
}

const step = (eventType: EventTypeName, entity: ScenarioStep['entity'], set?: WireData): ScenarioStep =>
  set ? { eventType, entity, set } : { eventType, entity };

/** The collection after a renewal or resumption bills its transaction, by payment outcome. */
function paymentSteps(options: ScenarioOptions): ScenarioStep[] {
  const paid = [
    step('transaction.updated', 'transaction', { status: 'paid' }),
    step('transaction.paid', 'transaction', { status: 'paid' }),
    step('transaction.updated', 'transaction', { status: 'completed' }),
    step('transaction.completed', 'transaction', { status: 'completed' }),
  ];
  if (options.payment_outcome === 'success') return paid;
  const failed = [
    step('transaction.payment_failed', 'transaction', { status: 'past_due' }),
    step('transaction.updated', 'transaction', { status: 'past_due' }),
    step('transaction.past_due', 'transaction', { status: 'past_due' }),
    step('subscription.updated', 'subscription', { status: 'past_due' }),
    step('subscription.past_due', 'subscription', { status: 'past_due' }),
  ];
  if (options.payment_outcome === 'failed') {
    const ending = options.dunning_exhausted_action === 'subscription_paused' ? 'paused' : 'canceled';
    return [
      ...failed,
      step('transaction.updated', 'transaction', { status: 'canceled' }),
      step('transaction.canceled', 'transaction', { status: 'canceled' }),
      step('subscription.updated', 'subscription', { status: ending }),
      step(ending === 'paused' ? 'subscription.paused' : 'subscription.canceled', 'subscription', { status: ending }),
    ];
  }
  return [
    ...failed,
    ...paid,
    step('subscription.updated', 'subscription', { status: 'active' }),
    step('subscription.activated', 'subscription', { status: 'active' }),
  ];
}

function creationSteps(options: ScenarioOptions): ScenarioStep[] {
  const prefilled = options.customer_simulated_as === 'existing_details_prefilled';
  const steps: ScenarioStep[] = [
    step('transaction.created', 'transaction', { status: prefilled ? 'ready' : 'draft', origin: 'web' }),
  ];
  if (prefilled) {
    steps.push(step('transaction.ready', 'transaction', { status: 'ready' }));
  } else {
    if (options.customer_simulated_as === 'new') steps.push(step('customer.created', 'customer'));
    steps.push(step('address.created', 'address'));
    if (options.business_simulated_as === 'new') steps.push(step('business.created', 'business'));
    steps.push(
      step('transaction.updated', 'transaction', { status: 'ready' }),
      step('transaction.ready', 'transaction', { status: 'ready' }),
    );
  }
  if (options.discount_simulated_as === 'entered_by_customer') {
    steps.push(step('transaction.updated', 'transaction', { status: 'ready' }));
  }
  steps.push(
    step('transaction.updated', 'transaction', { status: 'paid' }),
    step('transaction.paid', 'transaction', { status: 'paid' }),
    step('subscription.created', 'subscription', { status: 'active' }),
    step('subscription.activated', 'subscription', { status: 'active' }),
    step('transaction.updated', 'transaction', { status: 'paid' }),
    step('transaction.updated', 'transaction', { status: 'completed' }),
    step('transaction.completed', 'transaction', { status: 'completed' }),
  );
  return steps;
}

function endingSteps(options: ScenarioOptions, status: 'paused' | 'canceled'): ScenarioStep[] {
  const action = status === 'paused' ? 'pause' : 'cancel';
  const steps: ScenarioStep[] = [];
  if (options.effective_from === 'next_billing_period') {
    steps.push(step('subscription.updated', 'subscription', { scheduled_change: { action, resume_at: null } }));
  }
  if (options.has_past_due_transaction) {
    steps.push(
      step('transaction.updated', 'transaction', { status: 'canceled' }),
      step('transaction.canceled', 'transaction', { status: 'canceled' }),
    );
  }
  steps.push(
    step('subscription.updated', 'subscription', { status, scheduled_change: null }),
    step(status === 'paused' ? 'subscription.paused' : 'subscription.canceled', 'subscription', {
      status,
      scheduled_change: null,
    }),
  );
  return steps;
}

/** The events a scenario sends with these options, in order. */
export function scenarioSteps(type: ScenarioType, options: ScenarioOptions): ScenarioStep[] {
  const billed = [
    step('transaction.created', 'transaction', { status: 'billed', origin: 'subscription_recurring' }),
    step('transaction.billed', 'transaction', { status: 'billed', origin: 'subscription_recurring' }),
  ];
  switch (type) {
    case 'subscription_creation':
      return creationSteps(options);
    case 'subscription_renewal':
      return [step('subscription.updated', 'subscription', { status: 'active' }), ...billed, ...paymentSteps(options)];
    case 'subscription_resume':
      return [
        step('subscription.updated', 'subscription', { status: 'active', paused_at: null }),
        step('subscription.resumed', 'subscription', { status: 'active', paused_at: null }),
        ...billed,
        ...paymentSteps(options),
        // Once the resuming payment settles, the subscription is active again.
        ...(options.payment_outcome === 'success'
          ? [step('subscription.updated', 'subscription', { status: 'active' })]
          : []),
      ];
    case 'subscription_pause':
      return endingSteps(options, 'paused');
    case 'subscription_cancellation':
      return endingSteps(options, 'canceled');
  }
}

/** The event types a scenario sends with its default options (what `GET /simulation-types` lists). */
export function defaultScenarioEvents(type: ScenarioType): EventTypeName[] {
  return scenarioSteps(type, readScenarioOptions(type, null)).map((entry) => entry.eventType);
}
