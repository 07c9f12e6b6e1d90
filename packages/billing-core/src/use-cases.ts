/**
 * @module
 * The composition of the domain: every feature's use cases bound once to their ports, merged
 * into one object. Routes, workers and the CLI receive it and call `useCases.someUseCase(caller,
 * input)`; none of them builds an operation context or chooses hooks. Each feature binds its own
 * use cases in its factory (`usage/usage-use-cases.ts`, …), seeing the store as its slice; this
 * root only gives each factory what it needs from the features above it: the subscription hooks
 * to transactions, the charging of payments to subscriptions (ADRs 0920, 0923).
 *
 * Adding a use case: write it as a core function `(context: Context<Slice>, ...args)` in its
 * feature folder, then add one line to that feature's factory, `someUseCase: bind(someUseCase)`.
 * A port the feature lacks is a field of its factory's ports, supplied here from `UseCasePorts`.
 */
import { type AccessPorts, accessUseCases, apiKeyExpiryWork } from './access/access-use-cases.js';
import { catalogueUseCases } from './catalogue/catalogue-use-cases.js';
import { discountUseCases } from './discounts/discount-use-cases.js';
import { emailReminderWork } from './email/email-reminders.js';
import { emailUseCases } from './email/email-use-cases.js';
import { eventUseCases } from './events/event-use-cases.js';
import { type InvoicePorts, invoiceUseCases } from './invoices/invoice-use-cases.js';
import { metricUseCases } from './metrics/metric-use-cases.js';
import { type NotificationPorts, notificationUseCases } from './notifications/notification-use-cases.js';
import {
  type PaymentPorts,
  paymentRecoveryWork,
  paymentRetryWork,
  paymentsOf,
  paymentUseCases,
} from './payments/payment-use-cases.js';
import { portalUseCases } from './portal/portal-use-cases.js';
import { type ReportPorts, reportUseCases } from './reports/report-use-cases.js';
import type { Clock } from './shared/clock.js';
import type { IdGenerator } from './shared/ids.js';
import type { Environment, Scope } from './shared/scope.js';
import type { Caller, DueWorkKind, UseCaseBase } from './shared/use-case-base.js';
import { type SimulationPorts, simulationUseCases } from './simulations/simulation-use-cases.js';
import type { OperationContext, Store } from './store.js';
import { runDueWork } from './subscriptions/due-work.js';
import { subscriptionHooks } from './subscriptions/subscription-billing.js';
import { renewalWork, type SubscriptionPorts, subscriptionUseCases } from './subscriptions/subscription-use-cases.js';
import type { TaxIdVerification } from './tax/tax-id-checks.js';
import { overdueInvoiceWork, transactionUseCases } from './transactions/transaction-use-cases.js';
import { type UsagePorts, usageUseCases } from './usage/usage-use-cases.js';

export type { Caller } from './shared/use-case-base.js';

/** What the domain needs from the outside world; the service's composition root supplies each. */
export interface UseCasePorts
  extends Omit<AccessPorts, 'secrets'>,
    Omit<NotificationPorts, 'secrets'>,
    UsagePorts,
    SimulationPorts,
    InvoicePorts,
    ReportPorts,
    Omit<SubscriptionPorts, 'taxIdVerification'>,
    Omit<PaymentPorts, 'livePaymentProvider'> {
  readonly store: Store;
  readonly ids: IdGenerator;
  /** Randomness and hashing for API keys, tokens and endpoint secrets. */
  readonly secrets: AccessPorts['secrets'] & NotificationPorts['secrets'];
  /** The wall clock: live time, and what every sandbox clock runs ahead of. */
  readonly wallClock: Clock;
  /** The clock of one account's environment (ADR 0006). */
  clockFor(scope: Scope): Promise<Clock>;
  /**
   * Who moves money in live (ADR 1410): one provider for every account, or each account's
   * configured one (ADR 1420); without one, live payments are reported. The sandbox has its own.
   */
  readonly livePaymentProvider?: PaymentPorts['livePaymentProvider'];
  /** The checkout page Drawdown serves for an environment, when the service knows its address (ADR 1412). */
  defaultPaymentLink?(environment: Environment): string | undefined;
  /** VAT ids checked with VIES before reverse charge (ADR 1437); absent, the format check alone decides. */
  readonly taxIdVerification?: TaxIdVerification | undefined;
}

/** Time-driven work that falls due per account and environment. */
export type DueWork =
  | 'renewals'
  | 'overdue_invoices'
  | 'api_key_expiries'
  | 'payment_recovery'
  | 'payment_retries'
  | 'email_reminders';

/** One way to an operation context for every use case: the caller's account, scope and clock, and the ports it reads. */
function useCaseBase(ports: UseCasePorts): UseCaseBase<OperationContext> {
  const { store, ids, wallClock } = ports;
  const contextOn = (caller: Caller, clock: Clock): OperationContext => ({
    store,
    ids,
    clock,
    scope: caller.scope,
    account: caller.account,
    defaultPaymentLink: ports.defaultPaymentLink?.(caller.scope.environment),
    taxIds: ports.taxIdVerification,
  });
  const contextFor = async (caller: Caller) => contextOn(caller, await ports.clockFor(caller.scope));
  return {
    store,
    ids,
    wallClock,
    contextOn,
    contextFor,
    async contextOf(scope) {
      const account = await store.accounts.findById(scope.accountId);
      return account && contextFor({ account, scope });
    },
    async contextAt(scope, clock) {
      const account = await store.accounts.findById(scope.accountId);
      return account && contextOn({ account, scope }, clock);
    },
    bind:
      (useCase) =>
      async (caller, ...args) =>
        useCase(await contextFor(caller), ...args),
  };
}

export function createUseCases(ports: UseCasePorts) {
  const base = useCaseBase(ports);
  const { store } = ports;
  const access = accessUseCases(base, ports);
  const payments = paymentsOf(base, { ...ports, livePaymentProvider: ports.livePaymentProvider });
  const subscriptionPorts = { ...ports, taxIdVerification: ports.taxIdVerification };
  const dueWork: Record<DueWork, DueWorkKind<OperationContext>> = {
    renewals: renewalWork(store, payments.charging, ports),
    overdue_invoices: overdueInvoiceWork(store),
    api_key_expiries: apiKeyExpiryWork(store),
    payment_recovery: paymentRecoveryWork(store, payments),
    payment_retries: paymentRetryWork(store, payments),
    email_reminders: emailReminderWork(store, ports.ids, ports.wallClock),
  };
  return {
    ...access,
    ...catalogueUseCases(base),
    ...discountUseCases(base),
    ...usageUseCases(base, ports),
    ...subscriptionUseCases(base, payments.charging, subscriptionPorts),
    ...transactionUseCases(base, subscriptionHooks),
    ...invoiceUseCases(base, ports),
    ...paymentUseCases(base, payments, access),
    ...portalUseCases(base),
    ...eventUseCases(base),
    ...notificationUseCases(base, ports),
    ...emailUseCases(base),
    ...simulationUseCases(base, ports),
    ...metricUseCases(base),
    ...reportUseCases(base, ports),
    /** Runs one kind of due work for every account it is due for: live on the wall clock, sandbox on each account's clock. */
    runDueWork: (work: DueWork) => runDueWork(base, dueWork[work]),
  };
}

/** Every use case, bound to its ports: what routes, workers and the CLI call. */
export type UseCases = ReturnType<typeof createUseCases>;
