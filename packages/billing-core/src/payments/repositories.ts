/**
 * @module
 * Storage ports of payments: attempts, the sandbox provider's records, refunds at providers and
 * each account environment's provider settings.
 */

import type { InvoiceRepositories } from '../invoices/repositories.js';
import type { Collection } from '../shared/collection.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { SubscriptionSlice } from '../subscriptions/repositories.js';
import type { NotificationOutcome, ProviderRefundRecord, ProviderSettings, SandboxPayment } from './entities.js';
import type { PaymentAttempt, PaymentAttemptColumn } from './payment-attempt.js';

export interface PaymentAttemptRepository extends Collection<PaymentAttempt, PaymentAttemptColumn> {
  /** The attempt a provider's reference names, in whichever account it is (provider notifications). */
  findByProviderRef(
    provider: string,
    providerPaymentRef: string,
  ): Promise<{ readonly scope: Scope; readonly attempt: PaymentAttempt } | undefined>;
  /** The account whose transaction `transactionId` is, in `environment` (the public checkout page). */
  findTransactionAccount(environment: Environment, transactionId: string): Promise<string | undefined>;
  /**
   * The accounts with an attempt in flight in `environment` (`processing` or `requires_action`), or a capture
   * waiting for its refund (`refunding`): the recovery step's work list (ADRs 1426, 1468).
   */
  findInFlightAccounts(environment: Environment): Promise<string[]>;
}

export type SandboxPaymentColumn = 'id' | 'attempt_id';

/** The repositories payments own. */
export interface PaymentRepositories {
  readonly paymentAttempts: PaymentAttemptRepository;
  readonly sandboxPayments: Collection<SandboxPayment, SandboxPaymentColumn>;
  /** Refunds of provider payments: Drawdown's own, sent to the provider, and those made at it (ADR 1463). */
  readonly providerRefunds: ProviderRefundRepository;
  /** Each account environment's payment provider and credentials (ADR 1420). */
  readonly providerSettings: ProviderSettingsRepository;
  readonly providerCustomers: ProviderCustomerRepository;
  readonly providerNotifications: ProviderNotificationLog;
}

export interface ProviderSettingsRepository {
  find(scope: Scope): Promise<ProviderSettings | undefined>;
  save(scope: Scope, settings: ProviderSettings): Promise<void>;
  /** False when there was nothing to remove. */
  remove(scope: Scope): Promise<boolean>;
}

/** The provider's customer for each Drawdown customer it has charged (Stripe's `cus_…`). */
export interface ProviderCustomerRepository {
  find(scope: Scope, provider: string, customerId: string): Promise<string | undefined>;
  /**
   * Records the provider's customer for `customerId` unless one is recorded already (another
   * process got there first): returns the one recorded, which every caller then uses.
   */
  claim(scope: Scope, provider: string, customerId: string, providerCustomerId: string, at: string): Promise<string>;
}

/** Notifications already handled, by the provider's id (Stripe's `evt_…`): a replay changes nothing. */
export interface ProviderNotificationLog {
  /** Whether this notification was handled already. */
  seen(scope: Scope, provider: string, notificationRef: string): Promise<boolean>;
  /** Records it as handled; false when it was recorded already (a concurrent delivery won). */
  record(
    scope: Scope,
    provider: string,
    notification: { readonly ref: string; readonly kind: string; readonly outcome: NotificationOutcome },
    at: string,
  ): Promise<boolean>;
  /** Corrects what a recorded notification came to, once its effect is known (same database transaction). */
  settle(scope: Scope, provider: string, notificationRef: string, outcome: NotificationOutcome): Promise<void>;
}

export type ProviderRefundColumn = 'id' | 'transaction_id' | 'status' | 'provider_payment_ref';

export interface ProviderRefundRepository extends Collection<ProviderRefundRecord, ProviderRefundColumn> {
  /** The accounts with a refund still `processing` in `environment`: the recovery step's work list. */
  findProcessingAccounts(environment: Environment): Promise<string[]>;
}

/**
 * What payments use: their repositories, the subscriptions and transactions they charge, and the
 * seller's details, which name who a checkout's customer pays (issue 35).
 */
export interface PaymentSlice
  extends PaymentRepositories,
    SubscriptionSlice,
    Pick<InvoiceRepositories, 'sellerDetails'> {}

/** What the checkout's business details read: the VIES verdicts on VAT numbers (ADR 1113). */
export interface CheckoutBusinessSlice extends Pick<PaymentSlice, 'taxIdChecks'> {}
