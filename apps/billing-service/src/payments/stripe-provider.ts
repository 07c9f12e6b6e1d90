/**
 * @module
 * The Stripe payment provider (ADR 1421): one account's Stripe, through the official `stripe`
 * client. Checkouts and off-session charges are PaymentIntents, method updates SetupIntents, each
 * created and confirmed in one call with Drawdown's attempt id as the Idempotency-Key, so a
 * retried call never charges twice. Each Drawdown customer gets one Stripe customer (stored
 * mapping). Webhooks are verified with the client's own `webhooks.constructEvent` (signature and
 * a five-minute tolerance) and read as the port's neutral notifications. Only card summaries
 * (brand, last four, expiry, holder) ever leave Stripe.
 */
import {
  type AuthorisationOutcome,
  type AuthorisingProvider,
  BillingError,
  type BrowserConfirmation,
  type BrowserPayment,
  type BrowserPaymentRequest,
  type CheckoutPaymentRequest,
  type IncomingNotification,
  type MethodInput,
  type OffSessionChargeRequest,
  type PaymentErrorCode,
  type PaymentOutcome,
  type PaymentParty,
  type PaymentProvider,
  type ProviderCustomerRepository,
  type ProviderMethod,
  type ProviderNotification,
  type RefundingProvider,
  type RefundOutcome,
  type RefundRequest,
  type Scope,
  type SetupRequest,
  type StripeProviderSettings,
} from '@drawdown/billing-core';
import Stripe from 'stripe';
import { malformedStripeNotification, verifiedStripeEvent } from './stripe-event-shape.js';

/** How old a webhook's signature may be, in seconds (Stripe's own default). */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeProviderDependencies {
  readonly scope: Scope;
  readonly settings: StripeProviderSettings;
  readonly customers: ProviderCustomerRepository;
  /** The wall clock, in milliseconds: webhook signatures are checked against it. */
  now(): number;
  /** Retries of a request whose answer did not come; 2, the Stripe client's own default, when absent. */
  readonly networkRetries?: number;
}

type PaymentIntent = Stripe.PaymentIntent;
type SetupIntent = Stripe.SetupIntent;

/** Stripe's card brands as the public API's `card.type` names them. */
const CARD_TYPES: Readonly<Record<string, string>> = {
  amex: 'american_express',
  diners: 'diners_club',
  discover: 'discover',
  jcb: 'jcb',
  mastercard: 'mastercard',
  unionpay: 'union_pay',
  visa: 'visa',
};

/** Stripe decline codes (and error codes) as the public API's payment `error_code`. */
const ERROR_CODES: Readonly<Record<string, PaymentErrorCode>> = {
  authentication_required: 'authentication_failed',
  payment_intent_authentication_failure: 'authentication_failed',
  setup_intent_authentication_failure: 'authentication_failed',
  expired_card: 'expired_card',
  insufficient_funds: 'not_enough_balance',
  fraudulent: 'fraud',
  stolen_card: 'fraud',
  lost_card: 'fraud',
  pickup_card: 'fraud',
  merchant_blacklist: 'fraud',
  card_not_supported: 'transaction_not_permitted',
  transaction_not_allowed: 'transaction_not_permitted',
  currency_not_supported: 'transaction_not_permitted',
  incorrect_number: 'invalid_payment_details',
  invalid_number: 'invalid_payment_details',
  incorrect_cvc: 'invalid_payment_details',
  invalid_cvc: 'invalid_payment_details',
  invalid_expiry_month: 'invalid_payment_details',
  invalid_expiry_year: 'invalid_payment_details',
  invalid_amount: 'invalid_amount',
  issuer_not_available: 'issuer_unavailable',
  do_not_try_again: 'declined_not_retryable',
  processing_error: 'psp_error',
  card_velocity_exceeded: 'declined',
  generic_decline: 'declined',
  card_declined: 'declined',
};

