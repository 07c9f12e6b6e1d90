/**
 * @module
 * The sandbox payment provider (ADR 1411): the public API's documented sandbox test cards, and
 * nothing else. It moves no money. A payment's outcome follows from the card:
 *
 * | card | on a checkout | off-session (renewals, changes) |
 * |---|---|---|
 * | 4242 4242 4242 4242, 4000 0566 5566 5556 | succeeds | succeeds |
 * | 4000 0038 0000 0446 | asks for 3-D Secure: a challenge page to pass or fail | succeeds |
 * | 4000 0000 0000 0002 | declined | declined |
 * | 4000 0027 6000 3184 | succeeds | declined ("initial success, subsequent decline") |
 *
 * Any other number is refused (`payment_method_input_invalid`): the sandbox takes only test
 * cards. The provider's records (`sandboxPayments`) hold the card summary and the challenge's
 * state, never the number.
 */
import { BillingError } from '../shared/billing-error.js';
import type { StoreOf } from '../shared/context.js';
import type { IdGenerator } from '../shared/ids.js';
import type { Scope } from '../shared/scope.js';
import {
  type CardSummary,
  SANDBOX_PROVIDER,
  type SandboxCardBehaviour,
  sandboxOffSessionOutcome,
} from '../transactions/saved-methods.js';
import type { SandboxPayment } from './entities.js';
import type { MethodInput, PaymentOutcome, PaymentProvider, ProviderMethod } from './payment-provider.js';
import type { PaymentSlice } from './repositories.js';

type Behaviour = SandboxCardBehaviour;

export const SANDBOX_TEST_CARDS: Readonly<Record<string, { readonly brand: string; readonly behaviour: Behaviour }>> = {
  '4242424242424242': { brand: 'visa', behaviour: 'success' },
  '4000056655665556': { brand: 'visa', behaviour: 'success' },
  '4000003800000446': { brand: 'visa', behaviour: 'challenge' },
  '4000000000000002': { brand: 'visa', behaviour: 'decline' },
  '4000002760003184': { brand: 'visa', behaviour: 'later_decline' },
};

function methodRef(ids: IdGenerator, behaviour: Behaviour): string {
  return `${ids.newId('sbxpm')}.${behaviour}`;
}

function refuse(detail: string, field: string): never {
  throw new BillingError('payment_method_input_invalid', detail, [{ field, message: detail }]);
}

/** Reads test-card fields into a method and its behaviour; anything but a test card is refused. */
function readCard(ids: IdGenerator, input: MethodInput): { method: ProviderMethod; behaviour: Behaviour } {
  if (input.kind !== 'card_fields') {
    refuse('The sandbox provider takes card details from its own checkout page only.', 'card_number');
  }
  const number = input.number.replace(/[\s-]/g, '');
  const card = SANDBOX_TEST_CARDS[number];
  if (!card) {
    refuse(
      'The sandbox accepts only its test cards: 4242 4242 4242 4242 (success), 4000 0038 0000 0446 (3-D Secure), 4000 0000 0000 0002 (declined).',
      'card_number',
    );
  }
  if (!/^\d{3,4}$/.test(input.cvc)) refuse('The security code is three or four digits.', 'card_cvc');
  const cardholderName = input.cardholderName.trim();
  if (cardholderName.length === 0 || cardholderName.length > 200) {
    refuse('The name on the card is required (at most 200 characters).', 'cardholder_name');
  }
  const summary: CardSummary = {
    type: card.brand,
    last4: number.slice(-4),
    expiryMonth: input.expiryMonth,
    expiryYear: input.expiryYear,
    cardholderName,
  };
  return {
    method: { providerMethodRef: methodRef(ids, card.behaviour), type: 'card', card: summary },
    behaviour: card.behaviour,
  };
}

function outcomeOf(payment: SandboxPayment, challengeUrl: string): PaymentOutcome {
  switch (payment.status) {
    case 'succeeded':
      return { status: 'succeeded', providerPaymentRef: payment.id, method: payment.method };
    case 'declined':
      return {
        status: 'declined',
        providerPaymentRef: payment.id,
        errorCode: payment.errorCode ?? 'declined',
        method: payment.method,
      };
    case 'pending':
      return { status: 'requires_action', providerPaymentRef: payment.id, actionUrl: challengeUrl };
  }
}

/** The challenge page of a sandbox payment, relative to the environment's checkout address. */
export function sandboxChallengePath(providerPaymentRef: string): string {
  return `/checkout/sandbox-authentication/${providerPaymentRef}`;
}

export interface SandboxProvider extends PaymentProvider {
  /** The customer passed or failed the 3-D Secure challenge of `providerPaymentRef`. */
  answerChallenge(tx: PaymentSlice, scope: Scope, providerPaymentRef: string, passed: boolean): Promise<void>;
  /** A sandbox payment waiting on its challenge, or undefined. */
  findPayment(scope: Scope, providerPaymentRef: string): Promise<SandboxPayment | undefined>;
}

