/**
 * @module
 * The delivery side of simulation runs, for the service's worker: claim a due run with a
 * lease, record each event's signed request and the answer, and close the run once nothing of
 * it is pending. A process that dies mid-run leaves the lease to run out; the run is then
 * claimed again and its still-pending events sent.
 */

import type { NotificationSetting } from '../notifications/entities.js';
import type { Clock } from '../shared/clock.js';
import { toTimestamp } from '../shared/clock.js';
import type { StoreOf } from '../shared/context.js';
import type { Scope } from '../shared/scope.js';
import type { SimulationSlice } from './repositories.js';
import type { SimulationRun, SimulationRunEvent } from './simulation.js';

export interface SimulationDeliveryDependencies {
  readonly store: StoreOf<SimulationSlice>;
  /** The wall clock: leases are real time, whatever an account's sandbox clock says. */
  readonly wallClock: Clock;
}

export interface ClaimedSimulationRun {
  readonly scope: Scope;
  readonly run: SimulationRun;
  /** The lease this claim wrote; finishing checks it is still the run's. */
  readonly lease: string;
  /** Null when the destination was deleted since the run started. */
  readonly setting: NotificationSetting | null;
  readonly pending: readonly SimulationRunEvent[];
}

/** Claims up to `limit` due runs for `leaseMs`, with their destination and pending events. */
export async function claimDueSimulationRuns(
  dependencies: SimulationDeliveryDependencies,
  options: { readonly limit: number; readonly leaseMs: number },
): Promise<ClaimedSimulationRun[]> {
  const nowMs = dependencies.wallClock.now();
  const now = toTimestamp(nowMs);
  if (!(await dependencies.store.simulationRuns.hasDue(now))) return [];
  const lease = toTimestamp(nowMs + options.leaseMs);
  return dependencies.store.transaction(async (tx) => {
    const claimed: ClaimedSimulationRun[] = [];
    for (const { scope, run } of await tx.simulationRuns.claimDue(now, options.limit)) {
      await tx.simulationRuns.update(scope, { ...run, dueAt: lease });
      const simulation = await tx.simulations.findById(scope, run.simulationId);
      const setting = simulation
        ? ((await tx.notificationSettings.findById(scope, simulation.notificationSettingId)) ?? null)
        : null;
      const events = await tx.simulationRunEvents.listByRun(scope, run.id);
      claimed.push({
        scope,
        run: { ...run, dueAt: lease },
        lease,
        setting,
        pending: events.filter((event) => event.status === 'pending'),
      });
    }
    return claimed;
  });
}

/** What one simulated delivery came to: an HTTP answer, or no answer (with the reason). */
export type SimulatedDeliveryOutcome =
  | { readonly kind: 'response'; readonly statusCode: number; readonly body: string }
  | { readonly kind: 'failure'; readonly reason: string; readonly refused?: true | undefined };

/**
 * Records one delivery. A 2xx answer is `success`, anything else `failed`; with no answer at
 * all, the response holds status code 0 and the reason (as notification logs do, ADR 0504). A
 * destination the service refused to reach (ADR 1485) makes the event `aborted`: no delivery
 * was attempted. Nothing is written if the event was replayed meanwhile (its notification id
 * changed).
 */
export async function recordSimulatedDelivery(
  dependencies: SimulationDeliveryDependencies,
  scope: Scope,
  event: SimulationRunEvent,
  requestBody: string,
  outcome: SimulatedDeliveryOutcome,
): Promise<void> {
  const at = toTimestamp(dependencies.wallClock.now());
  await dependencies.store.transaction(async (tx) => {
    const current = await tx.simulationRunEvents.findByIdForUpdate(scope, event.id);
    if (!current || current.notificationId !== event.notificationId || current.status !== 'pending') return;
    const delivered = outcome.kind === 'response' && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const refused = outcome.kind === 'failure' && outcome.refused === true;
    await tx.simulationRunEvents.update(scope, {
      ...current,
      status: delivered ? 'success' : refused ? 'aborted' : 'failed',
      request: { body: requestBody },
      response:
        outcome.kind === 'response'
          ? { body: outcome.body, statusCode: outcome.statusCode }
          : { body: outcome.reason, statusCode: 0 },
      updatedAt: at,
    });
  });
}

/**
 * Ends a claimed run: `completed` with nothing left due, unless a replay made it due again
 * (its lease is no longer the claim's), in which case the next claim sends the replay. When
 * the destination is gone, pending events become `aborted` and the run `canceled`.
 */
export async function finishSimulationRun(
  dependencies: SimulationDeliveryDependencies,
  claim: ClaimedSimulationRun,
): Promise<void> {
  const at = toTimestamp(dependencies.wallClock.now());
  await dependencies.store.transaction(async (tx) => {
    const run = await tx.simulationRuns.findByIdForUpdate(claim.scope, claim.run.id);
    if (!run || run.dueAt !== claim.lease) return;
    if (claim.setting === null) {
      for (const event of await tx.simulationRunEvents.listByRun(claim.scope, run.id)) {
        if (event.status === 'pending') {
          await tx.simulationRunEvents.update(claim.scope, { ...event, status: 'aborted', updatedAt: at });
        }
      }
    }
    const status = claim.setting === null && run.status === 'pending' ? 'canceled' : 'completed';
    await tx.simulationRuns.update(claim.scope, {
      ...run,
      status: run.status === 'pending' ? status : run.status,
      dueAt: null,
      updatedAt: at,
    });
  });
}