export function paymentErrorCodeOf(
  error: { code?: string | null; decline_code?: string | null } | null,
): PaymentErrorCode {
  if (!error) return 'unknown';
  return ERROR_CODES[error.decline_code ?? ''] ?? ERROR_CODES[error.code ?? ''] ?? 'declined';
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
function stripeAmount(amount: string): number {
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

function methodOf(paymentMethod: Stripe.PaymentMethod): ProviderMethod {
  const card = paymentMethod.card;
  return {
    providerMethodRef: paymentMethod.id,
    type: 'card',
    card: {
      type: CARD_TYPES[card?.brand ?? ''] ?? 'unknown',
      last4: card?.last4 ?? '',
      expiryMonth: card?.exp_month ?? 0,
      expiryYear: card?.exp_year ?? 0,
      cardholderName: paymentMethod.billing_details?.name ?? '',
    },
  };
}

function tokenOf(method: MethodInput): string {
  if (method.kind === 'saved') return method.providerMethodRef;
  if (method.kind === 'token' && /^pm_[A-Za-z0-9_]+$/.test(method.token)) return method.token;
  throw new BillingError(
    'payment_method_input_invalid',
    method.kind === 'card_fields'
      ? 'Card details go to Stripe, never to Drawdown: send the PaymentMethod id (pm_…) Stripe.js created.'
      : 'A Stripe payment method is a PaymentMethod id (pm_…) created by Stripe.js.',
  );
}

function isCardError(error: unknown): error is Stripe.errors.StripeCardError {
  return error instanceof Stripe.errors.StripeError && error.type === 'StripeCardError';
}

/**
 * The decline a card error reports for the intent it names (`payment_intent` or `setup_intent`);
 * throws the refusal of a payment method Stripe does not know; undefined for any other error.
 */
function declinedBy(
  error: unknown,
  intent: 'payment_intent' | 'setup_intent',
): Extract<PaymentOutcome, { status: 'declined' }> | undefined {
  if (isCardError(error)) {
    const named = error[intent];
    if (named) {
      return {
        status: 'declined',
        providerPaymentRef: named.id,
        errorCode: paymentErrorCodeOf(error),
        method: error.payment_method ? methodOf(error.payment_method) : null,
      };
    }
  }
  if (isMissingPaymentMethod(error)) throw unusableMethod();
  return undefined;
}

function isMissingPaymentMethod(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeError &&
    error.type === 'StripeInvalidRequestError' &&
    (error.code === 'resource_missing' || error.code === 'payment_method_unexpected_state') &&
    error.param === 'payment_method'
  );
}

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;
  /** Stripe.js's Payment Element takes the card on the hosted checkout (ADR 1424). */
  readonly browser: BrowserConfirmation;
  /** Authorise now, capture after the change commits (ADR 1426): PaymentIntents with `capture_method=manual`. */
  readonly authorisation: AuthorisingProvider;
  /** Refund adjustments made through the API (ADR 1463): Refunds of the PaymentIntent, keyed by the adjustment id. */
  readonly refunds: RefundingProvider;

  constructor(private readonly dependencies: StripeProviderDependencies) {
    this.stripe = stripeClientFor(dependencies.settings, dependencies.networkRetries);
    this.browser = {
      publishableKey: dependencies.settings.publishableKey ?? null,
      createBrowserPayment: (request) => this.createBrowserPayment(request),
    };
    this.authorisation = {
      authorise: (request) => this.authorise(request),
      capture: (_scope, reference, attemptId) => this.capture(reference, attemptId),
      release: (_scope, reference) => this.release(reference),
    };
    this.refunds = {
      refund: (request) => this.refund(request),
      findRefund: (_scope, reference, adjustmentId) => this.findRefund(reference, adjustmentId),
    };
  }

  /**
   * A Refund of the PaymentIntent's charge for `amount`, keyed by the adjustment id, which its
   * metadata also carries (so the `charge.refunded` echo is known, ADR 1461). Stripe refusing the
   * refund (`charge_already_refunded`, an amount above what is left, …) is a failed refund: nothing
   * went back. A lost answer throws.
   */
  private async refund(request: RefundRequest): Promise<RefundOutcome> {
    // An amount Stripe cannot take is refused before anything is sent: nothing went back.
    if (!/^[1-9]\d{0,7}$/.test(request.amount)) {
      return {
        status: 'failed',
        refundRef: null,
        reason: `Stripe refunds 1 to 99999999 lowest units; ${request.amount} asked.`,
      };
    }
    try {
      const refund = await this.stripe.refunds.create(
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
  }

  /** The refund of the PaymentIntent whose metadata names the adjustment, if Stripe made one. */
  private async findRefund(reference: string, adjustmentId: string): Promise<RefundOutcome | undefined> {
    for await (const refund of this.stripe.refunds.list({ payment_intent: reference, limit: 100 })) {
      if (refund.metadata?.drawdown_adjustment_id === adjustmentId) return refundOutcomeOf(refund);
    }
    return undefined;
  }

  /**
   * A PaymentIntent with `capture_method=manual`, confirmed off-session with the saved method,
   * keyed by the attempt id. Stripe answers a repeated request with its first answer
   * (`Idempotent-Replayed: true`), which may be stale: the intent is then read as it is now.
   */
  private async authorise(request: OffSessionChargeRequest): Promise<AuthorisationOutcome> {
    const customer = await this.stripeCustomerOf(request);
    let intent: Stripe.Response<PaymentIntent>;
    try {
      intent = await this.stripe.paymentIntents.create(
        {
          amount: stripeAmount(request.amount),
          currency: request.currencyCode.toLowerCase(),
          customer,
          payment_method: request.providerMethodRef,
          allowed_payment_method_types: ['card'],
          capture_method: 'manual',
          off_session: true,
          confirm: true,
          metadata: this.metadata(request, request.attemptId),
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
      return this.authorisationOf(await this.stripe.paymentIntents.retrieve(intent.id, { expand: ['payment_method'] }));
    }
    return this.authorisationOf(intent);
  }

  /** Captures the whole authorisation; one already captured, released or expired is answered as it stands. */
  private async capture(reference: string, attemptId: string): Promise<AuthorisationOutcome> {
    try {
      return await this.authorisationOf(
        await this.stripe.paymentIntents.capture(
          reference,
          { expand: ['payment_method'] },
          { idempotencyKey: `${attemptId}-capture` },
        ),
      );
    } catch (error) {
      // `payment_intent_unexpected_state`: captured already, or canceled (released, or expired after 7 days).
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      return this.authorisationOf(await this.stripe.paymentIntents.retrieve(reference, { expand: ['payment_method'] }));
    }
  }

  /** Cancels an intent (a hold, or a checkout's unconfirmed PaymentIntent or SetupIntent); one that cannot be canceled is answered as it stands. */
  private async release(reference: string): Promise<AuthorisationOutcome> {
    if (reference.startsWith('seti_')) {
      let intent: SetupIntent;
      try {
        intent = await this.stripe.setupIntents.cancel(reference);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        intent = await this.stripe.setupIntents.retrieve(reference);
      }
      return intent.status === 'canceled'
        ? { status: 'voided', providerPaymentRef: intent.id }
        : { status: 'pending', providerPaymentRef: intent.id };
    }
    try {
      return await this.authorisationOf(
        await this.stripe.paymentIntents.cancel(reference, { expand: ['payment_method'] }),
      );
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      return this.authorisationOf(await this.stripe.paymentIntents.retrieve(reference, { expand: ['payment_method'] }));
    }
  }

  /** What a PaymentIntent says of its money: held, taken, declined, released, or not decided. */
  private async authorisationOf(intent: PaymentIntent): Promise<AuthorisationOutcome> {
    const lastError = intent.last_payment_error;
    switch (intent.status) {
      case 'requires_capture':
        return {
          status: 'authorised',
          providerPaymentRef: intent.id,
          method: await this.methodById(intent.payment_method),
        };
      case 'succeeded':
        return {
          status: 'captured',
          providerPaymentRef: intent.id,
          method: await this.methodById(intent.payment_method),
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

  /**
   * An unconfirmed PaymentIntent (or, for a zero balance, SetupIntent) that Stripe.js confirms
   * in the customer's browser. Created with the attempt id as Idempotency-Key and the same
   * parameters every time, so asking again answers the same intent and its client secret.
   */
  private async createBrowserPayment(request: BrowserPaymentRequest): Promise<BrowserPayment> {
    const customer = await this.stripeCustomerOf(request);
    const metadata = this.metadata(request, request.attemptId);
    if (request.kind === 'setup') {
      const intent = await this.stripe.setupIntents.create(
        { customer, allowed_payment_method_types: ['card'], usage: 'off_session', metadata },
        { idempotencyKey: request.attemptId },
      );
      return { providerPaymentRef: intent.id, clientSecret: clientSecretOf(intent.client_secret) };
    }
    const intent = await this.stripe.paymentIntents.create(
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
  private async closeDeclined(intent: PaymentIntent | SetupIntent, outcome: PaymentOutcome): Promise<PaymentOutcome> {
    if (outcome.status !== 'declined' || intent.status !== 'requires_payment_method') return outcome;
    try {
      if (intent.object === 'setup_intent') await this.stripe.setupIntents.cancel(intent.id);
      else await this.stripe.paymentIntents.cancel(intent.id);
      return outcome;
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      if (intent.object === 'setup_intent') {
        return this.setupOutcome(await this.stripe.setupIntents.retrieve(intent.id, { expand: ['payment_method'] }));
      }
      const fresh = await this.stripe.paymentIntents.retrieve(intent.id, { expand: ['payment_method'] });
      return fresh.status === 'canceled' ? outcome : this.intentOutcome(fresh);
    }
  }

  private metadata(party: PaymentParty, attemptId: string): Record<string, string> {
    return {
      drawdown_account_id: party.scope.accountId,
      drawdown_environment: party.scope.environment,
      drawdown_customer_id: party.customerId,
      drawdown_transaction_id: party.transactionId,
      drawdown_attempt_id: attemptId,
    };
  }

  /** The Stripe customer of a Drawdown customer, made on first use (one per customer, however many processes ask). */
  async stripeCustomerOf(party: PaymentParty): Promise<string> {
    const { customers } = this.dependencies;
    const known = await customers.find(party.scope, this.name, party.customerId);
    if (known) return known;
    const created = await this.stripe.customers.create(
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
      this.name,
      party.customerId,
      created.id,
      new Date(this.dependencies.now()).toISOString(),
    );
  }

  async payCheckout(request: CheckoutPaymentRequest): Promise<PaymentOutcome> {
    const paymentMethod = tokenOf(request.method);
    const customer = await this.stripeCustomerOf(request);
    return this.paymentIntentOutcome(() =>
      this.stripe.paymentIntents.create(
        {
          amount: stripeAmount(request.amount),
          currency: request.currencyCode.toLowerCase(),
          customer,
          payment_method: paymentMethod,
          allowed_payment_method_types: ['card'],
          confirm: true,
          return_url: request.returnUrl,
          ...(request.saveMethod ? { setup_future_usage: 'off_session' as const } : {}),
          metadata: this.metadata(request, request.attemptId),
          expand: ['payment_method'],
        },
        { idempotencyKey: request.attemptId },
      ),
    );
  }

  async chargeSavedMethod(request: OffSessionChargeRequest): Promise<PaymentOutcome> {
    const customer = await this.stripeCustomerOf(request);
    return this.paymentIntentOutcome(() =>
      this.stripe.paymentIntents.create(
        {
          amount: stripeAmount(request.amount),
          currency: request.currencyCode.toLowerCase(),
          customer,
          payment_method: request.providerMethodRef,
          allowed_payment_method_types: ['card'],
          off_session: true,
          confirm: true,
          metadata: this.metadata(request, request.attemptId),
          expand: ['payment_method'],
        },
        { idempotencyKey: request.attemptId },
      ),
    );
  }

  async setUpMethod(request: SetupRequest): Promise<PaymentOutcome> {
    const paymentMethod = tokenOf(request.method);
    const customer = await this.stripeCustomerOf(request);
    try {
      const intent = await this.stripe.setupIntents.create(
        {
          customer,
          payment_method: paymentMethod,
          allowed_payment_method_types: ['card'],
          usage: 'off_session',
          confirm: true,
          return_url: request.returnUrl,
          metadata: this.metadata(request, request.attemptId),
          expand: ['payment_method'],
        },
        { idempotencyKey: request.attemptId },
      );
      return this.setupOutcome(intent);
    } catch (error) {
      const declined = declinedBy(error, 'setup_intent');
      if (declined) return declined;
      throw error;
    }
  }

  async resumeAttempt(_scope: Scope, providerPaymentRef: string): Promise<PaymentOutcome> {
    if (providerPaymentRef.startsWith('seti_')) {
      const intent = await this.stripe.setupIntents.retrieve(providerPaymentRef, { expand: ['payment_method'] });
      return this.closeDeclined(intent, await this.setupOutcome(intent));
    }
    const intent = await this.stripe.paymentIntents.retrieve(providerPaymentRef, { expand: ['payment_method'] });
    return this.closeDeclined(intent, await this.intentOutcome(intent));
  }

  /**
   * Cancels a checkout's PaymentIntent or SetupIntent that waits for the customer (ADR 1468); one
   * Stripe will not cancel (succeeded, processing, canceled already) is answered as it stands.
   */
  async cancelWaiting(scope: Scope, providerPaymentRef: string): Promise<PaymentOutcome> {
    try {
      if (providerPaymentRef.startsWith('seti_')) await this.stripe.setupIntents.cancel(providerPaymentRef);
      else await this.stripe.paymentIntents.cancel(providerPaymentRef);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
    return this.resumeAttempt(scope, providerPaymentRef);
  }

  async findAttemptPayment(scope: Scope, attemptId: string): Promise<string | undefined> {
    // Drawdown's ids are letters, digits and underscores: nothing to escape in the query.
    if (!/^[A-Za-z0-9_]+$/.test(attemptId)) throw new Error(`unexpected attempt id ${attemptId}`);
    const found = await this.stripe.paymentIntents.search({
      query: `metadata['drawdown_attempt_id']:'${attemptId}'`,
      limit: 10,
    });
    // One Stripe account may serve several Drawdown accounts: the metadata names the owner too.
    return found.data.find(
      (intent) =>
        intent.metadata?.drawdown_attempt_id === attemptId && intent.metadata?.drawdown_account_id === scope.accountId,
    )?.id;
  }

  async detachMethod(_scope: Scope, providerMethodRef: string): Promise<void> {
    try {
      await this.stripe.paymentMethods.detach(providerMethodRef);
    } catch (error) {
      // Already detached (or deleted at Stripe): there is nothing left to forget.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
      throw error;
    }
  }

  async readNotification(incoming: IncomingNotification): Promise<ProviderNotification> {
    const signature = incoming.headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('no Stripe-Signature header');
      event = this.stripe.webhooks.constructEvent(
        incoming.rawBody,
        signature,
        this.dependencies.settings.webhookSecret,
        STRIPE_WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        this.dependencies.now(),
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
    return this.notificationOf(verifiedStripeEvent(event));
  }

  private async notificationOf(event: Stripe.Event): Promise<ProviderNotification> {
    const notificationRef = event.id;
    switch (event.type) {
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        return {
          kind: 'payment_succeeded',
          notificationRef,
          providerPaymentRef: intent.id,
          attemptId: this.attemptOf(intent.metadata),
          method: await this.methodById(intent.payment_method),
        };
      }
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const failed = intent.last_payment_error?.payment_method;
        const attemptId = this.attemptOf(intent.metadata);
        if (attemptId !== undefined) {
          // The intent as it is now, declined ones canceled (a stale tab cannot charge them later):
          // the customer may have confirmed it again since this event was sent.
          const now = await this.resumeAttempt(this.dependencies.scope, intent.id);
          if (now.status === 'succeeded') {
            return {
              kind: 'payment_succeeded',
              notificationRef,
              providerPaymentRef: intent.id,
              attemptId,
              method: now.method,
            };
          }
          if (now.status !== 'declined') return { kind: 'ignored', notificationRef };
        }
        return {
          kind: 'payment_declined',
          notificationRef,
          providerPaymentRef: intent.id,
          attemptId: this.attemptOf(intent.metadata),
          errorCode: paymentErrorCodeOf(intent.last_payment_error ?? null),
          method: failed ? methodOf(failed) : null,
        };
      }
      case 'setup_intent.succeeded': {
        const intent = event.data.object;
        return {
          kind: 'setup_succeeded',
          notificationRef,
          providerPaymentRef: intent.id,
          attemptId: this.attemptOf(intent.metadata),
          method: await this.methodById(intent.payment_method),
        };
      }
      case 'setup_intent.setup_failed': {
        const intent = event.data.object;
        const failed = intent.last_setup_error?.payment_method;
        return {
          kind: 'payment_declined',
          notificationRef,
          providerPaymentRef: intent.id,
          attemptId: this.attemptOf(intent.metadata),
          errorCode: paymentErrorCodeOf(intent.last_setup_error ?? null),
          method: failed ? methodOf(failed) : null,
        };
      }
      case 'charge.refunded': {
        // A refund made in Stripe's dashboard (or by Drawdown, its echo): every refund of the charge so far (ADR 1461).
        const charge = event.data.object;
        const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
        if (!intent) return { kind: 'ignored', notificationRef };
        const refunds = await this.stripe.refunds.list({ charge: charge.id, limit: 100 }).catch((error: unknown) => {
          // A charge Stripe does not know for this key: nothing of it to record (the payment is unknown too).
          if (error instanceof Stripe.errors.StripeInvalidRequestError) return { data: [] as Stripe.Refund[] };
          throw error;
        });
        return {
          kind: 'payment_refunded',
          notificationRef,
          providerPaymentRef: intent,
          attemptId: this.attemptOf(charge.metadata),
          refunds: refunds.data
            .filter((refund) => refund.status === 'succeeded')
            .map((refund) => ({
              refundRef: refund.id,
              amount: String(refund.amount),
              drawdownAdjustmentId: refund.metadata?.drawdown_adjustment_id ?? null,
            })),
        };
      }
      case 'refund.updated':
      case 'refund.failed':
      case 'charge.refund.updated': {
        // A refund's status changed: only Drawdown's own are acted on (ADR 1463).
        const refund = event.data.object as Stripe.Refund;
        const intent = typeof refund.payment_intent === 'string' ? refund.payment_intent : refund.payment_intent?.id;
        const adjustmentId = this.refundAdjustmentOf(refund.metadata);
        if (!intent || adjustmentId === undefined) return { kind: 'ignored', notificationRef };
        const outcome = refundOutcomeOf(refund);
        return {
          kind: 'refund_updated',
          notificationRef,
          providerPaymentRef: intent,
          refundRef: refund.id,
          drawdownAdjustmentId: adjustmentId,
          status: outcome.status,
          reason: outcome.status === 'failed' ? outcome.reason : null,
        };
      }
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const intent = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
        if (!intent) return { kind: 'ignored', notificationRef };
        return {
          kind: 'dispute_closed',
          notificationRef,
          providerPaymentRef: intent,
          disputeRef: dispute.id,
          outcome: dispute.status === 'won' ? 'won' : dispute.status === 'lost' ? 'lost' : 'other',
        };
      }
      case 'radar.early_fraud_warning.created': {
        const warning = event.data.object;
        const intent = typeof warning.payment_intent === 'string' ? warning.payment_intent : warning.payment_intent?.id;
        if (!intent) return { kind: 'ignored', notificationRef };
        return {
          kind: 'fraud_warning',
          notificationRef,
          providerPaymentRef: intent,
          warningRef: warning.id,
          fraudType: warning.fraud_type,
        };
      }
      case 'charge.dispute.created': {
        const dispute = event.data.object;
        const intent = typeof dispute.payment_intent === 'string' ? dispute.payment_intent : dispute.payment_intent?.id;
        if (!intent) return { kind: 'ignored', notificationRef };
        return {
          kind: 'payment_disputed',
          notificationRef,
          providerPaymentRef: intent,
          amount: String(dispute.amount),
          reason: dispute.reason,
        };
      }
      default:
        return { kind: 'ignored', notificationRef };
    }
  }

  /** The adjustment id Drawdown put in a refund's metadata, when the refund is this account's. */
  private refundAdjustmentOf(metadata: Stripe.Metadata | null | undefined): string | undefined {
    const { scope } = this.dependencies;
    if (metadata?.drawdown_account_id !== scope.accountId || metadata.drawdown_environment !== scope.environment) {
      return undefined;
    }
    return metadata.drawdown_adjustment_id;
  }

  /** The attempt id Drawdown put in an intent's metadata, when the intent is this account's. */
  private attemptOf(metadata: Stripe.Metadata | null | undefined): string | undefined {
    const { scope } = this.dependencies;
    if (metadata?.drawdown_account_id !== scope.accountId || metadata.drawdown_environment !== scope.environment) {
      return undefined;
    }
    return metadata.drawdown_attempt_id;
  }

  private async methodById(reference: string | Stripe.PaymentMethod | null): Promise<ProviderMethod> {
    if (reference !== null && typeof reference !== 'string') return methodOf(reference);
    try {
      if (reference !== null) return methodOf(await this.stripe.paymentMethods.retrieve(reference));
    } catch (error) {
      // A method Stripe no longer has (deleted since): the payment still counts, its card is unknown.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
    return {
      providerMethodRef: reference ?? '',
      type: 'card',
      card: { type: 'unknown', last4: '', expiryMonth: 0, expiryYear: 0, cardholderName: '' },
    };
  }

  private async paymentIntentOutcome(call: () => Promise<PaymentIntent>): Promise<PaymentOutcome> {
    try {
      return await this.intentOutcome(await call());
    } catch (error) {
      const declined = declinedBy(error, 'payment_intent');
      if (declined) return declined;
      throw error;
    }
  }

  private intentOutcome(intent: PaymentIntent): Promise<PaymentOutcome> {
    return this.outcomeOf(intent, intent.last_payment_error);
  }

  private setupOutcome(intent: SetupIntent): Promise<PaymentOutcome> {
    return this.outcomeOf(intent, intent.last_setup_error);
  }

  /** What a PaymentIntent or a SetupIntent says happened: the two share their statuses. */
  private async outcomeOf(
    intent: PaymentIntent | SetupIntent,
    lastError: PaymentIntent['last_payment_error'] | SetupIntent['last_setup_error'],
  ): Promise<PaymentOutcome> {
    switch (intent.status) {
      case 'succeeded':
        return {
          status: 'succeeded',
          providerPaymentRef: intent.id,
          method: await this.methodById(intent.payment_method),
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
}

/** What a Stripe Refund's status says: `succeeded`; `failed` or `canceled` (nothing went back); else not decided. */
function refundOutcomeOf(refund: Stripe.Refund): RefundOutcome {
  if (refund.status === 'succeeded') return { status: 'succeeded', refundRef: refund.id };
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { status: 'failed', refundRef: refund.id, reason: refund.failure_reason ?? refund.status };
  }
  return { status: 'pending', refundRef: refund.id };
}

function unusableMethod(): BillingError {
  return new BillingError(
    'payment_method_input_invalid',
    'Stripe does not know this payment method, or it belongs to another customer.',
  );
}

function clientSecretOf(secret: string | null): string {
  if (!secret) throw new Error('Stripe answered an intent without its client secret');
  return secret;
}
