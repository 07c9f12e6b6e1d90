/**
 * @module
 * Live subscription changes whose immediate charge must succeed for the change to happen
 * (`on_payment_failure: prevent_change`, and activation), with a provider that can authorise
 * now and capture later (ADR 1426). The money is held before the change commits and taken
 * after, so money is never taken for a change that did not commit, and a change never commits
 * without its money held:
 *
 * 1. What the change would charge now is computed by the change's own code in a database
 *    transaction that is rolled back. Nothing to charge automatically: today's path.
 * 2. An attempt (`captureMethod: manual`) is stored in its own short database transaction, for
 *    the id the change's transaction will get; it is the provider's idempotency key.
 * 3. The provider authorises the amount off-session on the saved method, outside any database
 *    transaction (ADR 1410); an answer that is lost is asked again with the same key.
 *    Declined: the attempt is marked declined and nothing else is written.
 * 4. Authorised: one database transaction re-runs the change under its locks with the attempt
 *    locked too; it must issue the same charge (same transaction id, same amount), or the hold
 *    is released and the call refused (`subscription_payment_amount_changed`).
 * 5. After the commit the hold is captured (idempotent). A capture that fails is a declined
 *    payment after the fact, handled as `apply_change` handles one: past due, written down.
 *
 * Whatever the provider did not answer stays in flight, and `recoverPaymentAttempts` (run by
 * the scheduler) settles it later with the same keys: an uncommitted change's hold is released,
 * a committed one's captured, and an attempt whose provider reference was never stored (a crash
 * between the provider's call and the write) is found again through its idempotency key.
 */

import { BillingError, StandingFailure } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { Subscription } from '../subscriptions/subscription.js';
import type { AuthorisedChange } from '../subscriptions/subscription-charging.js';
import type { SubscriptionUpdateResult } from '../subscriptions/update-subscription.js';
import { WAITING_PAYMENT_EXPIRES_MS } from '../transactions/payment-in-flight.js';
import type { Transaction } from '../transactions/transaction.js';
import { applyCancellation, applyOutcome, browserRequest, failAttempt } from './checkout.js';
import type { OffSessionPorts } from './off-session-charges.js';
import { IN_FLIGHT, type PaymentAttempt } from './payment-attempt.js';
import type {
  AuthorisationOutcome,
  AuthorisingProvider,
  OffSessionChargeRequest,
  PaymentOutcome,
  PaymentProvider,
} from './payment-provider.js';
import type { PaymentSlice } from './repositories.js';

/** How long an attempt in flight is left to the request that made it before the recovery step settles it. */
export const RECOVERY_GRACE_MS = 10 * 60_000;

/** Carries a dry run's result out of the database transaction it rolls back. */
class DryRun extends Error {
  constructor(readonly result: SubscriptionUpdateResult) {
    super('dry run rollback');
  }
}

async function dryRun(context: Context<PaymentSlice>, change: AuthorisedChange): Promise<SubscriptionUpdateResult> {
  try {
    await context.store.transaction(async (tx) => {
      throw new DryRun(await change.apply(tx, 'await_report'));
    });
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
  throw new Error('A dry run committed');
}

/**
 * Asks the provider once; undefined when the answer was lost. Re-sending under the same key is
 * the provider client's own retry policy (`--stripe-network-retries`, ADR 1426): asking again
 * here as well multiplied it (three asks of three requests each) while the caller waited.
 */
async function ask<T>(call: () => Promise<T>, report: (error: unknown) => void): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    // A refusal of the request itself (an unusable method) is an answer, not a lost one.
    if (error instanceof BillingError) throw error;
    report(error);
    return undefined;
  }
}

const unconfirmed = (id: string) =>
  new BillingError(
    'subscription_payment_unconfirmed',
    `The payment provider did not answer about the immediate charge of this change to subscription ${id}; nothing changed, and any hold on the card will be released. Retry.`,
  );

/**
 * Applies `change` with its immediate charge authorised first (live, a provider that can
 * authorise, the subscription's saved method of that provider). Answers undefined when none of
 * that holds or the change charges nothing now: the caller then takes today's path.
 * @throws the change's own refusals; `change.declined()` on a decline;
 *   `subscription_payment_amount_changed`; `subscription_payment_unconfirmed`.
 */
