/**
 * @module
 * The Stripe payment provider (ADR 1421): one account's Stripe, through the official `stripe`
 * client. Composes the provider's parts, each a module of `stripe/`: payments (checkouts,
 * off-session charges and method updates as PaymentIntents and SetupIntents, confirmed by the
 * server with the attempt id as Idempotency-Key; the hosted checkout's intents; canceling one
 * that waits), holds (ADR 1426), refunds (ADR 1463) and webhooks (verified with the client's own
 * `webhooks.constructEvent` and read as the port's neutral notifications). Each Drawdown customer
 * gets one Stripe customer (stored mapping). Only card summaries (brand, last four, expiry,
 * holder) ever leave Stripe.
 */
import type {
  AuthorisingProvider,
  BrowserConfirmation,
  PaymentProvider,
  ProviderCustomerRepository,
  RefundingProvider,
  Scope,
  StripeProviderSettings,
} from '@drawdown/billing-core';
import { stripeAuthorisations } from './stripe/authorisations.js';
import { stripePayments } from './stripe/payments.js';
import { stripeRefunds } from './stripe/refunds.js';
import { STRIPE_PROVIDER_NAME, type StripeAccount, stripeClientFor } from './stripe/stripe-account.js';
import { stripeWebhooks } from './stripe/webhooks.js';

export interface StripeProviderDependencies {
  readonly scope: Scope;
  readonly settings: StripeProviderSettings;
  readonly customers: ProviderCustomerRepository;
  /** The wall clock, in milliseconds: webhook signatures are checked against it. */
  now(): number;
  /** Retries of a request whose answer did not come; 2, the Stripe client's own default, when absent. */
  readonly networkRetries?: number;
}

export class StripeProvider implements PaymentProvider {
  readonly name = STRIPE_PROVIDER_NAME;
  /** Stripe.js's Payment Element takes the card on the hosted checkout (ADR 1424). */
  readonly browser: BrowserConfirmation;
  /** Authorise now, capture after the change commits (ADR 1426): PaymentIntents with `capture_method=manual`. */
  readonly authorisation: AuthorisingProvider;
  /** Refund adjustments made through the API (ADR 1463): Refunds of the PaymentIntent, keyed by the adjustment id. */
  readonly refunds: RefundingProvider;
  readonly payCheckout: PaymentProvider['payCheckout'];
  readonly chargeSavedMethod: PaymentProvider['chargeSavedMethod'];
  readonly setUpMethod: PaymentProvider['setUpMethod'];
  readonly resumeAttempt: PaymentProvider['resumeAttempt'];
  readonly cancelWaiting: PaymentProvider['cancelWaiting'];
  readonly findAttemptPayment: NonNullable<PaymentProvider['findAttemptPayment']>;
  readonly detachMethod: PaymentProvider['detachMethod'];
  readonly readNotification: PaymentProvider['readNotification'];

  constructor(dependencies: StripeProviderDependencies) {
    const account: StripeAccount = {
      stripe: stripeClientFor(dependencies.settings, dependencies.networkRetries),
      scope: dependencies.scope,
      settings: dependencies.settings,
      customers: dependencies.customers,
      now: dependencies.now,
    };
    const payments = stripePayments(account);
    this.browser = payments.browser;
    this.payCheckout = payments.payCheckout;
    this.chargeSavedMethod = payments.chargeSavedMethod;
    this.setUpMethod = payments.setUpMethod;
    this.resumeAttempt = payments.resumeAttempt;
    this.cancelWaiting = payments.cancelWaiting;
    this.findAttemptPayment = payments.findAttemptPayment;
    this.detachMethod = payments.detachMethod;
    this.authorisation = stripeAuthorisations(account);
    this.refunds = stripeRefunds(account);
    this.readNotification = stripeWebhooks(account, payments).readNotification;
  }
}
