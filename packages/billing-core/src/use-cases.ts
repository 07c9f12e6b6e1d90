/**
 * @module
 * The composition of the domain: every use case bound once to its ports. Routes, workers and
 * the CLI receive the same `UseCases` object and call `useCases.someUseCase(caller, input)`;
 * none of them builds an operation context or chooses hooks. Rules that span features are
 * wired here and nowhere else: a completed transaction always runs the subscription hooks
 * (a paid checkout starts its subscription, a paid renewal revives a past-due one), whoever
 * completes it (ADR 0920).
 *
 * Adding a use case: write it as a core function `(context: OperationContext, ...args)` in its
 * feature folder, then add one line here, `someUseCase: bind(someUseCase)`. A use case that needs
 * a port the context lacks receives it here from `UseCasePorts`.
 */
import type { Account } from './access/account.js';
import {
  API_KEY_EXPIRING_NOTICE_MS,
  authenticate,
  type CreateApiKeyInput,
  createAccount,
  createApiKey,
  type KeySecrets,
  noticeApiKeyExpiries,
  revokeApiKey,
} from './access/api-keys.js';
import type { AuthenticatedKeyCache } from './access/authenticated-key-cache.js';
import {
  authenticateClientToken,
  type CreateClientTokenInput,
  createClientToken,
  getClientToken,
  listClientTokens,
  type TokenContext,
  updateClientToken,
} from './access/client-tokens.js';
import { generateCustomerAuthToken, verifyCustomerAuthToken } from './access/customer-auth-tokens.js';
import { createDemoAccount, type DemoAccountRequest } from './access/demo-account.js';
import { createAddress, getAddress, listAddresses, updateAddress } from './catalogue/addresses.js';
import { createBusiness, getBusiness, listBusinesses, updateBusiness } from './catalogue/businesses.js';
import { withPriceProduct, withProductPrices } from './catalogue/catalogue-includes.js';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './catalogue/customers.js';
import { createMeter, getMeter, listMeters, updateMeter } from './catalogue/meters.js';
import { createPrice, getPrice, listPrices, updatePrice } from './catalogue/prices.js';
import { createProduct, getProduct, listProducts, updateProduct } from './catalogue/products.js';
import {
  createUsageBalanceUnit,
  getUsageBalanceUnit,
  listUsageBalanceUnits,
  updateUsageBalanceUnit,
} from './catalogue/usage-balance-units.js';
import {
  createDiscount,
  createDiscountGroup,
  getDiscount,
  getDiscountGroup,
  listDiscountGroups,
  listDiscounts,
  updateDiscount,
  updateDiscountGroup,
} from './discounts/discounts.js';
import { listEventTypes } from './events/event-types.js';
import { listEvents } from './events/list-events.js';
import { type CreditNoteLinkClaims, getCreditNoteDocument, issueCreditNoteLink } from './invoices/credit-note.js';
import { getInvoiceDocument } from './invoices/invoice-document.js';
import { type InvoiceLinkClaims, issueInvoiceLink, requireUnexpired } from './invoices/invoice-links.js';
import {
  getSellerDetails,
  type ImageDecoder,
  type UpdateSellerDetailsInput,
  updateSellerDetails,
} from './invoices/seller-details.js';
import { getMetrics } from './metrics/metrics.js';
import {
  type ClaimInput,
  claimDueNotifications,
  type FinishedAttempt,
  fanOutEvents,
  recordDeliveryAttempts,
} from './notifications/delivery.js';
import {
  createNotificationSetting,
  type DestinationPolicy,
  deleteNotificationSetting,
  getNotificationSetting,
  listNotificationSettings,
  type NotificationSettingContext,
  rotateNotificationSettingSecret,
  type SecretSource,
  updateNotificationSetting,
} from './notifications/notification-settings.js';
import {
  getNotification,
  listNotificationLogs,
  listNotifications,
  replayNotification,
} from './notifications/notifications.js';
import {
  type AuthorisedChange,
  changeWithAuthorisedCharge,
  recoverPaymentAttempts,
} from './payments/authorised-changes.js';
import {
  applyOutcome,
  type BrowserCheckoutSubmission,
  type CheckoutPorts,
  type CheckoutView,
  openCheckout,
  resumeCheckout,
  setCheckoutDetails,
  startBrowserCheckout,
  submitCheckout,
} from './payments/checkout.js';
import { getCheckoutSettings, updateCheckoutSettings } from './payments/checkout-settings.js';
import {
  chargeOutstandingSubscriptionTransactions,
  chargeSavedMethod,
  type OffSessionPorts,
} from './payments/off-session-charges.js';
import { type CheckoutDetails, type CheckoutSubmission, IN_FLIGHT } from './payments/payment-attempt.js';
import {
  answerSandboxChallenge,
  deletePaymentMethod,
  getPaymentMethod,
  getPaymentMethodChangeTransaction,
  listPaymentMethods,
} from './payments/payment-methods.js';
import type { IncomingNotification } from './payments/payment-provider.js';
import { type ConfiguredProviders, paymentProvidersOf } from './payments/payment-providers.js';
import { runDueRecoveries } from './payments/payment-recovery-runs.js';
import { createAdjustmentThroughProvider, recoverProviderRefunds } from './payments/provider-refunds.js';
import {
  type ConfigureProviderInput,
  configurePaymentProvider,
  type ProviderSettingsDependencies,
  removePaymentProvider,
  showPaymentProvider,
} from './payments/provider-settings.js';
import { type ProviderWebhookPorts, receiveProviderNotification } from './payments/provider-webhooks.js';
import { createSandboxProvider, SANDBOX_PROVIDER } from './payments/sandbox-provider.js';
import { acceptPortalSession, createPortalSession } from './portal/portal-sessions.js';
import { type ClaimedReport, claimDueReports, generateReport } from './reports/generate-report.js';
import {
  createReport,
  getReport,
  issueReportLink,
  listReports,
  type ReportLinkClaims,
  requireDownloadableReport,
} from './reports/reports.js';
import { BillingError } from './shared/billing-error.js';
import type { Clock } from './shared/clock.js';
import { toTimestamp } from './shared/clock.js';
import type { IdGenerator } from './shared/ids.js';
import type { Environment, Scope } from './shared/scope.js';
import type { EntityPresenter, SimulationRunEvent } from './simulations/simulation.js';
import {
  type ClaimedSimulationRun,
  claimDueSimulationRuns,
  finishSimulationRun,
  recordSimulatedDelivery,
  type SimulatedDeliveryOutcome,
} from './simulations/simulation-delivery.js';
import {
  createSimulation,
  createSimulationRun,
  getSimulation,
  getSimulationRun,
  getSimulationRunEvent,
  listRunEvents,
  listSimulationRunEvents,
  listSimulationRuns,
  listSimulations,
  listSimulationTypes,
  replaySimulationRunEvent,
  type SimulationInput,
  updateSimulation,
} from './simulations/simulations.js';
import type { OperationContext, Store } from './store.js';
import { activateSubscription, applyActivation, declinedActivation } from './subscriptions/activate-subscription.js';
import {
  applyOneTimeCharge,
  createOneTimeCharge,
  declinedOneTimeCharge,
  type OneTimeChargeInput,
  previewOneTimeCharge,
} from './subscriptions/one-time-charges.js';
import { cancelSubscription, pauseSubscription, resumeSubscription } from './subscriptions/pause-resume-cancel.js';
import { runDueSubscriptions } from './subscriptions/process-due.js';
import { getSubscription, listSubscriptions } from './subscriptions/read-subscriptions.js';
import {
  advanceSandboxClock,
  readSandboxClock,
  type SandboxClockDependencies,
  type SandboxRecoveries,
} from './subscriptions/sandbox-clock.js';
import type { Subscription } from './subscriptions/subscription.js';
import {
  defaultRenewalPayment,
  readSandboxPaymentOutcome,
  setSandboxPaymentOutcome,
  subscriptionHooks,
  verifySubscriptionTaxId,
} from './subscriptions/subscription-billing.js';
import {
  applySubscriptionUpdate,
  declinedUpdate,
  getSubscriptionWithIncludes,
  previewSubscriptionUpdate,
  type UpdateSubscriptionInput,
  updateSubscription,
} from './subscriptions/update-subscription.js';
import type { TaxIdVerification } from './tax/tax-id-checks.js';
import type { createAdjustment } from './transactions/adjustments.js';
import { listAdjustments } from './transactions/adjustments.js';
import { listCreditBalances } from './transactions/credit-balances.js';
import { markOverdueInvoices, OVERDUE_BATCH_SIZE } from './transactions/overdue-invoices.js';
import {
  type PaymentReport,
  recordTransactionPayment,
  type SimulatedOutcome,
  simulateTransactionPayment,
} from './transactions/payments.js';
import { getTaxSettings, updateTaxSettings } from './transactions/tax-settings.js';
import { withTransactionIncludes } from './transactions/transaction-includes.js';
import { previewTransaction } from './transactions/transaction-previews.js';
import { reviseTransaction } from './transactions/transaction-revision.js';
import {
  createTransaction,
  getTransaction,
  listTransactions,
  updateTransaction,
  verifyStoredTransactionTaxId,
} from './transactions/transactions.js';
import { applyPendingDrawdowns } from './usage/apply-drawdowns.js';
import { getUsageBalance, listUsageBalances } from './usage/read-usage-balances.js';
import { recordUsageEvents } from './usage/record-usage-events.js';
import type { UsageEventInput } from './usage/usage-event.js';
import { listUsagePeriods } from './usage/usage-periods.js';

