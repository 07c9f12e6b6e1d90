/**
 * @module
 * How a subscription change takes its charge. Payments sit above subscriptions and give the
 * charging (`SubscriptionCharging`); subscriptions decide when it runs: the VAT id of the
 * business a charge names is checked before anything opens (ADR 1437); a charge that must succeed
 * for the change to happen is held before the change commits and captured after (ADR 1426);
 * otherwise the change commits and its charge is taken from the saved method after (ADR 1423).
 */
import type { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { TaxIdPorts } from '../tax/tax-id-checks.js';
import type { SubscriptionSlice } from './repositories.js';
import type { Subscription } from './subscription.js';
import { type RenewalPayment, verifySubscriptionTaxId } from './subscription-billing.js';
import type { SubscriptionUpdateResult } from './update-subscription.js';

/** A change whose immediate charge is held before it commits. */
export interface AuthorisedChange {
  readonly subscriptionId: string;
  /** The change, inside the caller's database transaction, its immediate charge paid as `payment` says. */
  apply(tx: SubscriptionSlice, payment: RenewalPayment): Promise<SubscriptionUpdateResult>;
  /** The refusal a declined charge gives (the sandbox's, for the same call). */
  declined(): BillingError;
}

/** The charging payments give subscriptions, on contexts `C`. */
export interface SubscriptionCharging<C> {
  /**
   * Takes the outstanding subscription charges of the scope (or of one subscription) from their
   * saved methods, outside the database transaction that issued them (live with a provider,
   * ADR 1423): how many it charged.
   */
  chargeOutstanding(context: C, subscriptionId?: string): Promise<number>;
  /** Holds `change`'s charge, applies the change, captures (ADR 1426); undefined when the provider cannot hold. */
  changeWithAuthorisedCharge(context: C, change: AuthorisedChange): Promise<Subscription | undefined>;
  /** Takes the payment recovery steps due on the context's clock, sandbox retries settled as `sandbox` says (ADR 1460). */
  runDueRecoveries(context: C, sandbox: 'success' | 'failure'): Promise<number>;
}

type SubscriptionContext = Context<SubscriptionSlice> & TaxIdPorts;

/**
 * Checks the VAT id of the business a subscription use case `(context, id, input?)` will charge
 * (the input's `businessId`, else the subscription's) with VIES, before it opens its database
 * transaction (ADR 1437).
 */
async function verifyTaxIdOfChange(context: SubscriptionContext, args: readonly unknown[]): Promise<void> {
  const [id, input] = args;
  if (typeof id !== 'string') return;
  const named = (input as { businessId?: string | null } | undefined)?.businessId;
  await verifySubscriptionTaxId(context, id, named);
}

/** The wrappers that give subscription use cases their VAT check and their charge, over `charging`. */
export function chargingOf<C extends SubscriptionContext>(charging: SubscriptionCharging<C>) {
  /** Runs a subscription use case, then takes its charge from the saved method after it commits (ADR 1423). */
  async function runThenCharge<Args extends unknown[]>(
    context: C,
    useCase: (context: C, ...args: Args) => Promise<Subscription>,
    args: Args,
  ): Promise<Subscription> {
    const subscription = await useCase(context, ...args);
    const charged = await charging.chargeOutstanding(context, subscription.id);
    return charged > 0
      ? ((await context.store.subscriptions.findById(context.scope, subscription.id)) ?? subscription)
      : subscription;
  }

  return {
    /** A subscription use case whose VAT id is checked first (a preview). */
    verifyingTaxId<Args extends unknown[], Result>(useCase: (context: C, ...args: Args) => Promise<Result>) {
      return async (context: C, ...args: Args): Promise<Result> => {
        await verifyTaxIdOfChange(context, args);
        return useCase(context, ...args);
      };
    },
    /** A subscription use case whose charge is taken after it commits, its VAT id checked first. */
    thenCharged<Args extends unknown[]>(useCase: (context: C, ...args: Args) => Promise<Subscription>) {
      return async (context: C, ...args: Args): Promise<Subscription> => {
        await verifyTaxIdOfChange(context, args);
        return runThenCharge(context, useCase, args);
      };
    },
    /**
     * A subscription use case whose immediate charge must succeed for it to happen
     * (`prevent_change`, activation): held before the change commits and captured after where
     * the provider can (ADR 1426), else as `thenCharged`. The VAT id is checked once, first.
     */
    authorisedOrThenCharged<Id extends string, Rest extends unknown[]>(
      useCase: (context: C, id: Id, ...rest: Rest) => Promise<Subscription>,
      plan: (context: C, id: Id, ...rest: Rest) => AuthorisedChange | undefined,
    ) {
      return async (context: C, id: Id, ...rest: Rest): Promise<Subscription> => {
        await verifyTaxIdOfChange(context, [id, ...rest]);
        const change = plan(context, id, ...rest);
        const done = change ? await charging.changeWithAuthorisedCharge(context, change) : undefined;
        return done ?? runThenCharge(context, useCase, [id, ...rest]);
      };
    },
  };
}
