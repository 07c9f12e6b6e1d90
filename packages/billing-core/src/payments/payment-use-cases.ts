/**
 * @module
 * The use cases of payments, bound once, and what payments give the features below them. Who
 * moves money is chosen here for every path (ADR 1410): the sandbox's own provider, and in live
 * one provider for every account or each account's configured one (ADR 1420). Every charge a
 * completed transaction makes runs the subscription hooks (ADR 0920).
 */
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import type { Account, Environment, Scope } from '../shared/scope.js';
import type { DueWorkKind, UseCaseBase } from '../shared/use-case-base.js';
import { subscriptionHooks } from '../subscriptions/subscription-billing.js';
import type { SubscriptionCharging } from '../subscriptions/subscription-charging.js';
import type { TaxIdPorts } from '../tax/tax-id-checks.js';
import type { createAdjustment } from '../transactions/adjustments.js';
import type { PaymentLinkPorts } from '../transactions/transaction-context.js';
import { verifyStoredTransactionTaxId } from '../transactions/transactions.js';
import { changeWithAuthorisedCharge, recoverPaymentAttempts } from './authorised-changes.js';
import {
  applyCheckoutCode,
  applyOutcome,
  type BrowserCheckoutSubmission,
  type CheckoutView,
  openCheckout,
  resumeCheckout,
  setCheckoutDetails,
  startBrowserCheckout,
  submitCheckout,
} from './checkout.js';
import { verifyCheckoutBusiness } from './checkout-business.js';
import { getCheckoutSettings, updateCheckoutSettings } from './checkout-settings.js';
import {
  chargeOutstandingSubscriptionTransactions,
  chargeSavedMethod,
  type OffSessionPorts,
} from './off-session-charges.js';
import { type CheckoutDetails, type CheckoutSubmission, IN_FLIGHT } from './payment-attempt.js';
import {
  answerSandboxChallenge,
  deletePaymentMethod,
  getPaymentMethod,
  getPaymentMethodChangeTransaction,
  listPaymentMethods,
} from './payment-methods.js';
import type { IncomingNotification } from './payment-provider.js';
import { type ConfiguredProviders, paymentProvidersOf } from './payment-providers.js';
import { runDueRecoveries } from './payment-recovery-runs.js';
import { createAdjustmentThroughProvider, recoverProviderRefunds } from './provider-refunds.js';
import {
  type ConfigureProviderInput,
  configurePaymentProvider,
  type ProviderSettingsDependencies,
  removePaymentProvider,
  showPaymentProvider,
} from './provider-settings.js';
import { type ProviderWebhookPorts, receiveProviderNotification } from './provider-webhooks.js';
import type { PaymentSlice } from './repositories.js';
import { createSandboxProvider, SANDBOX_PROVIDER } from './sandbox-provider.js';

/** What payments need from the outside world. */
export interface PaymentPorts {
  /** Who moves money in live (ADR 1410); without one, live payments are reported. */
  readonly livePaymentProvider: ConfiguredProviders['live'];
  /** Where a provider call that failed (the provider did not answer) is reported. */
  reportError(message: string, error: unknown): void;
}

type PaymentContext = Context<PaymentSlice> & TaxIdPorts & PaymentLinkPorts;

/** The providers, the ports of every off-session charge, and the charging subscriptions are given. */
export function paymentsOf<C extends PaymentContext>(base: UseCaseBase<C>, ports: PaymentPorts) {
  const sandboxProvider = createSandboxProvider({ store: base.store, ids: base.ids });
  const providers = paymentProvidersOf({ sandbox: sandboxProvider, live: ports.livePaymentProvider });
  const offSession = (context: C): OffSessionPorts => ({
    providers,
    hooks: subscriptionHooks(context),
    reportError: ports.reportError,
  });
  const charging: SubscriptionCharging<C> = {
    chargeOutstanding: (context, subscriptionId) =>
      chargeOutstandingSubscriptionTransactions(
        context,
        offSession(context),
        subscriptionId === undefined ? {} : { subscriptionId },
      ),
    changeWithAuthorisedCharge: (context, change) => changeWithAuthorisedCharge(context, offSession(context), change),
    runDueRecoveries: (context, sandboxOutcome) =>
      runDueRecoveries(context, offSession(context), { limit: Number.POSITIVE_INFINITY, sandboxOutcome }),
  };
  return { sandboxProvider, providers, offSession, charging };
}

/** What `paymentsOf` gives. */
export type Payments<C extends PaymentContext> = ReturnType<typeof paymentsOf<C>>;

