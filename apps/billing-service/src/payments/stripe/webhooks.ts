/**
 * @module
 * Stripe's webhooks as the port's neutral notifications (ADR 1421). A webhook is verified with
 * the client's own `webhooks.constructEvent` (its signature, and at most five minutes old), its
 * envelope checked (ADR 1482), and its event read by the one small function of its family:
 * intents, refunds, disputes and fraud warnings. Objects another Drawdown account made at the
 * same Stripe account are read as nobody's (their metadata names their owner).
 */
import {
  BillingError,
  type IncomingNotification,
  type PaymentProvider,
  type ProviderNotification,
} from '@drawdown/billing-core';
import Stripe from 'stripe';
import { methodById, methodOf, paymentErrorCodeOf } from './cards.js';
import { malformedStripeNotification, verifiedStripeEvent } from './event-shape.js';
import { refundOutcomeOf } from './refunds.js';
import { idOf, ownMetadata, type StripeAccount } from './stripe-account.js';

/** How old a webhook's signature may be, in seconds (Stripe's own default). */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** What reading one event needs: the account, the attempt as it stands now, and the event's id. */
interface Reading {
  readonly account: StripeAccount;
  readonly resumeAttempt: PaymentProvider['resumeAttempt'];
  readonly notificationRef: string;
}

export function stripeWebhooks(
  account: StripeAccount,
  payments: Pick<PaymentProvider, 'resumeAttempt'>,
): Pick<PaymentProvider, 'readNotification'> {
  return {
    async readNotification(incoming: IncomingNotification): Promise<ProviderNotification> {
      const event = verifiedEvent(account, incoming);
      return notificationOf(event, { account, resumeAttempt: payments.resumeAttempt, notificationRef: event.id });
    },
  };
}

function verifiedEvent(account: StripeAccount, incoming: IncomingNotification): Stripe.Event {
  const signature = incoming.headers['stripe-signature'];
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error('no Stripe-Signature header');
    event = account.stripe.webhooks.constructEvent(
      incoming.rawBody,
      signature,
      account.settings.webhookSecret,
      STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      account.now(),
    );
  } catch (error) {
    // constructEvent parses the body only once its signature verified (ADR 1482).
    if (error instanceof SyntaxError) throw malformedStripeNotification('the body is not JSON');
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new BillingError(
      'provider_notification_invalid',
      `This Stripe webhook does not verify with the account's signing secret, or its signature is older than ${STRIPE_WEBHOOK_TOLERANCE_SECONDS} seconds: ${reason}`,
    );
  }
  return verifiedStripeEvent(event);
}

/** The event read by its family's function; every other event type is acknowledged and ignored. */
function notificationOf(event: Stripe.Event, reading: Reading): Promise<ProviderNotification> {
  switch (event.type) {
    case 'payment_intent.succeeded':
      return paymentSucceeded(event.data.object, reading);
    case 'payment_intent.payment_failed':
      return paymentFailed(event.data.object, reading);
    case 'setup_intent.succeeded':
      return setupSucceeded(event.data.object, reading);
    case 'setup_intent.setup_failed':
      return Promise.resolve(setupFailed(event.data.object, reading));
    case 'charge.refunded':
      return chargeRefunded(event.data.object, reading);
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated':
      return Promise.resolve(refundUpdated(event.data.object as Stripe.Refund, reading));
    case 'charge.dispute.created':
      return Promise.resolve(disputeCreated(event.data.object, reading));
    case 'charge.dispute.closed':
      return Promise.resolve(disputeClosed(event.data.object, reading));
    case 'radar.early_fraud_warning.created':
      return Promise.resolve(fraudWarning(event.data.object, reading));
    default:
      return Promise.resolve(ignored(reading));
  }
}

function ignored({ notificationRef }: Reading): ProviderNotification {
  return { kind: 'ignored', notificationRef };
}

/** The attempt id Drawdown put in an intent's (or charge's) metadata, when it is this account's. */
function attemptOf(reading: Reading, metadata: Stripe.Metadata | null | undefined): string | undefined {
  return ownMetadata(reading.account.scope, metadata)?.drawdown_attempt_id;
}

// Intents: a checkout's or a charge's PaymentIntent, a method update's SetupIntent.

async function paymentSucceeded(intent: Stripe.PaymentIntent, reading: Reading): Promise<ProviderNotification> {
  return {
    kind: 'payment_succeeded',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent.id,
    attemptId: attemptOf(reading, intent.metadata),
    method: await methodById(reading.account.stripe, intent.payment_method),
  };
}

