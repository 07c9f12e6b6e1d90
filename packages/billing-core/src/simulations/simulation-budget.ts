/**
 * @module
 * The simulation budget (ADR 1486): how much webhook traffic one account may ask simulations
 * to send, per environment. A run or a replay is one send; a run of more events than
 * `eventsPerRun` is refused whole; and the events and webhook body bytes of every send add up
 * over a rolling day. Without it, a few small requests (a large custom payload, then many runs
 * or replays) made the service post megabytes to a URL of the caller's choosing.
 *
 * Windows are measured on the wall clock, never on the sandbox clock an account can move. The
 * spending is one small document per account environment, locked in the transaction that
 * writes the run, so concurrent runs and several processes count every send once.
 */
import { BillingError } from '../shared/billing-error.js';
import type { SimulationSpending, SpendingHour } from './repositories.js';

export interface SimulationBudget {
  /** Runs and replays asked for within any 60 seconds. */
  readonly runsPerMinute: number;
  /** Runs and replays asked for within any 60 minutes. */
  readonly runsPerHour: number;
  /** Events one run may send (a replay sends one). */
  readonly eventsPerRun: number;
  /** Events sent by runs and replays within a rolling 24 hours (counted by the hour). */
  readonly eventsPerDay: number;
  /** Bytes of webhook bodies (UTF-8) those events carry within a rolling 24 hours. */
  readonly bytesPerDay: number;
}

/**
 * Room for a test suite that runs every scenario several times a minute, and a wall against a
 * loop: at most 10 MiB a day leave for any one account environment's destinations.
 */
export const DEFAULT_SIMULATION_BUDGET: SimulationBudget = {
  runsPerMinute: 10,
  runsPerHour: 100,
  eventsPerRun: 50,
  eventsPerDay: 1_000,
  bytesPerDay: 10 * 1024 * 1024,
};

/** The id of the one spending document each account environment has. */
export const SIMULATION_SPENDING_ID = 'simulation_spending';

/** What one send costs: its events and the bytes of their webhook bodies. */
export interface SimulationCost {
  readonly events: number;
  readonly bytes: number;
}

/** Refused: which limit, why, and after how many seconds waiting would help (null: never). */
export class SimulationBudgetExceeded extends BillingError {
  constructor(
    detail: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super('simulation_budget_exceeded', detail);
  }
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_HOURS = 24;

/** The spending of an account environment that has sent nothing yet. */
export function emptySimulationSpending(): SimulationSpending {
  return { id: SIMULATION_SPENDING_ID, sends: [], hours: [] };
}

const secondsUntil = (instantMs: number, nowMs: number) => Math.max(1, Math.ceil((instantMs - nowMs) / 1000));

/** The sends of the last `windowMs`, and when the oldest of them leaves the window. */
function sendsWithin(sends: readonly number[], nowMs: number, windowMs: number): readonly number[] {
  return sends.filter((at) => at > nowMs - windowMs && at <= nowMs);
}

/**
 * After how many seconds a daily total, with `cost` added, fits `limit` again as old hours
 * leave the rolling day; null when it never will (the cost alone is above the limit).
 */
function dailyRetry(
  hours: readonly SpendingHour[],
  nowMs: number,
  total: number,
  cost: number,
  limit: number,
  amount: (hour: SpendingHour) => number,
): number | null {
  if (cost > limit) return null;
  let left = total;
  for (const entry of hours) {
    left -= amount(entry);
    if (left + cost <= limit) return secondsUntil((entry.hour + DAY_HOURS) * HOUR_MS, nowMs);
  }
  return secondsUntil(nowMs + HOUR_MS, nowMs);
}

/**
 * Charges one send to the spending, or refuses it with the first limit it would break: the
 * run's size, then the minute, the hour, the day's events and the day's bytes.
 */
export function spendSimulationBudget(
  budget: SimulationBudget,
  spending: SimulationSpending,
  nowMs: number,
  cost: SimulationCost,
): SimulationSpending {
  if (cost.events > budget.eventsPerRun) {
    throw new SimulationBudgetExceeded(
      `This run would send ${cost.events} events; a simulation run may send at most ${budget.eventsPerRun}.`,
      null,
    );
  }
  const lastHour = sendsWithin(spending.sends, nowMs, HOUR_MS);
  const lastMinute = sendsWithin(lastHour, nowMs, MINUTE_MS);
  if (lastMinute.length >= budget.runsPerMinute) {
    const retry = secondsUntil((lastMinute[lastMinute.length - budget.runsPerMinute] ?? nowMs) + MINUTE_MS, nowMs);
    throw new SimulationBudgetExceeded(
      `At most ${budget.runsPerMinute} simulation runs and replays a minute; retry after ${retry} seconds.`,
      retry,
    );
  }
  if (lastHour.length >= budget.runsPerHour) {
    const retry = secondsUntil((lastHour[lastHour.length - budget.runsPerHour] ?? nowMs) + HOUR_MS, nowMs);
    throw new SimulationBudgetExceeded(
      `At most ${budget.runsPerHour} simulation runs and replays an hour; retry after ${retry} seconds.`,
      retry,
    );
  }
  const hourNow = Math.floor(nowMs / HOUR_MS);
  const day = spending.hours.filter((entry) => entry.hour > hourNow - DAY_HOURS && entry.hour <= hourNow);
  const events = day.reduce((sum, entry) => sum + entry.events, 0);
  const bytes = day.reduce((sum, entry) => sum + entry.bytes, 0);
  if (events + cost.events > budget.eventsPerDay) {
    const retry = dailyRetry(day, nowMs, events, cost.events, budget.eventsPerDay, (entry) => entry.events);
    throw new SimulationBudgetExceeded(
      `Simulations may send at most ${budget.eventsPerDay} events a day; ${events} were sent in the last 24 hours and this would send ${cost.events}.${retry === null ? '' : ` Retry after ${retry} seconds.`}`,
      retry,
    );
  }
  if (bytes + cost.bytes > budget.bytesPerDay) {
    const retry = dailyRetry(day, nowMs, bytes, cost.bytes, budget.bytesPerDay, (entry) => entry.bytes);
    throw new SimulationBudgetExceeded(
      `Simulations may send at most ${budget.bytesPerDay} bytes of webhooks a day; ${bytes} were sent in the last 24 hours and this would send ${cost.bytes}.${retry === null ? '' : ` Retry after ${retry} seconds.`}`,
      retry,
    );
  }
  const current = day.at(-1);
  const hours =
    current?.hour === hourNow
      ? [
          ...day.slice(0, -1),
          { hour: hourNow, events: current.events + cost.events, bytes: current.bytes + cost.bytes },
        ]
      : [...day, { hour: hourNow, events: cost.events, bytes: cost.bytes }];
  return { id: SIMULATION_SPENDING_ID, sends: [...lastHour, nowMs], hours };
}

/** The UTF-8 length of a string, without an encoder (the core has no platform APIs). */
export function utf8Length(text: string): number {
  let length = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    length += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return length;
}

/**
 * What the webhook body of one simulated event weighs: its `data` as JSON, plus the envelope
 * (`event_id`, `event_type`, `occurred_at`, `notification_id`), which never exceeds 256 bytes.
 */
export function simulatedEventBytes(payload: unknown): number {
  return utf8Length(JSON.stringify(payload)) + 256;
}
