/**
 * @module
 * Payments through Stripe (ADR 1421): a checkout's card and an off-session charge are
 * PaymentIntents, a method update a SetupIntent, each created and confirmed in one call with the
 * attempt id as Idempotency-Key, so a retried call never charges twice; the hosted checkout's
 * unconfirmed intents that Stripe.js confirms in the browser (ADR 1424); reading an attempt as it
 * stands, canceling one that waits (ADR 1468), and finding an attempt's intent by its metadata
 * (ADR 1466).
 */
import type {
  BrowserConfirmation,
  BrowserPayment,
  BrowserPaymentRequest,
  CheckoutPaymentRequest,
  OffSessionChargeRequest,
  PaymentOutcome,
  PaymentProvider,
  Scope,
  SetupRequest,
} from '@drawdown/billing-core';
import Stripe from 'stripe';
import { declinedBy, methodById, methodOf, paymentErrorCodeOf, tokenOf } from './cards.js';
import { attemptMetadata, type StripeAccount, stripeAmount, stripeCustomerOf } from './stripe-account.js';

type PaymentIntent = Stripe.PaymentIntent;
type SetupIntent = Stripe.SetupIntent;

/** The provider's payments: every method of the port but the notifications, holds and refunds. */
export type StripePayments = Pick<
  PaymentProvider,
  'payCheckout' | 'chargeSavedMethod' | 'setUpMethod' | 'resumeAttempt' | 'cancelWaiting' | 'detachMethod'
> & {
  findAttemptPayment(scope: Scope, attemptId: string): Promise<string | undefined>;
  /** Stripe.js's Payment Element takes the card on the hosted checkout (ADR 1424). */
  readonly browser: BrowserConfirmation;
};