/** Who asks: an authenticated account in one environment. */
export interface Caller {
  readonly scope: Scope;
  readonly account: Account;
}

/** What the domain needs from the outside world; the service's composition root supplies each. */
export interface UseCasePorts {
  readonly store: Store;
  readonly ids: IdGenerator;
  /** The wall clock: live time, and what every sandbox clock runs ahead of. */
  readonly wallClock: Clock;
  /** The clock of one account's environment (ADR 0006). */
  clockFor(scope: Scope): Promise<Clock>;
  /** Randomness and hashing for API keys and endpoint secrets. */
  readonly secrets: KeySecrets & SecretSource;
  /** Keys that authenticated in this process within the last second (ADR 0710). */
  readonly authenticatedKeys: AuthenticatedKeyCache;
  /** Which webhook destinations may be saved. */
  readonly webhookDestinations: DestinationPolicy;
  /** Waits a while (the core has no timers of its own). */
  pause(milliseconds: number): Promise<void>;
  /** Lets the rest of the process run between slices of long work, such as a sandbox jump (ADR 0900). */
  yieldToOthers(): Promise<void>;
  /** Where failures that do not fail the request are reported (a usage event's storage failure). */
  reportError(message: string, error: unknown): void;
  /** The wire form of entities, which simulations copy into their payloads. */
  readonly entityPresenter: EntityPresenter;
  /**
   * Who moves money in live (ADR 1410): one provider for every account, or each account's
   * configured one (ADR 1420); without one, live payments are reported. The sandbox has its own.
   */
  readonly livePaymentProvider?: ConfiguredProviders['live'];
  /** Decodes seller logos (PNG and JPEG) to check them (ADR 1106). */
  readonly images: ImageDecoder;
  /** The checkout page Drawdown serves for an environment, when the service knows its address (ADR 1412). */
  defaultPaymentLink?(environment: Environment): string | undefined;
  /** VAT ids checked with VIES before reverse charge (ADR 1437); absent, the format check alone decides. */
  readonly taxIdVerification?: TaxIdVerification | undefined;
}