async function paymentFailed(intent: Stripe.PaymentIntent, reading: Reading): Promise<ProviderNotification> {
  const { notificationRef } = reading;
  const failed = intent.last_payment_error?.payment_method;
  const attemptId = attemptOf(reading, intent.metadata);
  if (attemptId !== undefined) {
    // The intent as it is now, declined ones canceled (a stale tab cannot charge them later):
    // the customer may have confirmed it again since this event was sent.
    const now = await reading.resumeAttempt(reading.account.scope, intent.id);
    if (now.status === 'succeeded') {
      return {
        kind: 'payment_succeeded',
        notificationRef,
        providerPaymentRef: intent.id,
        attemptId,
        method: now.method,
      };
    }
    if (now.status !== 'declined') return ignored(reading);
  }
  return {
    kind: 'payment_declined',
    notificationRef,
    providerPaymentRef: intent.id,
    attemptId,
    errorCode: paymentErrorCodeOf(intent.last_payment_error ?? null),
    method: failed ? methodOf(failed) : null,
  };
}

async function setupSucceeded(intent: Stripe.SetupIntent, reading: Reading): Promise<ProviderNotification> {
  return {
    kind: 'setup_succeeded',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent.id,
    attemptId: attemptOf(reading, intent.metadata),
    method: await methodById(reading.account.stripe, intent.payment_method),
  };
}

function setupFailed(intent: Stripe.SetupIntent, reading: Reading): ProviderNotification {
  const failed = intent.last_setup_error?.payment_method;
  return {
    kind: 'payment_declined',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent.id,
    attemptId: attemptOf(reading, intent.metadata),
    errorCode: paymentErrorCodeOf(intent.last_setup_error ?? null),
    method: failed ? methodOf(failed) : null,
  };
}

// Refunds: one made in Stripe's dashboard (or Drawdown's, echoed), and a refund's status changing.

/** A refund made in Stripe's dashboard (or by Drawdown, its echo): every refund of the charge so far (ADR 1461). */
async function chargeRefunded(charge: Stripe.Charge, reading: Reading): Promise<ProviderNotification> {
  const intent = idOf(charge.payment_intent);
  if (!intent) return ignored(reading);
  const refunds = await reading.account.stripe.refunds
    .list({ charge: charge.id, limit: 100 })
    .catch((error: unknown) => {
      // A charge Stripe does not know for this key: nothing of it to record (the payment is unknown too).
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return { data: [] as Stripe.Refund[] };
      throw error;
    });
  return {
    kind: 'payment_refunded',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent,
    attemptId: attemptOf(reading, charge.metadata),
    refunds: refunds.data
      .filter((refund) => refund.status === 'succeeded')
      .map((refund) => ({
        refundRef: refund.id,
        amount: String(refund.amount),
        drawdownAdjustmentId: refund.metadata?.drawdown_adjustment_id ?? null,
      })),
  };
}

/** A refund's status changed: only Drawdown's own are acted on (ADR 1463). */
function refundUpdated(refund: Stripe.Refund, reading: Reading): ProviderNotification {
  const intent = idOf(refund.payment_intent);
  const adjustmentId = ownMetadata(reading.account.scope, refund.metadata)?.drawdown_adjustment_id;
  if (!intent || adjustmentId === undefined) return ignored(reading);
  const outcome = refundOutcomeOf(refund);
  return {
    kind: 'refund_updated',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent,
    refundRef: refund.id,
    drawdownAdjustmentId: adjustmentId,
    status: outcome.status,
    reason: outcome.status === 'failed' ? outcome.reason : null,
  };
}

// Disputes and fraud warnings.

function disputeCreated(dispute: Stripe.Dispute, reading: Reading): ProviderNotification {
  const intent = idOf(dispute.payment_intent);
  if (!intent) return ignored(reading);
  return {
    kind: 'payment_disputed',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent,
    amount: String(dispute.amount),
    reason: dispute.reason,
  };
}

function disputeClosed(dispute: Stripe.Dispute, reading: Reading): ProviderNotification {
  const intent = idOf(dispute.payment_intent);
  if (!intent) return ignored(reading);
  return {
    kind: 'dispute_closed',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent,
    disputeRef: dispute.id,
    outcome: dispute.status === 'won' ? 'won' : dispute.status === 'lost' ? 'lost' : 'other',
  };
}

function fraudWarning(warning: Stripe.Radar.EarlyFraudWarning, reading: Reading): ProviderNotification {
  const intent = idOf(warning.payment_intent);
  if (!intent) return ignored(reading);
  return {
    kind: 'fraud_warning',
    notificationRef: reading.notificationRef,
    providerPaymentRef: intent,
    warningRef: warning.id,
    fraudType: warning.fraud_type,
  };
}
