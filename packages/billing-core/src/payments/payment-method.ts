/**
 * @module
 * Saved payment methods (`paymtd_`): what a customer let a provider keep for later charges.
 * Drawdown keeps the provider's token and the card summary, never a card number (ADR 1410).
 * A deleted method stays stored with status `deleted` so that past payments still name it; it
 * is gone from every read.
 */
import type { CardSummary } from './payment-provider.js';

export const PAYMENT_METHOD_ORIGINS = ['saved_during_purchase', 'subscription'] as const;
export type PaymentMethodOrigin = (typeof PAYMENT_METHOD_ORIGINS)[number];

export type PaymentMethodColumn = 'id' | 'customer_id' | 'address_id' | 'status';

export interface PaymentMethod {
  readonly id: string;
  readonly customerId: string;
  readonly addressId: string | null;
  readonly type: 'card';
  readonly card: CardSummary;
  readonly paypal: null;
  readonly underlyingDetails: null;
  readonly origin: PaymentMethodOrigin;
  readonly savedAt: string;
  readonly updatedAt: string;
  /** Service-only: which provider keeps it, under which token, and whether it was deleted. */
  readonly internal: {
    readonly provider: string;
    readonly providerMethodRef: string;
    readonly status: 'saved' | 'deleted';
  };
}

/** The wire entity (`payment_method.saved` / `.deleted` data, the API's payment method). */
export function paymentMethodWire(method: PaymentMethod, deletionReason?: 'api' | 'replaced_by_newer_version') {
  const { internal: _internal, ...wire } = method;
  return deletionReason === undefined ? wire : { ...wire, deletionReason };
}
