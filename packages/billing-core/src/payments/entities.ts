/**
 * @module
 * What payments store besides attempts: the sandbox provider's payments, refunds at providers,
 * each account environment's provider settings and the outcomes of provider notifications.
 */
import type { ProviderMethod } from './payment-provider.js';

/** What Drawdown did with one provider notification. */
export type NotificationOutcome = 'applied' | 'ignored' | 'unknown_payment';

/** One refund of a provider's payment: Drawdown's own (id = its adjustment) or one made at the provider (ADR 1461). */
export interface ProviderRefundRecord {
  /** The adjustment (`adj_…`) the refund is recorded as. */
  readonly id: string;
  readonly transactionId: string;
  readonly provider: string;
  /** The attempt whose payment is refunded. */
  readonly paymentAttemptId: string;
  readonly providerPaymentRef: string;
  /** Lowest units, tax included. */
  readonly amount: string;
  readonly currencyCode: string;
  /** The provider's refund (`re_…`), once known. */
  readonly refundRef: string | null;
  readonly status: ProviderRefundStatus;
  /** `drawdown`: asked for through `POST /adjustments`; `provider`: made at the provider and recorded from its webhook. */
  readonly origin: 'drawdown' | 'provider';
  /** Why the provider refused, for a `failed` refund. */
  readonly failureReason: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The sandbox provider's record of one payment or setup. */
export interface SandboxPayment {
  readonly id: string;
  readonly attemptId: string;
  readonly method: ProviderMethod;
  /** `pending` while the challenge waits for the customer. */
  readonly status: 'pending' | 'succeeded' | 'declined';
  /** `canceled`: the challenge was abandoned and canceled before the customer answered it (ADR 1468). */
  readonly errorCode: 'declined' | 'authentication_failed' | 'canceled' | null;
}

export type ProviderRefundStatus = 'processing' | 'succeeded' | 'failed';

/** An account's Stripe credentials. */
export interface StripeProviderSettings {
  readonly provider: 'stripe';
  /** The secret (`sk_…`) or restricted (`rk_…`) API key. */
  readonly secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`). */
  readonly webhookSecret: string;
  /**
   * The publishable key (`pk_…`) Stripe.js is loaded with on the hosted checkout (ADR 1424);
   * null (or absent, in settings stored before it existed) means the page cannot take cards.
   */
  readonly publishableKey?: string | null;
  /** Where the Stripe API answers (`https://api.stripe.com` when null): a proxy, or a test server. */
  readonly apiBase: string | null;
  readonly updatedAt: string;
}

export type ProviderSettings = StripeProviderSettings;
