import { describe, expect, it } from 'vitest';
import type { SimulationSpending } from './repositories.js';
import {
  emptySimulationSpending,
  type SimulationBudget,
  SimulationBudgetExceeded,
  simulatedEventBytes,
  spendSimulationBudget,
  utf8Length,
} from './simulation-budget.js';

const BUDGET: SimulationBudget = {
  runsPerMinute: 3,
  runsPerHour: 5,
  eventsPerRun: 7,
  eventsPerDay: 20,
  bytesPerDay: 10_000,
};
const MINUTE = 60_000;
const HOUR = 3_600_000;
const START = Date.UTC(2026, 10, 28, 12, 0, 0);
const ONE = { events: 1, bytes: 100 };

function refusal(run: () => unknown): SimulationBudgetExceeded {
  try {
    run();
  } catch (error) {
    if (error instanceof SimulationBudgetExceeded) return error;
    throw error;
  }
  throw new Error('the send was not refused');
}

/** Sends `costs` at the given instants, in order, from `spending`. */
function sendAll(
  spending: SimulationSpending,
  sends: readonly [at: number, cost: { events: number; bytes: number }][],
): SimulationSpending {
  return sends.reduce((current, [at, cost]) => spendSimulationBudget(BUDGET, current, at, cost), spending);
}

describe('the simulation budget', () => {
  it('refuses the send after the minute is full, and says when the oldest leaves it', () => {
    const spent = sendAll(emptySimulationSpending(), [
      [START, ONE],
      [START + 10_000, ONE],
      [START + 20_000, ONE],
    ]);
    const refused = refusal(() => spendSimulationBudget(BUDGET, spent, START + 30_000, ONE));
    expect(refused.code).toBe('simulation_budget_exceeded');
    expect(refused.retryAfterSeconds).toBe(30);
    expect(refused.detail).toMatch(/At most 3 simulation runs and replays a minute/);
    // The window slides: once the first send is a minute old, there is room for one more.
    expect(spendSimulationBudget(BUDGET, spent, START + MINUTE + 1, ONE).sends).toHaveLength(4);
  });

  it('counts the hour apart from the minute', () => {
    const spent = sendAll(emptySimulationSpending(), [
      [START, ONE],
      [START + 2 * MINUTE, ONE],
      [START + 4 * MINUTE, ONE],
      [START + 6 * MINUTE, ONE],
      [START + 8 * MINUTE, ONE],
    ]);
    const refused = refusal(() => spendSimulationBudget(BUDGET, spent, START + 10 * MINUTE, ONE));
    expect(refused.detail).toMatch(/an hour/);
    expect(refused.retryAfterSeconds).toBe(50 * 60);
    const later = spendSimulationBudget(BUDGET, spent, START + HOUR + 1, ONE);
    // Sends older than an hour are forgotten: the document never grows past the hour's limit.
    expect(later.sends).toEqual([
      START + 2 * MINUTE,
      START + 4 * MINUTE,
      START + 6 * MINUTE,
      START + 8 * MINUTE,
      START + HOUR + 1,
    ]);
  });

  it('refuses a run of more events than a run may send, with no time that would help', () => {
    const refused = refusal(() =>
      spendSimulationBudget(BUDGET, emptySimulationSpending(), START, { events: 8, bytes: 1 }),
    );
    expect(refused.retryAfterSeconds).toBeNull();
    expect(refused.detail).toMatch(/would send 8 events; a simulation run may send at most 7/);
  });

  it('adds events and bytes up over a rolling day, by the hour', () => {
    let spending = emptySimulationSpending();
    for (let hour = 0; hour < 4; hour += 1) {
      spending = spendSimulationBudget(BUDGET, spending, START + hour * HOUR, { events: 5, bytes: 1_000 });
    }
    expect(spending.hours.map((entry) => entry.events)).toEqual([5, 5, 5, 5]);
    const refused = refusal(() => spendSimulationBudget(BUDGET, spending, START + 5 * HOUR, ONE));
    expect(refused.detail).toMatch(/at most 20 events a day; 20 were sent in the last 24 hours/);
    // The first hour's five events leave the day 24 hours after that hour began.
    expect(refused.retryAfterSeconds).toBe(19 * 3600);
    const nextDay = spendSimulationBudget(BUDGET, spending, START + 24 * HOUR, { events: 5, bytes: 1_000 });
    expect(nextDay.hours.map((entry) => entry.events)).toEqual([5, 5, 5, 5]);
  });

  it('refuses the bytes of the day apart from its events', () => {
    const spent = spendSimulationBudget(BUDGET, emptySimulationSpending(), START, { events: 1, bytes: 9_000 });
    const refused = refusal(() => spendSimulationBudget(BUDGET, spent, START + MINUTE, { events: 1, bytes: 1_001 }));
    expect(refused.detail).toMatch(/at most 10000 bytes of webhooks a day; 9000 were sent/);
    expect(refused.retryAfterSeconds).toBe(24 * 3600 - 60);
    const never = refusal(() => spendSimulationBudget(BUDGET, spent, START + MINUTE, { events: 1, bytes: 10_001 }));
    expect(never.retryAfterSeconds).toBeNull();
    expect(spendSimulationBudget(BUDGET, spent, START + MINUTE, { events: 1, bytes: 1_000 }).hours).toEqual([
      { hour: Math.floor(START / HOUR), events: 2, bytes: 10_000 },
    ]);
  });

  it('leaves the spending unchanged when it refuses', () => {
    const spent = sendAll(emptySimulationSpending(), [
      [START, ONE],
      [START + 1, ONE],
      [START + 2, ONE],
    ]);
    const before = structuredClone(spent);
    refusal(() => spendSimulationBudget(BUDGET, spent, START + 3, ONE));
    expect(spent).toEqual(before);
  });

  it('weighs an event by its payload in UTF-8 plus the envelope', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
    expect(simulatedEventBytes({ name: '€' })).toBe(utf8Length('{"name":"€"}') + 256);
  });
});
