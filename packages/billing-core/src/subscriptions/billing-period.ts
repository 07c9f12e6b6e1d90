/**
 * @module
 * Calendar arithmetic for billing periods, in UTC. Period n ends at anchor + n × cycle,
 * counted from the anchor each time, so a month-end anchor keeps its day where months allow.
 */
import type { Duration } from '../catalogue/entities.js';
import type { BillingPeriod } from './subscription.js';

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `anchor` moved forward by `count` whole cycles. */
export function addCycles(anchor: string, cycle: Duration, count: number): string {
  const start = new Date(anchor);
  const steps = cycle.frequency * count;
  switch (cycle.interval) {
    case 'day':
      return new Date(start.getTime() + steps * DAY_MS).toISOString();
    case 'week':
      return new Date(start.getTime() + steps * 7 * DAY_MS).toISOString();
    case 'month':
    case 'year': {
      const months = cycle.interval === 'month' ? steps : steps * 12;
      const total = start.getUTCMonth() + months;
      const year = start.getUTCFullYear() + Math.floor(total / 12);
      const month = ((total % 12) + 12) % 12;
      const day = Math.min(start.getUTCDate(), daysInMonth(year, month));
      const moved = new Date(start);
      moved.setUTCFullYear(year, month, day);
      return moved.toISOString();
    }
  }
}

/** The billing period `index` periods after the anchor. */
export function periodAt(anchor: string, cycle: Duration, index: number): BillingPeriod {
  return { startsAt: addCycles(anchor, cycle, index), endsAt: addCycles(anchor, cycle, index + 1) };
}
