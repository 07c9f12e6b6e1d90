/**
 * @module
 * A live payment provider that answers asynchronously, configured for every account (the way an
 * embedder supplies one through `livePaymentProvider`): every payment it is asked for waits
 * (`pending`), and its notifications, JSON with a shared-secret header, settle them. It stands in
 * for a remote provider; the Stripe adapter's own tests speak Stripe's wire format.
 */
import { BillingError, type PaymentProvider, type ProviderNotification } from '@drawdown/billing-core';

const CARD = { type: 'mastercard', last4: '4444', expiryMonth: 1, expiryYear: 2040, cardholderName: 'Ada' };

/** Answers every payment `pending`; its notifications are JSON with a shared-secret header. */
export const remoteProvider: PaymentProvider = {
  name: 'remotepay',
  payCheckout: async (request) => ({ status: 'pending', providerPaymentRef: `rp_${request.attemptId}` }),
  chargeSavedMethod: async (request) => ({ status: 'pending', providerPaymentRef: `rp_${request.attemptId}` }),
  setUpMethod: async (request) => ({ status: 'pending', providerPaymentRef: `rp_${request.attemptId}` }),
  resumeAttempt: async (_scope, ref) => ({ status: 'pending', providerPaymentRef: ref }),
  // It decides on its own and cannot be stopped: a waiting payment stays waiting for its notification.
  cancelWaiting: async (_scope, ref) => ({ status: 'pending', providerPaymentRef: ref }),
  detachMethod: async () => {},
  async readNotification(incoming): Promise<ProviderNotification> {
    if (incoming.headers['x-remotepay-signature'] !== 'valid') {
      throw new BillingError('provider_notification_invalid', 'The signature does not verify.');
    }
    const body = JSON.parse(incoming.rawBody) as { id: string; type: string; ref: string };
    const method = { providerMethodRef: 'rpm_1', type: 'card' as const, card: CARD };
    if (body.type === 'succeeded') {
      return { kind: 'payment_succeeded', notificationRef: body.id, providerPaymentRef: body.ref, method };
    }
    return {
      kind: 'payment_declined',
      notificationRef: body.id,
      providerPaymentRef: body.ref,
      errorCode: 'declined',
      method,
    };
  },
};