export function paymentUseCases<C extends PaymentContext>(
  base: UseCaseBase<C>,
  payments: Payments<C>,
  access: { requireAccount(accountId: string): Promise<Account> },
) {
  const { bind, store } = base;
  const { providers, sandboxProvider, offSession } = payments;

  /** The context of the account whose transaction a public checkout page names; not found otherwise. */
  async function checkoutContext(environment: Environment, transactionId: string): Promise<C> {
    const accountId = await store.paymentAttempts.findTransactionAccount(environment, transactionId);
    const context = accountId === undefined ? undefined : await base.contextOf({ accountId, environment });
    if (!context) throw BillingError.notFound('Transaction', transactionId);
    return context;
  }
  const checkoutPorts = (context: C) => ({ providers, hooks: subscriptionHooks(context) });

  const providerSettings: ProviderSettingsDependencies = {
    providerSettings: store.providerSettings,
    now: () => toTimestamp(base.wallClock.now()),
    requireAccount: access.requireAccount,
    async inFlightAtProvider(scope: Scope) {
      const [attempts, refunds] = await Promise.all([
        store.paymentAttempts.list(scope, {
          filter: { status: [{ op: 'in', values: IN_FLIGHT }] },
          direction: 'asc',
          perPage: 10,
          countTotal: true,
        }),
        store.providerRefunds.list(scope, {
          filter: { status: [{ op: 'eq', value: 'processing' }] },
          direction: 'asc',
          perPage: 10,
          countTotal: true,
        }),
      ]);
      const summary = (page: { items: readonly { id: string }[]; estimatedTotal: number }) => ({
        ids: page.items.map((item) => item.id),
        total: page.estimatedTotal,
      });
      return { attempts: summary(attempts), refunds: summary(refunds) };
    },
  };

  const providerWebhooks: ProviderWebhookPorts = {
    store,
    providers,
    contextFor: base.contextOf,
    hooksFor: subscriptionHooks,
    async findAttempt(provider, providerPaymentRef) {
      const found = await store.paymentAttempts.findByProviderRef(provider, providerPaymentRef);
      return found && { scope: found.scope, attemptId: found.attempt.id, transactionId: found.attempt.transactionId };
    },
    async findAttemptById(scope, attemptId) {
      const attempt = await store.paymentAttempts.findById(scope, attemptId);
      return (
        attempt && {
          scope,
          attemptId: attempt.id,
          transactionId: attempt.transactionId,
          provider: attempt.provider,
          providerPaymentRef: attempt.providerPaymentRef,
        }
      );
    },
    applyOutcome,
  };

  return {
    /** The account's live payment provider (ADR 1420): operator actions, shown with secrets shortened. */
    configurePaymentProvider: (accountId: string, input: ConfigureProviderInput) =>
      configurePaymentProvider(providerSettings, accountId, input),
    showPaymentProvider: (accountId: string) => showPaymentProvider(providerSettings, accountId),
    removePaymentProvider: (accountId: string, options?: { readonly force?: boolean }) =>
      removePaymentProvider(providerSettings, accountId, options),
    /** A provider's webhook to an account's live address, verified by the provider and applied once (ADR 1422). */
    receiveProviderNotification: (accountId: string, provider: string, incoming: IncomingNotification) =>
      receiveProviderNotification(providerWebhooks, accountId, provider, incoming),
    // A live refund goes to the account's payment provider when it took the payment (ADR 1463).
    createAdjustment: bind((context, input: Parameters<typeof createAdjustment>[1]) =>
      createAdjustmentThroughProvider(context, offSession(context), input),
    ),

    // Checkout and payment methods (ADRs 1410-1412). The checkout page is public: the
    // transaction id it names decides the account.
    openCheckout: async (environment: Environment, transactionId: string): Promise<CheckoutView> =>
      openCheckout(await checkoutContext(environment, transactionId), providers, transactionId),
    submitCheckout: async (environment: Environment, transactionId: string, submission: CheckoutSubmission) => {
      const context = await checkoutContext(environment, transactionId);
      await verifyStoredTransactionTaxId(context, transactionId);
      return submitCheckout(context, checkoutPorts(context), transactionId, submission);
    },
    applyCheckoutCode: async (environment: Environment, transactionId: string, code: string) => {
      const context = await checkoutContext(environment, transactionId);
      // The discount changes the taxed amounts; the VAT id is checked before, as for the details (ADR 1437).
      await verifyStoredTransactionTaxId(context, transactionId);
      return applyCheckoutCode(context, providers, transactionId, code);
    },
    setCheckoutDetails: async (environment: Environment, transactionId: string, details: CheckoutDetails) => {
      const context = await checkoutContext(environment, transactionId);
      // Checkout recomputes tax for the address it takes; the VAT id is checked before (ADR 1437):
      // a business typed at the checkout is checked (format, then VIES) before anything is written (ADR 1113).
      const business = details.business
        ? await verifyCheckoutBusiness(context, details.address.countryCode, details.business)
        : details.business;
      await verifyStoredTransactionTaxId(context, transactionId);
      return setCheckoutDetails(context, providers, transactionId, { ...details, business });
    },
    /** The checkout page's script asks for a payment Stripe.js confirms (ADR 1424). */
    startBrowserCheckout: async (
      environment: Environment,
      transactionId: string,
      submission: BrowserCheckoutSubmission,
    ) => {
      const context = await checkoutContext(environment, transactionId);
      return startBrowserCheckout(context, checkoutPorts(context), transactionId, submission);
    },
    /** The customer's return from authenticating; `mayAskProvider` limits asking the provider about one attempt. */
    resumeCheckout: async (
      environment: Environment,
      transactionId: string,
      mayAskProvider: (attemptId: string) => boolean,
    ) => {
      const context = await checkoutContext(environment, transactionId);
      return resumeCheckout(context, checkoutPorts(context), transactionId, mayAskProvider);
    },
    /** The sandbox's 3-D Secure challenge: which transaction it is for, and whether it still waits. */
    findSandboxChallenge: async (providerPaymentRef: string) => {
      const found = await store.paymentAttempts.findByProviderRef(SANDBOX_PROVIDER, providerPaymentRef);
      if (!found || found.scope.environment !== 'sandbox')
        throw BillingError.notFound('Sandbox payment', providerPaymentRef);
      return found.attempt;
    },
    answerSandboxChallenge: async (providerPaymentRef: string, passed: boolean) => {
      const found = await store.paymentAttempts.findByProviderRef(SANDBOX_PROVIDER, providerPaymentRef);
      const context = found && found.scope.environment === 'sandbox' ? await base.contextOf(found.scope) : undefined;
      if (!context) throw BillingError.notFound('Sandbox payment', providerPaymentRef);
      return answerSandboxChallenge(context, sandboxProvider, providerPaymentRef, passed, subscriptionHooks(context));
    },
    listPaymentMethods: bind(listPaymentMethods),
    getPaymentMethod: bind(getPaymentMethod),
    deletePaymentMethod: bind((context, customerId: string, id: string) =>
      deletePaymentMethod(context, providers, customerId, id),
    ),
    getPaymentMethodChangeTransaction: bind(getPaymentMethodChangeTransaction),
    /** Charges a subscription transaction with the subscription's saved method, off-session (live providers). */
    chargeSavedMethod: bind((context, transactionId: string) =>
      chargeSavedMethod(context, offSession(context), transactionId),
    ),
    getCheckoutSettings: bind(getCheckoutSettings),
    updateCheckoutSettings: bind(updateCheckoutSettings),
  };
}