export async function changeWithAuthorisedCharge(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  change: AuthorisedChange,
): Promise<Subscription | undefined> {
  if (context.scope.environment !== 'live') return undefined;
  const provider = await ports.providers.providerFor(context.scope);
  const authorising = provider?.authorisation;
  if (!provider || !authorising) return undefined;
  const planned = (await dryRun(context, change)).immediateTransaction;
  if (!planned || planned.status !== 'ready' || planned.collectionMode !== 'automatic') return undefined;
  const amount = planned.details.totals.balance;
  if (BigInt(amount) <= 0n || planned.customerId === null) return undefined;
  const party = await chargeParty(context, provider, change.subscriptionId, planned.customerId);
  if (!party) return undefined;

  const now = nowTimestamp(context);
  const attempt: PaymentAttempt = {
    id: context.ids.newId('payatt'),
    transactionId: context.ids.newId('txn'),
    kind: 'off_session',
    provider: provider.name,
    providerPaymentRef: null,
    status: 'processing',
    submissionKey: null,
    amount,
    currencyCode: planned.currencyCode,
    saveMethod: false,
    actionUrl: null,
    errorCode: null,
    paymentMethodId: party.paymentMethodId,
    captureMethod: 'manual',
    createdAt: now,
    updatedAt: now,
  };
  await context.store.transaction((tx) => tx.paymentAttempts.insert(context.scope, attempt));
  const request = authorisationRequest(context, attempt, party);
  const report = (error: unknown) =>
    ports.reportError(`authorising transaction ${attempt.transactionId} off-session`, error);
  let held: AuthorisationOutcome | undefined;
  try {
    held = await ask(() => authorising.authorise(request), report);
  } catch (error) {
    // The provider refused the request itself (an unusable method): nothing was held.
    await closeAttempt(context, attempt.id, { status: 'failed', providerPaymentRef: null, errorCode: null });
    throw error;
  }
  if (held === undefined || held.status === 'pending') throw unconfirmed(change.subscriptionId);
  if (held.status === 'declined' || held.status === 'voided') {
    await closeAttempt(context, attempt.id, {
      status: 'declined',
      providerPaymentRef: held.providerPaymentRef,
      errorCode: held.status === 'declined' ? held.errorCode : 'canceled',
    });
    throw change.declined();
  }

  let result: SubscriptionUpdateResult;
  try {
    result = await context.store.transaction(async (tx) => {
      const locked = await tx.paymentAttempts.findByIdForUpdate(context.scope, attempt.id);
      if (!locked || locked.status !== 'processing' || locked.abandoned) {
        // The recovery step gave this hold up (the request took longer than its grace): nothing commits.
        throw unconfirmed(change.subscriptionId);
      }
      const applied = await change.apply(tx, { authorised: { transactionId: attempt.transactionId } });
      const issued = applied.immediateTransaction;
      if (!issued || issued.id !== attempt.transactionId || !sameCharge(issued, attempt)) {
        throw new BillingError(
          'subscription_payment_amount_changed',
          `The immediate charge of this change to subscription ${change.subscriptionId} is no longer the ${attempt.amount} authorised (another change landed first); the hold was released and nothing changed. Retry.`,
        );
      }
      await tx.paymentAttempts.update(context.scope, {
        ...locked,
        providerPaymentRef: held.providerPaymentRef,
        updatedAt: nowTimestamp(context),
      });
      return applied;
    });
  } catch (error) {
    await releaseUncommitted(context, ports, authorising, attempt.id, held.providerPaymentRef);
    throw error;
  }
  await captureCommitted(context, ports, authorising, attempt.id, held.providerPaymentRef);
  return (await context.store.subscriptions.findById(context.scope, change.subscriptionId)) ?? result.subscription;
}

function sameCharge(issued: Transaction, attempt: PaymentAttempt): boolean {
  return (
    issued.status === 'ready' &&
    issued.collectionMode === 'automatic' &&
    issued.currencyCode === attempt.currencyCode &&
    issued.details.totals.balance === attempt.amount
  );
}

