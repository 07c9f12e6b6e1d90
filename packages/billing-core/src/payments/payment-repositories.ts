/**
 * @module
 * Storage ports of payments: saved methods, attempts, the sandbox provider's records and the
 * checkout settings of each account environment.
 */
import type { Collection } from '../shared/collection.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { PaymentMethod, PaymentMethodColumn } from '../transactions/saved-methods.js';
import type { PaymentAttempt, PaymentAttemptColumn } from './payment-attempt.js';
import type { ProviderRefundRepository } from './provider-refunds.js';
import type { SandboxPayment } from './sandbox-provider.js';

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

/** What happens to a subscription whose payment recovery is exhausted: the public API's two choices. */
export type DunningExhaustedAction = 'subscription_canceled' | 'subscription_paused';

export type SandboxPaymentColumn = 'id' | 'attempt_id';

/** One row per account environment (id `checkout`). */
export interface CheckoutSettings {
  readonly id: 'checkout';
  /** The account's default payment link; null for the page Drawdown serves. */
  readonly defaultPaymentLink: string | null;
  /** What ends a payment recovery that recovered nothing (ADR 1460); absent in rows written before it: cancel. */
  readonly dunningExhaustedAction?: DunningExhaustedAction | undefined;
  readonly updatedAt: string;
}

export interface PaymentRepositories {
  readonly paymentMethods: Collection<PaymentMethod, PaymentMethodColumn>;
  readonly paymentAttempts: PaymentAttemptRepository;
  readonly sandboxPayments: Collection<SandboxPayment, SandboxPaymentColumn>;
  readonly checkoutSettings: Collection<CheckoutSettings, 'id'>;
  /** Refunds of provider payments: Drawdown's own, sent to the provider, and those made at it (ADR 1463). */
  readonly providerRefunds: ProviderRefundRepository;
}
