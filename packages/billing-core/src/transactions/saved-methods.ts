/**
 * @module
 * Saved payment methods (kept beside transactions, which name them in `payments[]`, and which
 * subscriptions charge; the payments folder saves and deletes them) (`paymtd_`): what a customer let a provider keep for later charges.
 * Drawdown keeps the provider's token and the card summary, never a card number (ADR 1410).
 * A deleted method stays stored with status `deleted` so that past payments still name it; it
 * is gone from every read.
 */
/** What Drawdown may keep of a card: never the number, only this summary. */
export interface CardSummary {
  /** The card brand as the public API names it: `visa`, `mastercard`, `american_express`, … or `unknown`. */
  readonly type: string;
  readonly last4: string;
  readonly expiryMonth: number;
  readonly expiryYear: number;
  readonly cardholderName: string;
}

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

/** The sandbox provider's name, stored with its attempts and saved methods. */
export const SANDBOX_PROVIDER = 'sandbox';

export type SandboxCardBehaviour = 'success' | 'challenge' | 'decline' | 'later_decline';

/** A saved sandbox method's token ends with its card's behaviour, so off-session charges need no lookup. */
export function sandboxBehaviourOf(providerMethodRef: string): SandboxCardBehaviour | undefined {
  const behaviour = providerMethodRef.slice(providerMethodRef.lastIndexOf('.') + 1);
  return ['success', 'challenge', 'decline', 'later_decline'].includes(behaviour)
    ? (behaviour as SandboxCardBehaviour)
    : undefined;
}

/** How an off-session charge of a saved sandbox method ends; undefined for a token that is not the sandbox's. */
export function sandboxOffSessionOutcome(providerMethodRef: string): 'success' | 'failure' | undefined {
  const behaviour = sandboxBehaviourOf(providerMethodRef);
  if (behaviour === undefined) return undefined;
  return behaviour === 'decline' || behaviour === 'later_decline' ? 'failure' : 'success';
}