interface ChargeParty {
  readonly customerId: string;
  readonly customerEmail: string;
  readonly paymentMethodId: string;
  readonly providerMethodRef: string;
}

/** Who is charged, with which saved method of `provider`; undefined when the subscription has none. */
async function chargeParty(
  context: Context<PaymentSlice>,
  provider: PaymentProvider,
  subscriptionId: string,
  customerId: string,
): Promise<ChargeParty | undefined> {
  const subscription = await context.store.subscriptions.findById(context.scope, subscriptionId);
  const methodId = subscription?.internal.paymentMethodId ?? null;
  const method = methodId === null ? undefined : await context.store.paymentMethods.findById(context.scope, methodId);
  if (!method || method.internal.status !== 'saved' || method.internal.provider !== provider.name) return undefined;
  const customer = await context.store.customers.findById(context.scope, customerId);
  if (!customer) return undefined;
  return {
    customerId: customer.id,
    customerEmail: customer.email,
    paymentMethodId: method.id,
    providerMethodRef: method.internal.providerMethodRef,
  };
}

function authorisationRequest(
  context: Context<PaymentSlice>,
  attempt: PaymentAttempt,
  party: ChargeParty,
): OffSessionChargeRequest {
  return {
    scope: context.scope,
    customerId: party.customerId,
    customerEmail: party.customerEmail,
    transactionId: attempt.transactionId,
    attemptId: attempt.id,
    amount: attempt.amount,
    currencyCode: attempt.currencyCode,
    providerMethodRef: party.providerMethodRef,
  };
}

/** Ends an attempt that never reached a transaction (declined, or released): nothing else is written. */
async function closeAttempt(
  context: Context<PaymentSlice>,
  attemptId: string,
  end: {
    readonly status: 'declined' | 'failed';
    readonly providerPaymentRef: string | null;
    readonly errorCode: PaymentAttempt['errorCode'];
  },
): Promise<void> {
  await context.store.transaction(async (tx) => {
    const attempt = await tx.paymentAttempts.findByIdForUpdate(context.scope, attemptId);
    if (!attempt || !IN_FLIGHT.includes(attempt.status)) return;
    await tx.paymentAttempts.update(context.scope, {
      ...attempt,
      status: end.status,
      providerPaymentRef: end.providerPaymentRef ?? attempt.providerPaymentRef,
      errorCode: end.errorCode,
      updatedAt: nowTimestamp(context),
    });
  });
}

/**
 * The change did not commit: its hold is released, then its attempt closed. A release whose
 * answer is lost leaves the attempt in flight, marked abandoned, for the recovery step.
 */
async function releaseUncommitted(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  authorising: AuthorisingProvider,
  attemptId: string,
  providerPaymentRef: string,
): Promise<void> {
  // A commit whose answer was lost may still have happened: then the hold is captured, never released.
  if ((await abandon(context, attemptId)) !== 'uncommitted') return;
  const released = await ask(
    () => authorising.release(context.scope, providerPaymentRef),
    (error) => ports.reportError(`releasing the hold of attempt ${attemptId}`, error),
  );
  if (released === undefined || released.status === 'pending' || released.status === 'authorised') return;
  if (released.status === 'captured') {
    // Never expected: only a committed change is captured. Left in flight, and reported.
    ports.reportError(
      `attempt ${attemptId}`,
      new Error(`${providerPaymentRef} was captured for a change that never committed`),
    );
    return;
  }
  await closeAttempt(context, attemptId, { status: 'failed', providerPaymentRef, errorCode: 'canceled' });
}

/**
 * Marks an uncommitted attempt abandoned, so no change may commit with it any more, and says
 * where it stands: `uncommitted` (now abandoned), `committed` (its transaction exists), or
 * `ended` (no longer in flight: someone else settled it).
 */