/** Attempts and refunds a live request left in flight (a lost answer, a crash), settled with their keys (ADRs 1426, 1463). */
export function paymentRecoveryWork<C extends PaymentContext>(
  store: Pick<PaymentSlice, 'paymentAttempts' | 'providerRefunds'>,
  payments: Payments<C>,
): DueWorkKind<C> {
  return {
    // Attempts in flight (both environments: a sandbox challenge can be abandoned too), captures
    // waiting for their refund, and live refunds waiting for the provider's answer (ADRs 1426, 1463, 1468).
    findDueAccounts: (environment) =>
      Promise.all([
        store.paymentAttempts.findInFlightAccounts(environment),
        environment === 'live' ? store.providerRefunds.findProcessingAccounts('live') : [],
      ]).then(([attempts, refunds]) => [...new Set([...attempts, ...refunds])].sort()),
    run: async (context) =>
      (await recoverPaymentAttempts(context, payments.offSession(context))).settled +
      (await recoverProviderRefunds(context, payments.offSession(context))).settled,
  };
}

/** Payment recovery of declined subscription charges (ADR 1460); the sandbox settles retries with its simulated card. */
export function paymentRetryWork<C extends PaymentContext>(
  store: Pick<PaymentSlice, 'recoveryRuns'>,
  payments: Payments<C>,
): DueWorkKind<C> {
  return {
    findDueAccounts: (environment, until) => store.recoveryRuns.findDueAccounts(environment, until),
    run: (context) => runDueRecoveries(context, payments.offSession(context), { limit: 100 }),
  };
}
