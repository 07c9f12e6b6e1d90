/**
 * @module
 * Response schemas of payments and the customer portal (issues 14 and 17): saved payment methods,
 * checkout settings, provider notification acknowledgements, usage periods and portal sessions.
 */
import { z } from 'zod';
import { cardSummary, entity, id, nullableTimestamp, signedQuantity, timestamp } from './common.js';

export const PaymentMethod = entity(
  'PaymentMethod',
  'A payment method a customer saved for later charges; only a card summary, never its number.',
  z.strictObject({
    id: id('paymtd'),
    customer_id: id('ctm'),
    // Never null: a method is saved only by a checkout payment, which needs the customer's address.
    address_id: id('add'),
    type: z.literal('card'),
    card: cardSummary,
    paypal: z.null(),
    underlying_details: z.null(),
    origin: z.enum(['saved_during_purchase', 'subscription']),
    saved_at: timestamp,
    updated_at: timestamp,
  }),
);

/** What `payment_method.*` events carry: the public API's payment method notification, no card details. */
const paymentMethodEventFields = {
  id: id('paymtd'),
  customer_id: id('ctm'),
  address_id: id('add'),
  type: z.literal('card'),
  origin: z.enum(['saved_during_purchase', 'subscription']),
  saved_at: timestamp,
  updated_at: timestamp,
};

export const PaymentMethodSavedEventData = entity(
  'PaymentMethodSavedEventData',
  'A saved payment method as `payment_method.saved` carries it: who and how, never the card.',
  z.strictObject(paymentMethodEventFields),
);

export const PaymentMethodDeletedEventData = entity(
  'PaymentMethodDeletedEventData',
  'A deleted payment method as `payment_method.deleted` carries it, with why it was deleted.',
  z.strictObject({ ...paymentMethodEventFields, deletion_reason: z.enum(['replaced_by_newer_version', 'api']) }),
);

export const CheckoutSettings = entity(
  'CheckoutSettings',
  'The environment’s checkout settings: its default payment link (null for the page Drawdown serves), the link `checkout.url` starts with, what ends a payment recovery that recovered nothing, and where a finished checkout leads back to.',
  z.strictObject({
    default_payment_link: z.string().nullable(),
    /** What `checkout.url` starts with: the environment's own link, else the configured default. */
    effective_payment_link: z.string().nullable(),
    /** What ends a payment recovery that recovered nothing: the subscription canceled (the default) or paused. */
    dunning_exhausted_action: z.enum(['subscription_canceled', 'subscription_paused']),
    /** Where a finished checkout leads back to (ADR 1112); a checkout link's own return_url must share its origin. */
    return_url: z.string().nullable(),
    /** Null until the settings were first changed. */
    updated_at: nullableTimestamp,
  }),
);

export const ProviderNotificationAnswer = entity(
  'ProviderNotificationAnswer',
  'What a payment provider’s webhook was turned into: applied, a duplicate, ignored or for an unknown payment.',
  z.strictObject({
    notification_id: z.string(),
    kind: z.enum([
      'payment_succeeded',
      'payment_declined',
      'setup_succeeded',
      'payment_disputed',
      'payment_refunded',
      'dispute_closed',
      'fraud_warning',
      'ignored',
    ]),
    outcome: z.enum(['applied', 'duplicate', 'ignored', 'unknown_payment']),
  }),
);

export const BrowserCheckoutStart = entity(
  'BrowserCheckoutStart',
  'A payment the checkout page confirms with the provider’s browser library (Stripe.js): its client secret, never stored by Drawdown.',
  z.strictObject({
    payment_attempt_id: z.string(),
    kind: z.enum(['checkout', 'setup']),
    client_secret: z.string(),
  }),
);

export const UsagePeriod = entity(
  'UsagePeriod',
  'A usage balance’s usage in one billing period; `ends_at` is null for the running period.',
  z.strictObject({
    starts_at: timestamp,
    ends_at: nullableTimestamp,
    allowance: signedQuantity,
    used: signedQuantity,
    overage: signedQuantity,
  }),
);

export const PortalSession = entity(
  'PortalSession',
  'A customer portal session: authenticated links into the portal, valid for a short time.',
  z.strictObject({
    id: id('cpls'),
    customer_id: id('ctm'),
    urls: z.strictObject({
      general: z.strictObject({ overview: z.url() }),
      subscriptions: z.array(
        z.strictObject({
          id: id('sub'),
          cancel_subscription: z.url(),
          update_subscription_payment_method: z.url(),
        }),
      ),
    }),
    created_at: timestamp,
  }),
);

export const PortalSessionVerificationKey = entity(
  'PortalSessionVerificationKey',
  'What the billing portal checks a portal session token with before it asks the service (Drawdown, ADR 1443): the Ed25519 public key that signs tokens (32 bytes, base64url), and the account and environment of the key asking.',
  z.strictObject({
    account_id: id('acc'),
    environment: z.enum(['live', 'sandbox']),
    algorithm: z.literal('Ed25519'),
    public_key: z.string().regex(/^[A-Za-z\d_-]{43}$/),
  }),
);

export const PortalSessionGrant = entity(
  'PortalSessionGrant',
  'A verified portal session token (Drawdown): the customer and subscriptions it may show, until when.',
  z.strictObject({
    id: id('cpls'),
    customer_id: id('ctm'),
    subscription_ids: z.array(id('sub')),
    expires_at: timestamp,
  }),
);
