/**
 * @module
 * Calendar arithmetic for billing periods, in UTC. Period n ends at anchor + n × cycle,
 * counted from the anchor each time, so a month-end anchor keeps its day where months allow.
 */
import { addCycles } from '../catalogue/durations.js';
import type { Duration } from '../catalogue/entities.js';
import type { BillingPeriod } from './subscription.js';

export { addCycles };

/** The billing period `index` periods after the anchor. */
export function periodAt(anchor: string, cycle: Duration, index: number): BillingPeriod {
  return { startsAt: addCycles(anchor, cycle, index), endsAt: addCycles(anchor, cycle, index + 1) };
}