export { SANDBOX_PROVIDER, sandboxOffSessionOutcome };

export function createSandboxProvider(ports: {
  readonly store: StoreOf<PaymentSlice>;
  readonly ids: IdGenerator;
}): SandboxProvider {
  const { store, ids } = ports;

  async function record(scope: Scope, payment: SandboxPayment): Promise<PaymentOutcome> {
    await store.sandboxPayments.insert(scope, payment);
    return outcomeOf(payment, sandboxChallengePath(payment.id));
  }

  /** Idempotent on the attempt: a second call answers the first payment's outcome. */
  async function existing(scope: Scope, attemptId: string): Promise<PaymentOutcome | undefined> {
    const page = await store.sandboxPayments.list(scope, {
      filter: { attempt_id: [{ op: 'eq', value: attemptId }] },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    const first = page.items[0];
    return first ? outcomeOf(first, sandboxChallengePath(first.id)) : undefined;
  }

  async function customerPresent(
    scope: Scope,
    attemptId: string,
    input: MethodInput,
    willCharge: boolean,
  ): Promise<PaymentOutcome> {
    const earlier = await existing(scope, attemptId);
    if (earlier) return earlier;
    const { method, behaviour } = readCard(ids, input);
    const status =
      behaviour === 'challenge' ? 'pending' : behaviour === 'decline' && willCharge ? 'declined' : 'succeeded';
    // A setup of the decline card is refused like its charge: the issuer declines verification.
    const declinedSetup = behaviour === 'decline' && !willCharge;
    return record(scope, {
      id: ids.newId('sbxpay'),
      attemptId,
      method,
      status: declinedSetup ? 'declined' : status,
      errorCode: status === 'declined' || declinedSetup ? 'declined' : null,
    });
  }

  return {
    name: SANDBOX_PROVIDER,
    payCheckout: (request) => customerPresent(request.scope, request.attemptId, request.method, true),
    setUpMethod: (request) => customerPresent(request.scope, request.attemptId, request.method, false),
    async chargeSavedMethod(request) {
      const earlier = await existing(request.scope, request.attemptId);
      if (earlier) return earlier;
      const outcome = sandboxOffSessionOutcome(request.providerMethodRef);
      if (outcome === undefined) refuse('The saved method is not a sandbox method.', 'payment_method_id');
      const method: ProviderMethod = {
        providerMethodRef: request.providerMethodRef,
        type: 'card',
        card: { type: 'visa', last4: '', expiryMonth: 0, expiryYear: 0, cardholderName: '' },
      };
      return record(request.scope, {
        id: ids.newId('sbxpay'),
        attemptId: request.attemptId,
        method,
        status: outcome === 'success' ? 'succeeded' : 'declined',
        errorCode: outcome === 'success' ? null : 'declined',
      });
    },
    async resumeAttempt(scope, providerPaymentRef) {
      const payment = await store.sandboxPayments.findById(scope, providerPaymentRef);
      if (!payment) throw BillingError.notFound('Sandbox payment', providerPaymentRef);
      return outcomeOf(payment, sandboxChallengePath(payment.id));
    },
    async cancelWaiting(scope, providerPaymentRef) {
      return store.transaction(async (tx) => {
        const payment = await tx.sandboxPayments.findByIdForUpdate(scope, providerPaymentRef);
        if (!payment) throw BillingError.notFound('Sandbox payment', providerPaymentRef);
        if (payment.status !== 'pending') return outcomeOf(payment, sandboxChallengePath(payment.id));
        const canceled: SandboxPayment = { ...payment, status: 'declined', errorCode: 'canceled' };
        await tx.sandboxPayments.update(scope, canceled);
        return outcomeOf(canceled, sandboxChallengePath(payment.id));
      });
    },
    async findAttemptPayment(scope, attemptId) {
      const page = await store.sandboxPayments.list(scope, {
        filter: { attempt_id: [{ op: 'eq', value: attemptId }] },
        direction: 'asc',
        perPage: 1,
        countTotal: false,
      });
      return page.items[0]?.id;
    },
    async detachMethod() {
      // The sandbox keeps nothing per method: the token itself carries the card's behaviour.
    },
    async readNotification() {
      throw new BillingError('provider_notification_invalid', 'The sandbox provider sends no notifications.');
    },
    async answerChallenge(tx, scope, providerPaymentRef, passed) {
      const payment = await tx.sandboxPayments.findByIdForUpdate(scope, providerPaymentRef);
      if (!payment) throw BillingError.notFound('Sandbox payment', providerPaymentRef);
      if (payment.status !== 'pending') return;
      await tx.sandboxPayments.update(scope, {
        ...payment,
        status: passed ? 'succeeded' : 'declined',
        errorCode: passed ? null : 'authentication_failed',
      });
    },
    findPayment: (scope, providerPaymentRef) => store.sandboxPayments.findById(scope, providerPaymentRef),
  };
}
