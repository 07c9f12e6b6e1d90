/**
 * @module
 * Calendar arithmetic on durations, in UTC: an instant moved forward by whole cycles of a
 * duration. A month-end start keeps its day where months allow (31 January + 1 month = 28 or 29 February).
 */
import type { Duration } from './entities.js';

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
