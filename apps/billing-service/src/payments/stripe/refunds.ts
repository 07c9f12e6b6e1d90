/**
 * @module
 * Refunds through Stripe (ADR 1463): a refund adjustment made through the API is a Refund of the
 * PaymentIntent, keyed by the adjustment id, which its metadata also carries (so the
 * `charge.refunded` echo is known as Drawdown's own, ADR 1461).
 */
import type { RefundingProvider, RefundOutcome, RefundRequest } from '@drawdown/billing-core';
import Stripe from 'stripe';
import { type StripeAccount, stripeAmount } from './stripe-account.js';

export function stripeRefunds(account: StripeAccount): RefundingProvider {
  const { stripe } = account;
  return {
    /**
     * Stripe refusing the refund (`charge_already_refunded`, an amount above what is left, …) is a
     * failed refund: nothing went back. A lost answer throws.
     */
    async refund(request: RefundRequest): Promise<RefundOutcome> {
      // An amount Stripe cannot take is refused before anything is sent: nothing went back.
      if (!/^[1-9]\d{0,7}$/.test(request.amount)) {
        return {
          status: 'failed',
          refundRef: null,
          reason: `Stripe refunds 1 to 99999999 lowest units; ${request.amount} asked.`,
        };
      }
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: request.providerPaymentRef,
            amount: stripeAmount(request.amount),
            metadata: {
              drawdown_account_id: request.scope.accountId,
              drawdown_environment: request.scope.environment,
              drawdown_transaction_id: request.transactionId,
              drawdown_adjustment_id: request.adjustmentId,
            },
          },
          { idempotencyKey: request.adjustmentId },
        );
        return refundOutcomeOf(refund);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          return { status: 'failed', refundRef: null, reason: `${error.code ?? 'invalid_request'}: ${error.message}` };
        }
        throw error;
      }
    },

    /** The refund of the PaymentIntent whose metadata names the adjustment, if Stripe made one. */
    async findRefund(_scope, reference, adjustmentId): Promise<RefundOutcome | undefined> {
      for await (const refund of stripe.refunds.list({ payment_intent: reference, limit: 100 })) {
        if (refund.metadata?.drawdown_adjustment_id === adjustmentId) return refundOutcomeOf(refund);
      }
      return undefined;
    },
  };
}

/** What a Stripe Refund's status says: `succeeded`; `failed` or `canceled` (nothing went back); else not decided. */
export function refundOutcomeOf(refund: Stripe.Refund): RefundOutcome {
  if (refund.status === 'succeeded') return { status: 'succeeded', refundRef: refund.id };
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { status: 'failed', refundRef: refund.id, reason: refund.failure_reason ?? refund.status };
  }
  return { status: 'pending', refundRef: refund.id };
}