export function stripePayments(account: StripeAccount): StripePayments {
  const { stripe } = account;

  async function paymentIntentOutcome(call: () => Promise<PaymentIntent>): Promise<PaymentOutcome> {
    try {
      return await intentOutcome(account, await call());
    } catch (error) {
      const declined = declinedBy(error, 'payment_intent');
      if (declined) return declined;
      throw error;
    }
  }

  async function resumeAttempt(_scope: Scope, providerPaymentRef: string): Promise<PaymentOutcome> {
    if (providerPaymentRef.startsWith('seti_')) {
      const intent = await stripe.setupIntents.retrieve(providerPaymentRef, { expand: ['payment_method'] });
      return closeDeclined(account, intent, await setupOutcome(account, intent));
    }
    const intent = await stripe.paymentIntents.retrieve(providerPaymentRef, { expand: ['payment_method'] });
    return closeDeclined(account, intent, await intentOutcome(account, intent));
  }

  return {
    browser: {
      publishableKey: account.settings.publishableKey ?? null,
      createBrowserPayment: (request) => createBrowserPayment(account, request),
    },

    async payCheckout(request: CheckoutPaymentRequest): Promise<PaymentOutcome> {
      const paymentMethod = tokenOf(request.method);
      const customer = await stripeCustomerOf(account, request);
      return paymentIntentOutcome(() =>
        stripe.paymentIntents.create(
          {
            amount: stripeAmount(request.amount),
            currency: request.currencyCode.toLowerCase(),
            customer,
            payment_method: paymentMethod,
            allowed_payment_method_types: ['card'],
            confirm: true,
            return_url: request.returnUrl,
            ...(request.saveMethod ? { setup_future_usage: 'off_session' as const } : {}),
            metadata: attemptMetadata(request, request.attemptId),
            expand: ['payment_method'],
          },
          { idempotencyKey: request.attemptId },
        ),
      );
    },

    async chargeSavedMethod(request: OffSessionChargeRequest): Promise<PaymentOutcome> {
      const customer = await stripeCustomerOf(account, request);
      return paymentIntentOutcome(() =>
        stripe.paymentIntents.create(
          {
            amount: stripeAmount(request.amount),
            currency: request.currencyCode.toLowerCase(),
            customer,
            payment_method: request.providerMethodRef,
            allowed_payment_method_types: ['card'],
            off_session: true,
            confirm: true,
            metadata: attemptMetadata(request, request.attemptId),
            expand: ['payment_method'],
          },
          { idempotencyKey: request.attemptId },
        ),
      );
    },

    async setUpMethod(request: SetupRequest): Promise<PaymentOutcome> {
      const paymentMethod = tokenOf(request.method);
      const customer = await stripeCustomerOf(account, request);
      try {
        const intent = await stripe.setupIntents.create(
          {
            customer,
            payment_method: paymentMethod,
            allowed_payment_method_types: ['card'],
            usage: 'off_session',
            confirm: true,
            return_url: request.returnUrl,
            metadata: attemptMetadata(request, request.attemptId),
            expand: ['payment_method'],
          },
          { idempotencyKey: request.attemptId },
        );
        return setupOutcome(account, intent);
      } catch (error) {
        const declined = declinedBy(error, 'setup_intent');
        if (declined) return declined;
        throw error;
      }
    },

    resumeAttempt,

    /**
     * Cancels a checkout's PaymentIntent or SetupIntent that waits for the customer (ADR 1468); one
     * Stripe will not cancel (succeeded, processing, canceled already) is answered as it stands.
     */
    async cancelWaiting(scope: Scope, providerPaymentRef: string): Promise<PaymentOutcome> {
      try {
        if (providerPaymentRef.startsWith('seti_')) await stripe.setupIntents.cancel(providerPaymentRef);
        else await stripe.paymentIntents.cancel(providerPaymentRef);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
      return resumeAttempt(scope, providerPaymentRef);
    },

    async findAttemptPayment(scope: Scope, attemptId: string): Promise<string | undefined> {
      // Drawdown's ids are letters, digits and underscores: nothing to escape in the query.
      if (!/^[A-Za-z0-9_]+$/.test(attemptId)) throw new Error(`unexpected attempt id ${attemptId}`);
      const found = await stripe.paymentIntents.search({
        query: `metadata['drawdown_attempt_id']:'${attemptId}'`,
        limit: 10,
      });
      // One Stripe account may serve several Drawdown accounts: the metadata names the owner too.
      return found.data.find(
        (intent) =>
          intent.metadata?.drawdown_attempt_id === attemptId &&
          intent.metadata?.drawdown_account_id === scope.accountId,
      )?.id;
    },

    async detachMethod(_scope: Scope, providerMethodRef: string): Promise<void> {
      try {
        await stripe.paymentMethods.detach(providerMethodRef);
      } catch (error) {
        // Already detached (or deleted at Stripe): there is nothing left to forget.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw error;
      }
    },
  };
}

/**
 * An unconfirmed PaymentIntent (or, for a zero balance, SetupIntent) that Stripe.js confirms
 * in the customer's browser. Created with the attempt id as Idempotency-Key and the same
 * parameters every time, so asking again answers the same intent and its client secret.
 */
async function createBrowserPayment(account: StripeAccount, request: BrowserPaymentRequest): Promise<BrowserPayment> {
  const { stripe } = account;
  const customer = await stripeCustomerOf(account, request);
  const metadata = attemptMetadata(request, request.attemptId);
  if (request.kind === 'setup') {
    const intent = await stripe.setupIntents.create(
      { customer, allowed_payment_method_types: ['card'], usage: 'off_session', metadata },
      { idempotencyKey: request.attemptId },
    );
    return { providerPaymentRef: intent.id, clientSecret: clientSecretOf(intent.client_secret) };
  }
  const intent = await stripe.paymentIntents.create(
    {
      amount: stripeAmount(request.amount),
      currency: request.currencyCode.toLowerCase(),
      customer,
      allowed_payment_method_types: ['card'],
      ...(request.saveMethod ? { setup_future_usage: 'off_session' as const } : {}),
      metadata,
    },
    { idempotencyKey: request.attemptId },
  );
  return { providerPaymentRef: intent.id, clientSecret: clientSecretOf(intent.client_secret) };
}

/**
 * A declined intent stays confirmable at Stripe (`requires_payment_method`), but Drawdown's
 * attempt is final: the intent is canceled so a stale browser tab cannot charge it. When it
 * changed meanwhile (the customer confirmed it again), its new outcome is answered instead.
 */
async function closeDeclined(
  account: StripeAccount,
  intent: PaymentIntent | SetupIntent,
  outcome: PaymentOutcome,
): Promise<PaymentOutcome> {
  const { stripe } = account;
  if (outcome.status !== 'declined' || intent.status !== 'requires_payment_method') return outcome;
  try {
    if (intent.object === 'setup_intent') await stripe.setupIntents.cancel(intent.id);
    else await stripe.paymentIntents.cancel(intent.id);
    return outcome;
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    if (intent.object === 'setup_intent') {
      return setupOutcome(account, await stripe.setupIntents.retrieve(intent.id, { expand: ['payment_method'] }));
    }
    const fresh = await stripe.paymentIntents.retrieve(intent.id, { expand: ['payment_method'] });
    return fresh.status === 'canceled' ? outcome : intentOutcome(account, fresh);
  }
}

function intentOutcome(account: StripeAccount, intent: PaymentIntent): Promise<PaymentOutcome> {
  return outcomeOf(account, intent, intent.last_payment_error);
}

function setupOutcome(account: StripeAccount, intent: SetupIntent): Promise<PaymentOutcome> {
  return outcomeOf(account, intent, intent.last_setup_error);
}

/** What a PaymentIntent or a SetupIntent says happened: the two share their statuses. */
async function outcomeOf(
  account: StripeAccount,
  intent: PaymentIntent | SetupIntent,
  lastError: PaymentIntent['last_payment_error'] | SetupIntent['last_setup_error'],
): Promise<PaymentOutcome> {
  switch (intent.status) {
    case 'succeeded':
      return {
        status: 'succeeded',
        providerPaymentRef: intent.id,
        method: await methodById(account.stripe, intent.payment_method),
      };
    case 'requires_action': {
      // Stripe.js authenticates in the page itself (`use_stripe_sdk`): nothing to send the customer to.
      const url = intent.next_action?.redirect_to_url?.url;
      return url
        ? { status: 'requires_action', providerPaymentRef: intent.id, actionUrl: url }
        : { status: 'pending', providerPaymentRef: intent.id };
    }
    case 'requires_payment_method':
      if (lastError) {
        const failed = lastError.payment_method;
        return {
          status: 'declined',
          providerPaymentRef: intent.id,
          errorCode: paymentErrorCodeOf(lastError),
          method: failed ? methodOf(failed) : null,
        };
      }
      return { status: 'pending', providerPaymentRef: intent.id };
    case 'canceled':
      // Drawdown cancels a declined intent (closeDeclined): the decline is still what happened.
      return {
        status: 'declined',
        providerPaymentRef: intent.id,
        errorCode: lastError ? paymentErrorCodeOf(lastError) : 'canceled',
        method: lastError?.payment_method ? methodOf(lastError.payment_method) : null,
      };
    default:
      return { status: 'pending', providerPaymentRef: intent.id };
  }
}

function clientSecretOf(secret: string | null): string {
  if (!secret) throw new Error('Stripe answered an intent without its client secret');
  return secret;
}
