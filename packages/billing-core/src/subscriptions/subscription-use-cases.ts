/**
 * @module
 * The use cases of subscriptions, bound once: reading, changing (with their charges, given by
 * payments: `subscription-charging.ts`), pausing, resuming and canceling subscriptions, the
 * sandbox's clock and simulated card, and renewals as due work.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { Caller, DueWorkKind, UseCaseBase } from '../shared/use-case-base.js';
import type { TaxIdPorts, TaxIdVerification } from '../tax/tax-id-checks.js';
import { activateSubscription, applyActivation, declinedActivation } from './activate-subscription.js';
import {
  applyOneTimeCharge,
  createOneTimeCharge,
  declinedOneTimeCharge,
  type OneTimeChargeInput,
  previewOneTimeCharge,
} from './one-time-charges.js';
import { cancelSubscription, pauseSubscription, resumeSubscription } from './pause-resume-cancel.js';
import { runDueSubscriptions } from './process-due.js';
import { getSubscription, listSubscriptions } from './read-subscriptions.js';
import type { SubscriptionSlice } from './repositories.js';
import { advanceSandboxClock, readSandboxClock, type SandboxClockDependencies } from './sandbox-clock.js';
import type { SandboxJumpQuotas } from './sandbox-jump-quotas.js';
import { defaultRenewalPayment, readSandboxPaymentOutcome, setSandboxPaymentOutcome } from './subscription-billing.js';
import { chargingOf, type SubscriptionCharging } from './subscription-charging.js';
import {
  applySubscriptionUpdate,
  declinedUpdate,
  getSubscriptionWithIncludes,
  previewSubscriptionUpdate,
  type UpdateSubscriptionInput,
  updateSubscription,
} from './update-subscription.js';

/** What subscriptions need from the outside world. */
export interface SubscriptionPorts {
  /** Waits a while (the core has no timers of its own). */
  pause(milliseconds: number): Promise<void>;
  /** Lets the rest of the process run between slices of long work, such as a sandbox jump (ADR 0900). */
  yieldToOthers(): Promise<void>;
  /** VAT ids checked with VIES before renewals reverse charge (ADR 1437); absent, the format check alone decides. */
  readonly taxIdVerification: TaxIdVerification | undefined;
  /** What sandbox jumps may run, per jump and per account a day (ADR 1487). */
  readonly sandboxJumpQuotas: SandboxJumpQuotas;
  /** Due steps (renewals, scheduled changes) run in one database transaction (ADR 1488). */
  readonly dueStepsPerTransaction: number;
}

type SubscriptionContext = Context<SubscriptionSlice> & TaxIdPorts;

export function subscriptionUseCases<C extends SubscriptionContext>(
  base: UseCaseBase<C>,
  payments: SubscriptionCharging<C>,
  ports: SubscriptionPorts,
) {
  const { bind, store } = base;
  const { verifyingTaxId, thenCharged, authorisedOrThenCharged } = chargingOf(payments);

  function sandboxClockOf(caller: Caller): SandboxClockDependencies {
    if (caller.scope.environment !== 'sandbox') {
      throw new BillingError('not_found', 'The sandbox clock exists only in the sandbox environment.');
    }
    const scope = caller.scope;
    return {
      store,
      ids: base.ids,
      wallClock: base.wallClock,
      account: caller.account,
      pause: ports.pause,
      yieldToOthers: ports.yieldToOthers,
      taxIds: ports.taxIdVerification,
      recoveries: {
        nextDueAt: async (until) => (await store.recoveryRuns.findDue(scope, until, 1))[0]?.nextRetryAt ?? undefined,
        run: (clock, outcome) => payments.runDueRecoveries(base.contextOn(caller, clock), outcome),
      },
      quotas: ports.sandboxJumpQuotas,
      stepsPerTransaction: ports.dueStepsPerTransaction,
    };
  }

  return {
    getSubscription: bind(getSubscription),
    listSubscriptions: bind(listSubscriptions),
    getSubscriptionWithIncludes: bind(getSubscriptionWithIncludes),
    updateSubscription: bind(
      authorisedOrThenCharged(updateSubscription, (context, id, input: UpdateSubscriptionInput) =>
        (input.onPaymentFailure ?? 'prevent_change') === 'prevent_change'
          ? {
              subscriptionId: id,
              apply: (tx, payment) => applySubscriptionUpdate(context, tx, id, input, payment),
              declined: () => declinedUpdate(id),
            }
          : undefined,
      ),
    ),
    previewSubscriptionUpdate: bind(verifyingTaxId(previewSubscriptionUpdate)),
    activateSubscription: bind(
      authorisedOrThenCharged(activateSubscription, (context, id) => ({
        subscriptionId: id,
        apply: (tx, payment) => applyActivation(context, tx, id, payment),
        declined: () => declinedActivation(id),
      })),
    ),
    createOneTimeCharge: bind(
      authorisedOrThenCharged(createOneTimeCharge, (context, id, input: OneTimeChargeInput) =>
        input.effectiveFrom === 'immediately' && (input.onPaymentFailure ?? 'prevent_change') === 'prevent_change'
          ? {
              subscriptionId: id,
              apply: (tx, payment) => applyOneTimeCharge(context, tx, id, input, payment),
              declined: () => declinedOneTimeCharge(id),
            }
          : undefined,
      ),
    ),
    previewOneTimeCharge: bind(verifyingTaxId(previewOneTimeCharge)),
    pauseSubscription: bind(pauseSubscription),
    resumeSubscription: bind(thenCharged(resumeSubscription)),
    cancelSubscription: bind(cancelSubscription),
    readSandboxPaymentOutcome: bind(readSandboxPaymentOutcome),
    setSandboxPaymentOutcome: bind(setSandboxPaymentOutcome),
    readSandboxClock: (caller: Caller) => readSandboxClock(sandboxClockOf(caller)),
    advanceSandboxClock: (
      caller: Caller,
      ...args: Parameters<typeof advanceSandboxClock> extends [unknown, ...infer Rest] ? Rest : never
    ) => advanceSandboxClock(sandboxClockOf(caller), ...args),
  };
}

/** Renewals and scheduled changes as due work; live renewals are then charged through the provider (ADR 1423). */
export function renewalWork<C extends SubscriptionContext>(
  store: Pick<SubscriptionSlice, 'subscriptions'>,
  payments: SubscriptionCharging<C>,
  ports: Pick<SubscriptionPorts, 'yieldToOthers' | 'dueStepsPerTransaction'>,
): DueWorkKind<C> {
  return {
    findDueAccounts: (environment, until) => store.subscriptions.findDueAccounts(environment, until),
    async run(context) {
      const renewed = await runDueSubscriptions(
        context,
        1_000,
        defaultRenewalPayment(context.scope),
        ports.yieldToOthers,
        ports.dueStepsPerTransaction,
      );
      await payments.chargeOutstanding(context);
      return renewed;
    },
  };
}
