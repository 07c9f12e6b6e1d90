/**
 * @module
 * Holds through Stripe (ADR 1426): authorise now, capture after the change commits. A hold is a
 * PaymentIntent with `capture_method=manual`, confirmed off-session with the saved method and
 * keyed by the attempt id; capturing and releasing it answer how it stands when Stripe will not.
 */
import type { AuthorisationOutcome, AuthorisingProvider, OffSessionChargeRequest } from '@drawdown/billing-core';
import Stripe from 'stripe';
import { declinedBy, methodById, methodOf, paymentErrorCodeOf } from './cards.js';
import { attemptMetadata, type StripeAccount, stripeAmount, stripeCustomerOf } from './stripe-account.js';

export function stripeAuthorisations(account: StripeAccount): AuthorisingProvider {
  const { stripe } = account;
  const retrieve = (reference: string) => stripe.paymentIntents.retrieve(reference, { expand: ['payment_method'] });

  return {
    /**
     * A PaymentIntent with `capture_method=manual`, confirmed off-session with the saved method,
     * keyed by the attempt id. Stripe answers a repeated request with its first answer
     * (`Idempotent-Replayed: true`), which may be stale: the intent is then read as it is now.
     */
    async authorise(request: OffSessionChargeRequest): Promise<AuthorisationOutcome> {
      const customer = await stripeCustomerOf(account, request);
      let intent: Stripe.Response<Stripe.PaymentIntent>;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: stripeAmount(request.amount),
            currency: request.currencyCode.toLowerCase(),
            customer,
            payment_method: request.providerMethodRef,
            allowed_payment_method_types: ['card'],
            capture_method: 'manual',
            off_session: true,
            confirm: true,
            metadata: attemptMetadata(request, request.attemptId),
            expand: ['payment_method'],
          },
          { idempotencyKey: request.attemptId },
        );
      } catch (error) {
        const declined = declinedBy(error, 'payment_intent');
        if (declined) return declined;
        // Stripe refused the request itself (validated before anything is charged): no hold exists.
        // Only a lost answer may leave the attempt unknown, so this is answered as a decline.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          return { status: 'declined', providerPaymentRef: null, errorCode: 'invalid_payment_details', method: null };
        }
        throw error;
      }
      if (intent.lastResponse.headers['idempotent-replayed'] === 'true') {
        return authorisationOf(stripe, await retrieve(intent.id));
      }
      return authorisationOf(stripe, intent);
    },

    /** Captures the whole authorisation; one already captured, released or expired is answered as it stands. */
    async capture(_scope, reference, attemptId): Promise<AuthorisationOutcome> {
      try {
        return await authorisationOf(
          stripe,
          await stripe.paymentIntents.capture(
            reference,
            { expand: ['payment_method'] },
            { idempotencyKey: `${attemptId}-capture` },
          ),
        );
      } catch (error) {
        // `payment_intent_unexpected_state`: captured already, or canceled (released, or expired after 7 days).
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        return authorisationOf(stripe, await retrieve(reference));
      }
    },

    /** Cancels an intent (a hold, or a checkout's unconfirmed PaymentIntent or SetupIntent); one that cannot be canceled is answered as it stands. */
    async release(_scope, reference): Promise<AuthorisationOutcome> {
      if (reference.startsWith('seti_')) {
        let intent: Stripe.SetupIntent;
        try {
          intent = await stripe.setupIntents.cancel(reference);
        } catch (error) {
          if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
          intent = await stripe.setupIntents.retrieve(reference);
        }
        return intent.status === 'canceled'
          ? { status: 'voided', providerPaymentRef: intent.id }
          : { status: 'pending', providerPaymentRef: intent.id };
      }
      try {
        return await authorisationOf(
          stripe,
          await stripe.paymentIntents.cancel(reference, { expand: ['payment_method'] }),
        );
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        return authorisationOf(stripe, await retrieve(reference));
      }
    },
  };
}

/** What a PaymentIntent says of its money: held, taken, declined, released, or not decided. */
async function authorisationOf(stripe: Stripe, intent: Stripe.PaymentIntent): Promise<AuthorisationOutcome> {
  const lastError = intent.last_payment_error;
  switch (intent.status) {
    case 'requires_capture':
      return {
        status: 'authorised',
        providerPaymentRef: intent.id,
        method: await methodById(stripe, intent.payment_method),
      };
    case 'succeeded':
      return {
        status: 'captured',
        providerPaymentRef: intent.id,
        method: await methodById(stripe, intent.payment_method),
      };
    case 'canceled':
      return lastError
        ? {
            status: 'declined',
            providerPaymentRef: intent.id,
            errorCode: paymentErrorCodeOf(lastError),
            method: lastError.payment_method ? methodOf(lastError.payment_method) : null,
          }
        : { status: 'voided', providerPaymentRef: intent.id };
    case 'requires_payment_method':
    case 'requires_action':
      // Off-session nobody can authenticate: a card that asks for it is declined.
      if (lastError || intent.status === 'requires_action') {
        return {
          status: 'declined',
          providerPaymentRef: intent.id,
          errorCode: lastError ? paymentErrorCodeOf(lastError) : 'authentication_failed',
          method: lastError?.payment_method ? methodOf(lastError.payment_method) : null,
        };
      }
      return { status: 'pending', providerPaymentRef: intent.id };
    default:
      return { status: 'pending', providerPaymentRef: intent.id };
  }
}