async function abandon(
  context: Context<PaymentSlice>,
  attemptId: string,
): Promise<'uncommitted' | 'committed' | 'ended'> {
  return context.store.transaction(async (tx) => {
    const attempt = await tx.paymentAttempts.findByIdForUpdate(context.scope, attemptId);
    if (!attempt || !IN_FLIGHT.includes(attempt.status)) return 'ended';
    // Read after the attempt's lock: a commit holding it has finished, and its transaction shows.
    if (await tx.transactions.findById(context.scope, attempt.transactionId)) return 'committed';
    if (!attempt.abandoned) {
      await tx.paymentAttempts.update(context.scope, { ...attempt, abandoned: true, updatedAt: nowTimestamp(context) });
    }
    return 'uncommitted';
  });
}

/**
 * The change committed: its hold is captured and the payment applied (the transaction
 * completes). A capture the provider refuses is a decline after the commit: the transaction and
 * the subscription go past due, as with `apply_change`. A lost answer stays for recovery.
 */
async function captureCommitted(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  authorising: AuthorisingProvider,
  attemptId: string,
  providerPaymentRef: string,
): Promise<void> {
  const captured = await ask(
    () => authorising.capture(context.scope, providerPaymentRef, attemptId),
    (error) => ports.reportError(`capturing the hold of attempt ${attemptId}`, error),
  );
  if (captured === undefined || captured.status === 'pending' || captured.status === 'authorised') return;
  await context.store.transaction((tx) => applyOutcome(context, tx, attemptId, outcomeOf(captured), ports.hooks));
}

function outcomeOf(
  settled: Exclude<AuthorisationOutcome, { status: 'pending' } | { status: 'authorised' }>,
): PaymentOutcome {
  switch (settled.status) {
    case 'captured':
      return { status: 'succeeded', providerPaymentRef: settled.providerPaymentRef, method: settled.method };
    case 'declined':
      return {
        status: 'declined',
        providerPaymentRef: settled.providerPaymentRef ?? '',
        errorCode: settled.errorCode,
        method: settled.method,
      };
    case 'voided':
      return {
        status: 'declined',
        providerPaymentRef: settled.providerPaymentRef,
        errorCode: 'canceled',
        method: null,
      };
  }
}

/** What one run of the recovery step did. */
export interface RecoveryReport {
  /** Attempts settled: captured, released, applied or closed. */
  readonly settled: number;
  /** Attempts still in flight after it (the provider did not answer, or they are within their grace). */
  readonly waiting: number;
}

/**
 * The recovery step (run by the scheduler's `payment_recovery` work, ADR 1426): every live
 * attempt of the scope in flight for longer than `graceMs` is settled with its provider, asked
 * with the attempt's own idempotency key so nothing is charged twice:
 * - an authorisation whose change never committed is abandoned (no commit can use it any more)
 *   and released; one whose change committed is captured and the payment applied;
 * - an off-session charge whose provider reference was never stored is asked again (the
 *   provider answers the first outcome) and the outcome applied;
 * - a checkout payment whose reference was never stored never reached a browser: it is found
 *   through its key, released, and the attempt ends, so the checkout takes a new one.
 */
export async function recoverPaymentAttempts(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
): Promise<RecoveryReport> {
  const refunds = await refundUnapplied(context, ports);
  const page = await context.store.paymentAttempts.list(context.scope, {
    filter: { status: [{ op: 'in', values: IN_FLIGHT }] },
    ...RECOVERY_PAGE,
  });
  const attempts = await settleStale(context, ports, page.items, {
    cutoff: context.clock.now() - RECOVERY_GRACE_MS,
    what: (attempt) => `payment attempt ${attempt.id}`,
    // One attempt the provider refuses outright never holds up the others: reported, left for a person.
    doing: (attempt) => `recovering payment attempt ${attempt.id}`,
    settle: (attempt, provider) => recoverAttempt(context, ports, provider, attempt),
  });
  return { settled: attempts.settled + refunds.settled, waiting: attempts.waiting + refunds.waiting };
}

/**
 * Money taken that its transaction could not take (`refunding`, ADR 1468) is refunded through the
 * provider, keyed by the attempt's id, so asking again never refunds twice: found among the
 * payment's refunds first, else asked for. The sandbox moves no money: its captures end `refunded`
 * at once. A refund the provider refuses is reported and left for a person (the attempt stays
 * `refunding`, and the recovery step asks again each run).
 */
