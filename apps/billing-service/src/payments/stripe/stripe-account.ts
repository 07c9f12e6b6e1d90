/**
 * @module
 * What every part of the Stripe provider shares (ADR 1421): one account's Stripe client and
 * settings, the metadata Drawdown writes on what it creates at Stripe (and reads back to know
 * its own), Stripe's integer amounts, and the one Stripe customer of each Drawdown customer.
 */
import {
  BillingError,
  type PaymentParty,
  type ProviderCustomerRepository,
  type Scope,
  type StripeProviderSettings,
} from '@drawdown/billing-core';
import Stripe from 'stripe';

/** The provider's name, stored with every attempt, saved method and provider customer. */
export const STRIPE_PROVIDER_NAME = 'stripe';

/** One account's Stripe, as each part of the provider (payments, holds, refunds, webhooks) uses it. */
export interface StripeAccount {
  readonly stripe: Stripe;
  readonly scope: Scope;
  readonly settings: StripeProviderSettings;
  readonly customers: ProviderCustomerRepository;
  /** The wall clock, in milliseconds. */
  now(): number;
}

/** The Stripe client for one account's settings: its key, and its API base when it is not Stripe's own. */
export function stripeClientFor(settings: StripeProviderSettings, networkRetries = 2): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  return new Stripe(settings.secretKey, {
    // The client sends a fresh Idempotency-Key on its own retries; ours (the attempt id) wins.
    maxNetworkRetries: networkRetries,
    timeout: 30_000,
    telemetry: false,
    appInfo: { name: 'Drawdown', url: 'https://drawdown.dev' },
    ...(base
      ? {
          protocol: base.protocol === 'http:' ? 'http' : 'https',
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? '80' : '443'),
        }
      : {}),
  });
}

/** Lowest units as Stripe's integer amount; Stripe takes at most 99,999,999 (and JSON numbers stay exact). */
export function stripeAmount(amount: string): number {
  // Checked as text first (one to eight digits, no leading zero), so the number is an exact integer.
  if (!/^[1-9]\d{0,7}$/.test(amount)) {
    throw new BillingError(
      'invalid_field',
      `Stripe charges from 1 to 99999999 of the lowest currency unit; ${amount} cannot be charged.`,
      [{ field: 'amount', message: 'must be from 1 to 99999999 lowest units for Stripe' }],
    );
  }
  return Number.parseInt(amount, 10);
}

/** The metadata of an intent Drawdown creates: whose it is and which attempt made it. */
export function attemptMetadata(party: PaymentParty, attemptId: string): Record<string, string> {
  return {
    drawdown_account_id: party.scope.accountId,
    drawdown_environment: party.scope.environment,
    drawdown_customer_id: party.customerId,
    drawdown_transaction_id: party.transactionId,
    drawdown_attempt_id: attemptId,
  };
}

/**
 * The metadata of an object at Stripe when Drawdown wrote it for this account and environment;
 * undefined for anyone else's (one Stripe account may serve several Drawdown accounts).
 */
export function ownMetadata(scope: Scope, metadata: Stripe.Metadata | null | undefined): Stripe.Metadata | undefined {
  if (metadata?.drawdown_account_id !== scope.accountId || metadata.drawdown_environment !== scope.environment) {
    return undefined;
  }
  return metadata;
}

/** The id of an object Stripe sends either as its id or expanded. */
export function idOf(reference: string | { readonly id: string } | null | undefined): string | undefined {
  return typeof reference === 'string' ? reference : reference?.id;
}

/** The Stripe customer of a Drawdown customer, made on first use (one per customer, however many processes ask). */
export async function stripeCustomerOf(account: StripeAccount, party: PaymentParty): Promise<string> {
  const { customers } = account;
  const known = await customers.find(party.scope, STRIPE_PROVIDER_NAME, party.customerId);
  if (known) return known;
  const created = await account.stripe.customers.create(
    {
      email: party.customerEmail,
      metadata: {
        drawdown_account_id: party.scope.accountId,
        drawdown_environment: party.scope.environment,
        drawdown_customer_id: party.customerId,
      },
    },
    { idempotencyKey: `drawdown-customer-${party.scope.accountId}-${party.scope.environment}-${party.customerId}` },
  );
  return customers.claim(
    party.scope,
    STRIPE_PROVIDER_NAME,
    party.customerId,
    created.id,
    new Date(account.now()).toISOString(),
  );
}