/** Time-driven work that falls due per account and environment. */
export type DueWork = 'renewals' | 'overdue_invoices' | 'api_key_expiries' | 'payment_recovery' | 'payment_retries';

export function createUseCases(ports: UseCasePorts) {
  const { store, ids, wallClock } = ports;

  async function contextOf(caller: Caller): Promise<OperationContext> {
    return {
      store,
      ids,
      clock: await ports.clockFor(caller.scope),
      scope: caller.scope,
      account: caller.account,
      defaultPaymentLink: ports.defaultPaymentLink?.(caller.scope.environment),
      taxIds: ports.taxIdVerification,
    };
  }

  /** Binds a core use case `(context, ...args)` to the ports: `(caller, ...args)`. */
  function bind<Args extends unknown[], Result>(
    useCase: (context: OperationContext, ...args: Args) => Promise<Result>,
  ): (caller: Caller, ...args: Args) => Promise<Result> {
    return async (caller, ...args) => useCase(await contextOf(caller), ...args);
  }

  const access = {
    store,
    ids,
    clock: wallClock,
    secrets: ports.secrets,
    authenticatedKeys: ports.authenticatedKeys,
  };

  function tokenContext(context: OperationContext): TokenContext {
    return { ...context, secrets: ports.secrets };
  }

  function notificationSettingContext(context: OperationContext): NotificationSettingContext {
    return { ...context, secrets: ports.secrets, destinations: ports.webhookDestinations };
  }

  function sandboxClockOf(caller: Caller): SandboxClockDependencies {
    if (caller.scope.environment !== 'sandbox') {
      throw new BillingError('not_found', 'The sandbox clock exists only in the sandbox environment.');
    }
    const scope = caller.scope;
    const recoveries: SandboxRecoveries = {
      nextDueAt: async (until) => (await store.recoveryRuns.findDue(scope, until, 1))[0]?.nextRetryAt ?? undefined,
      run: async (clock, payments) => {
        const context = contextForClock(caller, clock);
        return runDueRecoveries(context, offSessionPorts(context), {
          limit: Number.POSITIVE_INFINITY,
          sandboxOutcome: payments,
        });
      },
    };
    return {
      store,
      ids,
      wallClock,
      account: caller.account,
      pause: ports.pause,
      yieldToOthers: ports.yieldToOthers,
      taxIds: ports.taxIdVerification,
      recoveries,
    };
  }

  /** An operation context on a given clock (the sandbox clock's jump). */
  function contextForClock(caller: Caller, clock: Clock): OperationContext {
    return {
      store,
      ids,
      clock,
      scope: caller.scope,
      account: caller.account,
      defaultPaymentLink: ports.defaultPaymentLink?.(caller.scope.environment),
      taxIds: ports.taxIdVerification,
    };
  }

  async function requireAccount(accountId: string): Promise<Account> {
    const account = await store.accounts.findById(accountId);
    if (!account) throw new BillingError('account_not_found', `Account ${accountId} not found.`);
    return account;
  }

  /** Runs one kind of due work for every account it is due for: live on the wall clock, sandbox on each account's clock. */
  async function runDueWork(work: DueWork): Promise<number> {
    const findDueAccounts = (environment: Environment, until: string) => {
      switch (work) {
        case 'renewals':
          return store.subscriptions.findDueAccounts(environment, until);
        case 'overdue_invoices':
          return store.transactions.findOverdueAccounts(environment, until);
        case 'payment_retries':
          return store.recoveryRuns.findDueAccounts(environment, until);
        case 'api_key_expiries':
          return store.apiKeys.findExpiryNoticeAccounts(
            environment,
            until,
            toTimestamp(Date.parse(until) + API_KEY_EXPIRING_NOTICE_MS),
          );
        case 'payment_recovery':
          // Only live providers answer later; the sandbox settles every payment at once.
          // Attempts in flight and refunds waiting for the provider's answer (ADRs 1426, 1463).
          return environment === 'live'
            ? Promise.all([
                store.paymentAttempts.findInFlightAccounts('live'),
                store.providerRefunds.findProcessingAccounts('live'),
              ]).then(([attempts, refunds]) => [...new Set([...attempts, ...refunds])].sort())
            : Promise.resolve([]);
      }
    };
    const run = async (context: OperationContext) => {
      switch (work) {
        case 'renewals': {
          const renewed = await runDueSubscriptions(
            context,
            1_000,
            defaultRenewalPayment(context.scope),
            ports.yieldToOthers,
          );
          // Live renewals are charged through the account's provider once committed (ADR 1423).
          await chargeOutstandingSubscriptionTransactions(context, offSessionPorts(context));
          return renewed;
        }
        case 'overdue_invoices':
          return markOverdueInvoices(context, OVERDUE_BATCH_SIZE);
        case 'api_key_expiries':
          return noticeApiKeyExpiries(context);
        case 'payment_recovery':
          // Attempts a request left in flight (a lost answer, a crash) are settled with their keys (ADR 1426).
          return (
            (await recoverPaymentAttempts(context, offSessionPorts(context))).settled +
            (await recoverProviderRefunds(context, offSessionPorts(context))).settled
          );
        case 'payment_retries':
          // Payment recovery (ADR 1460): the sandbox settles retries with its simulated card.
          return runDueRecoveries(context, offSessionPorts(context), { limit: 100 });
      }
    };
    const runAccount = async (accountId: string, environment: Environment, offsetMs: number) => {
      const account = await store.accounts.findById(accountId);
      if (!account) return 0;
      const clock: Clock = { now: () => wallClock.now() + offsetMs };
      return run({
        store,
        ids,
        clock,
        account,
        scope: { accountId, environment },
        defaultPaymentLink: ports.defaultPaymentLink?.(environment),
        taxIds: ports.taxIdVerification,
      });
    };
    let done = 0;
    for (const accountId of await findDueAccounts('live', toTimestamp(wallClock.now()))) {
      done += await runAccount(accountId, 'live', 0);
    }
    const offsets = new Map((await store.sandboxClocks.listOffsets()).map((row) => [row.accountId, row.offsetMs]));
    // One query for every sandbox account, up to the clock that runs furthest ahead; each account
    // then runs only what is due on its own clock.
    const furthest = Math.max(0, ...offsets.values());
    for (const accountId of await findDueAccounts('sandbox', toTimestamp(wallClock.now() + furthest))) {
      done += await runAccount(accountId, 'sandbox', offsets.get(accountId) ?? 0);
    }
    return done;
  }

  const sandboxProvider = createSandboxProvider({ store, ids });
  const providers = paymentProvidersOf({ sandbox: sandboxProvider, live: ports.livePaymentProvider });
  const checkoutPorts = (context: OperationContext): CheckoutPorts => ({
    providers,
    hooks: subscriptionHooks(context),
  });

  /** The context of the account whose transaction a public checkout page names; not found otherwise. */
  async function checkoutContext(environment: Environment, transactionId: string): Promise<OperationContext> {
    const accountId = await store.paymentAttempts.findTransactionAccount(environment, transactionId);
    const account = accountId === undefined ? undefined : await store.accounts.findById(accountId);
    if (!account) throw BillingError.notFound('Transaction', transactionId);
    return contextOf({ account, scope: { accountId: account.id, environment } });
  }

  async function scopedContext(scope: Scope): Promise<OperationContext | undefined> {
    const account = await store.accounts.findById(scope.accountId);
    return account ? contextOf({ account, scope }) : undefined;
  }
  const providerSettings: ProviderSettingsDependencies = {
    providerSettings: store.providerSettings,
    now: () => toTimestamp(wallClock.now()),
    requireAccount,
    async inFlightAtProvider(scope) {
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
    async contextFor(scope) {
      const account = await store.accounts.findById(scope.accountId);
      return account ? contextOf({ account, scope }) : undefined;
    },
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

  const offSessionPorts = (context: OperationContext): OffSessionPorts => ({
    providers,
    hooks: subscriptionHooks(context),
    reportError: ports.reportError,
  });

  /**
   * Before a subscription use case `(context, id, input?)` opens its database transaction, the
   * VAT id of the business its charge will name (the input's `businessId`, else the
   * subscription's) is checked with VIES (ADR 1437).
   */
  async function verifyTaxIdOfSubscriptionChange(context: OperationContext, args: readonly unknown[]): Promise<void> {
    const [id, input] = args;
    if (typeof id !== 'string') return;
    const named = (input as { businessId?: string | null } | undefined)?.businessId;
    await verifySubscriptionTaxId(context, id, named);
  }

  function verifyingTaxId<Args extends unknown[], Result>(
    useCase: (context: OperationContext, ...args: Args) => Promise<Result>,
  ): (caller: Caller, ...args: Args) => Promise<Result> {
    return bind(async (context, ...args: Args) => {
      await verifyTaxIdOfSubscriptionChange(context, args);
      return useCase(context, ...args);
    });
  }

  /**
   * Runs a subscription use case, then, in live with a provider, takes its charge from the
   * subscription's saved method, outside the database transaction that issued it (ADR 1423).
   */
  async function runThenCharge<Args extends unknown[]>(
    context: OperationContext,
    useCase: (context: OperationContext, ...args: Args) => Promise<Subscription>,
    args: Args,
  ): Promise<Subscription> {
    const subscription = await useCase(context, ...args);
    const charged = await chargeOutstandingSubscriptionTransactions(context, offSessionPorts(context), {
      subscriptionId: subscription.id,
    });
    return charged > 0
      ? ((await store.subscriptions.findById(context.scope, subscription.id)) ?? subscription)
      : subscription;
  }

  /** A subscription use case whose charge is taken after it commits (`runThenCharge`), its VAT id checked first. */
  function thenChargeSavedMethod<Args extends unknown[]>(
    useCase: (context: OperationContext, ...args: Args) => Promise<Subscription>,
  ): (caller: Caller, ...args: Args) => Promise<Subscription> {
    return bind(async (context, ...args: Args) => {
      await verifyTaxIdOfSubscriptionChange(context, args);
      return runThenCharge(context, useCase, args);
    });
  }

  /**
   * A subscription use case whose immediate charge must succeed for it to happen (`prevent_change`,
   * activation): in live with a provider that authorises, the charge is held before the change
   * commits and captured after (ADR 1426); otherwise it runs as `thenChargeSavedMethod` says.
   * The VAT id is checked once, before anything is held (ADR 1437).
   */
  function authorisedOrThenCharged<Id extends string, Rest extends unknown[]>(
    useCase: (context: OperationContext, id: Id, ...rest: Rest) => Promise<Subscription>,
    plan: (context: OperationContext, id: Id, ...rest: Rest) => AuthorisedChange | undefined,
  ): (caller: Caller, id: Id, ...rest: Rest) => Promise<Subscription> {
    return bind(async (context, id: Id, ...rest: Rest) => {
      await verifyTaxIdOfSubscriptionChange(context, [id, ...rest]);
      const change = plan(context, id, ...rest);
      const done = change ? await changeWithAuthorisedCharge(context, offSessionPorts(context), change) : undefined;
      return done ?? runThenCharge(context, useCase, [id, ...rest]);
    });
  }

  const delivery = { store, ids, wallClock };
  const simulationContext = (context: OperationContext) => ({ ...context, presenter: ports.entityPresenter });
  const reportGeneration = {
    store,
    wallClock,
    pause: ports.pause,
    async contextFor(scope: Scope): Promise<OperationContext | undefined> {
      const account = await store.accounts.findById(scope.accountId);
      return account ? contextOf({ account, scope }) : undefined;
    },
  };

  return {
    // Accounts and keys: operator actions (the CLI, a first start) and every request's authentication.
    createAccount: (input: { readonly name: string; readonly earlyAccess: boolean }) => createAccount(access, input),
    listAccounts: () => store.accounts.list(),
    requireAccount,
    createApiKey: (input: CreateApiKeyInput) => createApiKey(access, input),
    createDemoAccount: (request: DemoAccountRequest) => createDemoAccount(access, request),
    revokeApiKey: (keyId: string) => revokeApiKey(access, keyId),
    listApiKeys: async (accountId: string, environment?: Environment) => {
      await requireAccount(accountId);
      return store.apiKeys.listByAccount(accountId, environment);
    },
    authenticate: (authorization: string | undefined, environment: Environment) =>
      authenticate(access, authorization, environment),
    /** The account's live payment provider (ADR 1420): operator actions, shown with secrets shortened. */
    configurePaymentProvider: (accountId: string, input: ConfigureProviderInput) =>
      configurePaymentProvider(providerSettings, accountId, input),
    showPaymentProvider: (accountId: string) => showPaymentProvider(providerSettings, accountId),
    removePaymentProvider: (accountId: string, options?: { readonly force?: boolean }) =>
      removePaymentProvider(providerSettings, accountId, options),
    /** A provider's webhook to an account's live address, verified by the provider and applied once (ADR 1422). */
    receiveProviderNotification: (accountId: string, provider: string, incoming: IncomingNotification) =>
      receiveProviderNotification(providerWebhooks, accountId, provider, incoming),

    // Client-side tokens and customer authentication tokens (ADR 1431, ADR 1432).
    createClientToken: bind((context, input: CreateClientTokenInput) =>
      createClientToken(tokenContext(context), input),
    ),
    getClientToken: bind(getClientToken),
    listClientTokens: bind(listClientTokens),
    updateClientToken: bind(updateClientToken),
    generateCustomerAuthToken: bind((context, customerId: string) =>
      generateCustomerAuthToken(tokenContext(context), customerId),
    ),
    /** For pages a browser opens with a client-side token (the hosted checkout): its account environment. */
    authenticateClientToken: (environment: Environment, token: string) =>
      authenticateClientToken(store, ports.secrets, environment, token),
    /**
     * For pages that act for one customer: the customer a customer auth token was issued for in
     * `scope` (and for `customerId`, when given), refused once expired on that environment's clock.
     */
    verifyCustomerAuthToken: async (scope: Scope, token: string, customerId?: string) => {
      const account = await store.accounts.findById(scope.accountId);
      if (!account) {
        throw new BillingError('invalid_customer_auth_token', 'Invalid or expired customer authentication token.');
      }
      return verifyCustomerAuthToken(tokenContext(await contextOf({ account, scope })), token, customerId);
    },

    // Catalogue.
    createProduct: bind(createProduct),
    updateProduct: bind(updateProduct),
    getProduct: bind(getProduct),
    listProducts: bind(listProducts),
    createPrice: bind(createPrice),
    updatePrice: bind(updatePrice),
    getPrice: bind(getPrice),
    listPrices: bind(listPrices),
    createCustomer: bind(createCustomer),
    updateCustomer: bind(updateCustomer),
    getCustomer: bind(getCustomer),
    listCustomers: bind(listCustomers),
    createAddress: bind(createAddress),
    updateAddress: bind(updateAddress),
    getAddress: bind(getAddress),
    listAddresses: bind(listAddresses),
    createBusiness: bind(createBusiness),
    updateBusiness: bind(updateBusiness),
    getBusiness: bind(getBusiness),
    listBusinesses: bind(listBusinesses),
    withProductPrices: bind(withProductPrices),
    withPriceProduct: bind(withPriceProduct),
    createUsageBalanceUnit: bind(createUsageBalanceUnit),
    updateUsageBalanceUnit: bind(updateUsageBalanceUnit),
    getUsageBalanceUnit: bind(getUsageBalanceUnit),
    listUsageBalanceUnits: bind(listUsageBalanceUnits),
    createMeter: bind(createMeter),
    updateMeter: bind(updateMeter),
    getMeter: bind(getMeter),
    listMeters: bind(listMeters),

    // Discounts.
    createDiscount: bind(createDiscount),
    updateDiscount: bind(updateDiscount),
    getDiscount: bind(getDiscount),
    listDiscounts: bind(listDiscounts),
    createDiscountGroup: bind(createDiscountGroup),
    updateDiscountGroup: bind(updateDiscountGroup),
    getDiscountGroup: bind(getDiscountGroup),
    listDiscountGroups: bind(listDiscountGroups),

    // Usage.
    recordUsageEvents: bind((context, events: readonly UsageEventInput[]) =>
      recordUsageEvents(context, events, (error) => ports.reportError('storing a usage event', error)),
    ),
    listUsageBalances: bind(listUsageBalances),
    getUsageBalance: bind(getUsageBalance),
    /** The drawdown worker's batch: applies up to `limit` accepted events, of every account. */
    applyPendingDrawdowns: (limit: number) => applyPendingDrawdowns({ store, ids }, { limit }),

    // Subscriptions and time.
    getSubscription: bind(getSubscription),
    listSubscriptions: bind(listSubscriptions),
    getSubscriptionWithIncludes: bind(getSubscriptionWithIncludes),
    updateSubscription: authorisedOrThenCharged(updateSubscription, (context, id, input: UpdateSubscriptionInput) =>
      (input.onPaymentFailure ?? 'prevent_change') === 'prevent_change'
        ? {
            subscriptionId: id,
            apply: (tx, payment) => applySubscriptionUpdate(context, tx, id, input, payment),
            declined: () => declinedUpdate(id),
          }
        : undefined,
    ),
    previewSubscriptionUpdate: verifyingTaxId(previewSubscriptionUpdate),
    activateSubscription: authorisedOrThenCharged(activateSubscription, (context, id) => ({
      subscriptionId: id,
      apply: (tx, payment) => applyActivation(context, tx, id, payment),
      declined: () => declinedActivation(id),
    })),
    createOneTimeCharge: authorisedOrThenCharged(createOneTimeCharge, (context, id, input: OneTimeChargeInput) =>
      input.effectiveFrom === 'immediately' && (input.onPaymentFailure ?? 'prevent_change') === 'prevent_change'
        ? {
            subscriptionId: id,
            apply: (tx, payment) => applyOneTimeCharge(context, tx, id, input, payment),
            declined: () => declinedOneTimeCharge(id),
          }
        : undefined,
    ),
    previewOneTimeCharge: verifyingTaxId(previewOneTimeCharge),
    pauseSubscription: bind(pauseSubscription),
    resumeSubscription: thenChargeSavedMethod(resumeSubscription),
    cancelSubscription: bind(cancelSubscription),
    runDueWork,
    readSandboxPaymentOutcome: bind(readSandboxPaymentOutcome),
    setSandboxPaymentOutcome: bind(setSandboxPaymentOutcome),
    readSandboxClock: (caller: Caller) => readSandboxClock(sandboxClockOf(caller)),
    advanceSandboxClock: (
      caller: Caller,
      ...args: Parameters<typeof advanceSandboxClock> extends [unknown, ...infer Rest] ? Rest : never
    ) => advanceSandboxClock(sandboxClockOf(caller), ...args),

    // Transactions, payments, adjustments, invoices. Completing a transaction always runs the subscription hooks.
    createTransaction: bind((context, input: Parameters<typeof createTransaction>[1]) =>
      createTransaction(context, input, subscriptionHooks(context)),
    ),
    updateTransaction: bind((context, id: string, input: Parameters<typeof updateTransaction>[2]) =>
      updateTransaction(context, id, input, subscriptionHooks(context)),
    ),
    getTransaction: bind(getTransaction),
    listTransactions: bind(listTransactions),
    previewTransaction: bind(previewTransaction),
    listCreditBalances: bind(listCreditBalances),
    withTransactionIncludes: bind(withTransactionIncludes),
    reviseTransaction: bind(reviseTransaction),
    recordTransactionPayment: bind((context, transactionId: string, report: PaymentReport) =>
      recordTransactionPayment(context, transactionId, report, subscriptionHooks(context)),
    ),
    simulateTransactionPayment: bind((context, transactionId: string, outcome: SimulatedOutcome) =>
      simulateTransactionPayment(context, transactionId, outcome, subscriptionHooks(context)),
    ),
    // A live refund goes to the account's payment provider when it took the payment (ADR 1463).
    createAdjustment: bind((context, input: Parameters<typeof createAdjustment>[1]) =>
      createAdjustmentThroughProvider(context, offSessionPorts(context), input),
    ),
    listAdjustments: bind(listAdjustments),
    getTaxSettings: bind(getTaxSettings),
    updateTaxSettings: bind(updateTaxSettings),
    issueInvoiceLink: bind(issueInvoiceLink),
    /** The invoice behind a link whose signature the caller verified: refused once the link expired on its account's clock. */
    openInvoiceLink: async (claims: InvoiceLinkClaims) => {
      const account = await store.accounts.findById(claims.accountId);
      if (!account) throw new BillingError('invoice_link_invalid', 'This invoice link is not valid.');
      const context = await contextOf({ account, scope: { accountId: account.id, environment: claims.environment } });
      requireUnexpired(context, claims);
      return getInvoiceDocument(context, claims.transactionId);
    },

    issueCreditNoteLink: bind(issueCreditNoteLink),
    /** The credit note behind a link whose signature the caller verified, refused once expired (ADR 1103). */
    openCreditNoteLink: async (claims: CreditNoteLinkClaims) => {
      const account = await store.accounts.findById(claims.accountId);
      if (!account) throw new BillingError('invoice_link_invalid', 'This credit note link is not valid.');
      const context = await contextOf({ account, scope: { accountId: account.id, environment: claims.environment } });
      requireUnexpired(context, claims);
      return getCreditNoteDocument(context, claims.adjustmentId);
    },

    // Checkout and payment methods (ADRs 1410-1412). The checkout page is public: the
    // transaction id it names decides the account.
    openCheckout: async (environment: Environment, transactionId: string): Promise<CheckoutView> =>
      openCheckout(await checkoutContext(environment, transactionId), providers, transactionId),
    submitCheckout: async (environment: Environment, transactionId: string, submission: CheckoutSubmission) => {
      const context = await checkoutContext(environment, transactionId);
      await verifyStoredTransactionTaxId(context, transactionId);
      return submitCheckout(context, checkoutPorts(context), transactionId, submission);
    },
    setCheckoutDetails: async (environment: Environment, transactionId: string, details: CheckoutDetails) => {
      const context = await checkoutContext(environment, transactionId);
      // Checkout recomputes tax for the address it takes; the VAT id is checked before (ADR 1437).
      await verifyStoredTransactionTaxId(context, transactionId);
      return setCheckoutDetails(context, providers, transactionId, details);
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
    resumeCheckout: async (environment: Environment, transactionId: string) => {
      const context = await checkoutContext(environment, transactionId);
      return resumeCheckout(context, checkoutPorts(context), transactionId);
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
      const context = found && found.scope.environment === 'sandbox' ? await scopedContext(found.scope) : undefined;
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
      chargeSavedMethod(context, offSessionPorts(context), transactionId),
    ),
    /** The seller the documents name (ADR 1106): the API's `/seller-details` and the CLI. */
    getSellerDetails: bind(getSellerDetails),
    updateSellerDetails: bind((context, input: UpdateSellerDetailsInput) =>
      updateSellerDetails({ ...context, images: ports.images }, input),
    ),
    getCheckoutSettings: bind(getCheckoutSettings),
    updateCheckoutSettings: bind(updateCheckoutSettings),
    // Customer portal sessions (ADR 1440): the claims to sign, and a signed token's claims accepted.
    createPortalSession: bind(createPortalSession),
    listUsagePeriods: bind(listUsagePeriods),
    acceptPortalSession: bind(acceptPortalSession),

    // Events and notifications.
    listEvents: bind(listEvents),
    listEventTypes: async (caller: Caller) => listEventTypes(caller.account),
    createNotificationSetting: bind((context, input: Parameters<typeof createNotificationSetting>[1]) =>
      createNotificationSetting(notificationSettingContext(context), input),
    ),
    updateNotificationSetting: bind((context, id: string, input: Parameters<typeof updateNotificationSetting>[2]) =>
      updateNotificationSetting(notificationSettingContext(context), id, input),
    ),
    rotateNotificationSettingSecret: bind((context, id: string) =>
      rotateNotificationSettingSecret(notificationSettingContext(context), id),
    ),
    deleteNotificationSetting: bind(deleteNotificationSetting),
    getNotificationSetting: bind(getNotificationSetting),
    listNotificationSettings: bind(listNotificationSettings),
    getNotification: bind(getNotification),
    listNotifications: bind(listNotifications),
    listNotificationLogs: bind(listNotificationLogs),
    replayNotification: bind(replayNotification),
    /** The delivery worker's steps: fan events out to destinations, claim due notifications, record attempts. */
    fanOutEvents: (limit: number) => fanOutEvents(delivery, limit),
    claimDueNotifications: (input: ClaimInput) => claimDueNotifications(delivery, input),
    recordDeliveryAttempts: (attempts: readonly FinishedAttempt[]) => recordDeliveryAttempts(delivery, attempts),

    // Webhook simulations (ADR 1301).
    listSimulationTypes: async (caller: Caller) => listSimulationTypes(caller.account),
    createSimulation: bind((context, input: SimulationInput) => createSimulation(simulationContext(context), input)),
    updateSimulation: bind((context, id: string, input: SimulationInput) =>
      updateSimulation(simulationContext(context), id, input),
    ),
    getSimulation: bind(getSimulation),
    listSimulations: bind(listSimulations),
    createSimulationRun: bind((context, simulationId: string) =>
      createSimulationRun(simulationContext(context), simulationId),
    ),
    getSimulationRun: bind(getSimulationRun),
    listSimulationRuns: bind(listSimulationRuns),
    listRunEvents: bind(listRunEvents),
    listSimulationRunEvents: bind(listSimulationRunEvents),
    getSimulationRunEvent: bind(getSimulationRunEvent),
    replaySimulationRunEvent: bind(replaySimulationRunEvent),
    /** The simulation delivery worker's steps: claim due runs, record each delivery, close the run. */
    claimDueSimulationRuns: (options: { readonly limit: number; readonly leaseMs: number }) =>
      claimDueSimulationRuns({ store, wallClock }, options),
    recordSimulatedDelivery: (
      scope: Scope,
      event: SimulationRunEvent,
      requestBody: string,
      outcome: SimulatedDeliveryOutcome,
    ) => recordSimulatedDelivery({ store, wallClock }, scope, event, requestBody, outcome),
    finishSimulationRun: (claim: ClaimedSimulationRun) => finishSimulationRun({ store, wallClock }, claim),

    // Metrics (ADR 1302) and reports (ADR 1303).
    getMetrics: bind(getMetrics),
    createReport: bind(createReport),
    getReport: bind(getReport),
    listReports: bind(listReports),
    issueReportLink: bind(issueReportLink),
    /** The report behind a link whose signature the caller verified, refused once expired. */
    openReportLink: async (claims: ReportLinkClaims) => {
      const account = await store.accounts.findById(claims.accountId);
      if (!account) throw new BillingError('report_link_invalid', 'This report link is not valid.');
      const scope: Scope = { accountId: account.id, environment: claims.environment };
      const report = await requireDownloadableReport(await contextOf({ account, scope }), claims);
      return { report, readChunk: (sequence: number) => store.reports.readChunk(scope, report.id, sequence) };
    },
    /** The report worker's steps: claim a due report, generate its CSV. */
    claimDueReports: (options: { readonly limit: number; readonly leaseMs: number }) =>
      claimDueReports(reportGeneration, options),
    generateReport: (claim: ClaimedReport) => generateReport(reportGeneration, claim),
  };
}

/** Every use case, bound to its ports: what routes, workers and the CLI call. */
export type UseCases = ReturnType<typeof createUseCases>;