async function refundUnapplied(context: Context<PaymentSlice>, ports: OffSessionPorts): Promise<RecoveryReport> {
  const page = await context.store.paymentAttempts.list(context.scope, {
    filter: { status: [{ op: 'eq', value: 'refunding' }] },
    ...RECOVERY_PAGE,
  });
  return settleStale(context, ports, page.items, {
    cutoff: Number.POSITIVE_INFINITY,
    what: (attempt) => `the refund of payment attempt ${attempt.id}`,
    doing: (attempt) => `refunding payment attempt ${attempt.id}`,
    settle: async (attempt, provider) => {
      const reference = attempt.providerPaymentRef ?? '';
      let refundRef: string | null = null;
      if (provider.refunds) {
        const request = {
          scope: context.scope,
          adjustmentId: attempt.id,
          transactionId: attempt.transactionId,
          providerPaymentRef: reference,
          amount: attempt.amount,
          currencyCode: attempt.currencyCode,
        };
        const outcome =
          (await provider.refunds.findRefund(context.scope, reference, attempt.id)) ??
          (await provider.refunds.refund(request));
        if (outcome.status === 'failed') {
          throw new Error(`${provider.name} refused the refund of ${reference}: ${outcome.reason}`);
        }
        if (outcome.status === 'pending') return false;
        refundRef = outcome.refundRef;
      }
      return context.store.transaction(async (tx) => {
        const locked = await tx.paymentAttempts.findByIdForUpdate(context.scope, attempt.id);
        if (locked?.status !== 'refunding') return false;
        await tx.paymentAttempts.update(context.scope, {
          ...locked,
          status: 'refunded',
          refundRef,
          updatedAt: nowTimestamp(context),
        });
        return true;
      });
    },
  });
}

/**
 * Why a record in flight cannot be settled: its provider's settings were removed (`payment-provider
 * remove --force`, ADR 1465): a standing failure, reported (once an hour) until the settings are
 * set again; the record waits, since only the provider knows
 * whether it charged or refunded.
 */
export function providerGone(provider: string, what: string): StandingFailure {
  return new StandingFailure(
    `${what} waits for ${provider}, which is no longer this account's payment provider; its outcome is unknown until the settings are set again (drawdown accounts payment-provider set)`,
  );
}

/** A record a recovery step settles: in flight with its provider since `updatedAt`. */
interface InFlightRecord {
  readonly id: string;
  readonly provider: string;
  readonly updatedAt: string;
}

/** What one run of a recovery step reads: the first 100 records in flight, oldest first. */
export const RECOVERY_PAGE = { direction: 'asc', perPage: 100, countTotal: false } as const;

/** One recovery step: which records are due, how each is named in a report, and how one is settled. */
export interface StaleStep<Item extends InFlightRecord> {
  /** Records last changed at or before this instant (ms) are settled; later ones wait for their request. */
  readonly cutoff: number;
  /** The record, for a standing failure: `payment attempt att_…`. */
  readonly what: (item: Item) => string;
  /** What the step was doing, for a reported failure: `recovering payment attempt att_…`. */
  readonly doing: (item: Item) => string;
  /** Settles one record with its provider; false when it still waits. */
  readonly settle: (item: Item, provider: PaymentProvider) => Promise<boolean>;
}

/**
 * The preamble and loop every recovery step shares (payment attempts and their refunds here,
 * provider refunds in `provider-refunds.ts`): each record in flight since before the cutoff is
 * settled on its own with its provider; a provider whose settings were removed is a standing
 * failure; one the provider fails on is reported and left waiting, never holding up the others.
 */
export async function settleStale<Item extends InFlightRecord>(
  context: Context<PaymentSlice>,
  ports: Pick<OffSessionPorts, 'providers' | 'reportError'>,
  items: readonly Item[],
  step: StaleStep<Item>,
): Promise<RecoveryReport> {
  let settled = 0;
  let waiting = 0;
  for (const item of items) {
    let done = false;
    if (Date.parse(item.updatedAt) <= step.cutoff) {
      try {
        const provider = await ports.providers.providerNamed(context.scope, item.provider);
        if (!provider) throw providerGone(item.provider, step.what(item));
        done = await step.settle(item, provider);
      } catch (error) {
        ports.reportError(step.doing(item), error);
      }
    }
    if (done) settled += 1;
    else waiting += 1;
  }
  return { settled, waiting };
}

async function recoverAttempt(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  provider: PaymentProvider,
  attempt: PaymentAttempt,
): Promise<boolean> {
  const report = (error: unknown) => ports.reportError(`recovering payment attempt ${attempt.id}`, error);
  if (attempt.captureMethod === 'manual') {
    const authorising = provider.authorisation;
    if (!authorising) return false;
    const state = await abandon(context, attempt.id);
    if (state === 'ended') return true;
    let reference = attempt.providerPaymentRef;
    if (reference === null) {
      // Stored only with the commit: a committed change always has it.
      if (state === 'committed') return false;
      // The hold's reference was never stored: found by the attempt it names, or else the same
      // key finds it (or makes it, to release it).
      reference = (await findAttemptPayment(context, provider, attempt, report)) ?? null;
    }
    if (reference === null) {
      const party = await recoveryParty(context, provider, attempt);
      if (!party) return false;
      const found = await ask(() => authorising.authorise(authorisationRequest(context, attempt, party)), report);
      if (found === undefined || found.status === 'pending') return false;
      if (found.status === 'declined') {
        await closeAttempt(context, attempt.id, {
          status: 'declined',
          providerPaymentRef: found.providerPaymentRef,
          errorCode: found.errorCode,
        });
        return true;
      }
      reference = found.providerPaymentRef;
    }
    if (state === 'uncommitted') {
      await releaseUncommitted(context, ports, authorising, attempt.id, reference);
    } else {
      await captureCommitted(context, ports, authorising, attempt.id, reference);
    }
    const after = await context.store.paymentAttempts.findById(context.scope, attempt.id);
    return after !== undefined && !IN_FLIGHT.includes(after.status);
  }
  if (attempt.providerPaymentRef !== null) {
    // Off-session, the provider's webhook settles it. A customer-present payment waits for its
    // customer (a challenge, a browser's confirmation) for a documented time, then is canceled at
    // the provider and the answer applied (ADR 1468).
    if (attempt.kind === 'off_session') return false;
    if (context.clock.now() - Date.parse(attempt.updatedAt) < WAITING_PAYMENT_EXPIRES_MS) return false;
    return expireWaiting(context, ports, provider, attempt.id, attempt.providerPaymentRef);
  }
  // The reference was never stored. Looked for first by the attempt id the payment carries: once
  // the provider forgot the key (Stripe: after 24 hours), asking again would pay a second time.
  const found = await findAttemptPayment(context, provider, attempt, report);
  if (found !== undefined) {
    const current = await provider.resumeAttempt(context.scope, found);
    if (current.status === 'succeeded' || current.status === 'declined') {
      await context.store.transaction((tx) => applyOutcome(context, tx, attempt.id, current, ports.hooks));
      return true;
    }
    if (attempt.kind === 'off_session') {
      if (current.status === 'pending') return false;
      // Off-session, nobody is there to authenticate: a decline, as when asked again below.
      const declined: PaymentOutcome = {
        status: 'declined',
        providerPaymentRef: current.providerPaymentRef,
        errorCode: 'authentication_failed',
        method: null,
      };
      await context.store.transaction((tx) => applyOutcome(context, tx, attempt.id, declined, ports.hooks));
      return true;
    }
    // A checkout payment whose reference was never stored (a crash, a lost answer) and that still
    // waits: nobody can find it to finish it, so it is canceled at the provider (ADR 1468).
    return expireWaiting(context, ports, provider, attempt.id, found);
  }
  if (attempt.kind === 'off_session') {
    const party = await recoveryParty(context, provider, attempt);
    if (!party) return false;
    const outcome = await ask(() => provider.chargeSavedMethod(authorisationRequest(context, attempt, party)), report);
    if (outcome === undefined) return false;
    const settledOutcome: PaymentOutcome =
      outcome.status === 'requires_action'
        ? {
            status: 'declined',
            providerPaymentRef: outcome.providerPaymentRef,
            errorCode: 'authentication_failed',
            method: null,
          }
        : outcome;
    await context.store.transaction((tx) => applyOutcome(context, tx, attempt.id, settledOutcome, ports.hooks));
    return settledOutcome.status !== 'pending';
  }
  // A checkout payment created for the browser whose reference was never stored: its client
  // secret never reached a browser, so it was never confirmed. Found through its key, released.
  const browser = provider.browser;
  const authorising = provider.authorisation;
  if (!browser || !authorising) return false;
  const transaction = await context.store.transactions.findById(context.scope, attempt.transactionId);
  const customer = transaction?.customerId
    ? await context.store.customers.findById(context.scope, transaction.customerId)
    : undefined;
  if (!transaction || !customer) return false;
  const created = await ask(
    () => browser.createBrowserPayment(browserRequest(attempt, transaction, customer, context)),
    report,
  );
  if (created === undefined) return false;
  const current = await ask(() => provider.resumeAttempt(context.scope, created.providerPaymentRef), report);
  if (current === undefined) return false;
  if (current.status === 'succeeded' || current.status === 'declined') {
    await context.store.transaction((tx) => applyOutcome(context, tx, attempt.id, current, ports.hooks));
    return true;
  }
  const released = await ask(() => authorising.release(context.scope, created.providerPaymentRef), report);
  if (released === undefined || released.status !== 'voided') return false;
  await failAttempt(context, attempt.id);
  return true;
}

/** Cancels a waiting customer-present payment at its provider and applies the answer; true when the attempt left flight. */
async function expireWaiting(
  context: Context<PaymentSlice>,
  ports: OffSessionPorts,
  provider: PaymentProvider,
  attemptId: string,
  reference: string,
): Promise<boolean> {
  const current = await provider.resumeAttempt(context.scope, reference);
  const outcome =
    current.status === 'succeeded' || current.status === 'declined'
      ? current
      : await provider.cancelWaiting(context.scope, reference);
  if (outcome.status === 'succeeded' || outcome.status === 'declined') {
    if (outcome === current) {
      await context.store.transaction((tx) => applyOutcome(context, tx, attemptId, outcome, ports.hooks));
    } else {
      await context.store.transaction((tx) => applyCancellation(context, tx, attemptId, outcome, ports.hooks));
    }
  }
  const after = await context.store.paymentAttempts.findById(context.scope, attemptId);
  return after !== undefined && !IN_FLIGHT.includes(after.status);
}

/**
 * Stripe keeps an idempotency key for 24 hours; a repeat after that acts again. Within this age a
 * repeat under the attempt's key can only replay the first outcome.
 */
const KEY_KEPT_MS = 23 * 60 * 60_000;

/**
 * The provider's payment of an attempt whose reference was never stored, by the id it carries
 * (ADR 1466); undefined when there is none, and the attempt may be asked for again under its key.
 * A lookup that fails is reported; while the key is surely kept, asking again is still safe, so
 * the caller goes on; after that the error stands and the attempt waits for the next run.
 */
async function findAttemptPayment(
  context: Context<PaymentSlice>,
  provider: PaymentProvider,
  attempt: PaymentAttempt,
  report: (error: unknown) => void,
): Promise<string | undefined> {
  try {
    return await provider.findAttemptPayment?.(context.scope, attempt.id);
  } catch (error) {
    if (context.clock.now() - Date.parse(attempt.createdAt) >= KEY_KEPT_MS) throw error;
    report(error);
    return undefined;
  }
}

async function recoveryParty(
  context: Context<PaymentSlice>,
  provider: PaymentProvider,
  attempt: PaymentAttempt,
): Promise<ChargeParty | undefined> {
  const method = attempt.paymentMethodId
    ? await context.store.paymentMethods.findById(context.scope, attempt.paymentMethodId)
    : undefined;
  if (!method || method.internal.provider !== provider.name) return undefined;
  // The transaction may not exist (an uncommitted change): the saved method names the customer.
  const customer = await context.store.customers.findById(context.scope, method.customerId);
  if (!customer) return undefined;
  return {
    customerId: customer.id,
    customerEmail: customer.email,
    paymentMethodId: method.id,
    providerMethodRef: method.internal.providerMethodRef,
  };
}
