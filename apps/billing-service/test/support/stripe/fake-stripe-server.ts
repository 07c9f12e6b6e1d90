/**
 * @module
 * A local HTTP server speaking Stripe's documented wire format, for the Stripe provider's tests:
 * the real `stripe` client talks to it over loopback (its `host`, `port` and `protocol` options).
 * Only the endpoints the provider uses: customers, PaymentIntents (with `capture_method=manual`,
 * capture and cancel), SetupIntents, PaymentMethods and Refunds (create by PaymentIntent or
 * charge, retrieve, list by charge or PaymentIntent; refused as Stripe refuses them). Requests are form-encoded with bracketed keys (`metadata[key]=…`), answers
 * are Stripe's JSON objects and error envelopes (`{error: {type, code, decline_code, message,
 * payment_intent, …}}`, 402 for card errors), `Idempotency-Key` replays the first answer, and
 * webhooks go out as Stripe sends them: a JSON event signed in `Stripe-Signature`
 * (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`).
 *
 * Stripe's test payment methods decide outcomes: `pm_card_visa` and `pm_card_mastercard`
 * succeed, `pm_card_chargeDeclined` and `pm_card_chargeDeclinedInsufficientFunds` decline,
 * `pm_card_chargeCustomerFail` attaches but every charge declines, and
 * `pm_card_authenticationRequired` needs 3-D Secure on every payment (an off-session charge
 * fails with `authentication_required`). Using a test method clones it into a new `pm_…`, as
 * Stripe does.
 *
 * Faults a test injects (`fault`): an answer lost after Stripe acted (the connection is cut; a
 * replay under the same Idempotency-Key is lost too while the fault lasts), or a `500 api_error`
 * before Stripe acted (nothing saved under the key, as Stripe saves results only once execution
 * begins). A declined card is a test method (`pm_card_chargeDeclined`), as at Stripe.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STRIPE_JS_STAND_IN } from './stripe-js-stand-in.js';

const API_VERSION = '2026-10-28.endive';

type Json = Record<string, unknown>;

interface TestCard {
  readonly brand: string;
  readonly last4: string;
  /** `success`; `decline` (every charge); `attach_then_decline` (setups succeed); `authenticate` (3-D Secure). */
  readonly behaviour: 'success' | 'decline' | 'attach_then_decline' | 'authenticate';
  readonly declineCode?: string;
}

const TEST_CARDS: Readonly<Record<string, TestCard>> = {
  pm_card_visa: { brand: 'visa', last4: '4242', behaviour: 'success' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', behaviour: 'success' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', behaviour: 'decline', declineCode: 'generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    behaviour: 'decline',
    declineCode: 'insufficient_funds',
  },
  pm_card_chargeCustomerFail: {
    brand: 'visa',
    last4: '0341',
    behaviour: 'attach_then_decline',
    declineCode: 'generic_decline',
  },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', behaviour: 'authenticate' },
};

/** Stripe's documented test card numbers, as typed into the Payment Element, and the test method each behaves as. */
const TEST_CARD_NUMBERS: Readonly<Record<string, string>> = {
  '4242424242424242': 'pm_card_visa',
  '5555555555554444': 'pm_card_mastercard',
  '4000000000000002': 'pm_card_chargeDeclined',
  '4000000000009995': 'pm_card_chargeDeclinedInsufficientFunds',
  '4000000000000341': 'pm_card_chargeCustomerFail',
  '4000002760003184': 'pm_card_authenticationRequired',
};

/** A request the fake received, as sent. */
export interface ReceivedStripeRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly rawBody: string;
  readonly params: Json;
}

/** A webhook the fake sent, and what Drawdown answered. */
export interface StripeDelivery {
  readonly eventId: string;
  readonly eventType: string;
  readonly status: number;
  readonly responseBody: string;
}

export interface FakeStripeOptions {
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** The publishable key the browser stand-in of Stripe.js (`GET /v3/`) authenticates with. */
  readonly publishableKey?: string;
  /** Stripe's clock in milliseconds (objects' `created`, signature timestamps); the system's when absent. */
  readonly now?: () => number;
}

export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: the API base a provider configuration names. */
  readonly baseUrl: string;
  /** `http://127.0.0.1:<port>/v3/`: the stand-in of Stripe.js a checkout page loads (see `stripe-js-stand-in.ts`). */
  readonly stripeJsUrl: string;
  readonly requests: readonly ReceivedStripeRequest[];
  readonly deliveries: readonly StripeDelivery[];
  /** Where webhooks go (Drawdown's Stripe webhook route); none are sent until set, nor while unset again (undefined). */
  sendWebhooksTo(url: string | undefined): void;
  /** Every webhook sent so far has been answered. */
  settled(): Promise<void>;
  /** The stored object (`cus_`, `pi_`, `seti_`, `pm_`, `du_`), as the API returns it. */
  object(id: string): Json | undefined;
  /** Every object of one kind, oldest first. */
  objects(prefix: 'cus_' | 'pi_' | 'seti_' | 'pm_' | 'du_' | 're_' | 'issfr_' | 'evt_'): Json[];
  /** The customer finishes (or fails) 3-D Secure on the page `next_action` sent them to. */
  authenticate(intentId: string, outcome: 'pass' | 'fail'): Promise<void>;
  /** The cardholder disputes the payment of a PaymentIntent: `charge.dispute.created`. */
  dispute(paymentIntentId: string, reason?: string): Promise<Json>;
  /**
   * The seller refunds (part of) the charge of a PaymentIntent, as in Stripe's dashboard (or as
   * Drawdown would, with its metadata): a succeeded Refund, the charge's `amount_refunded` and
   * `refunded`, and `charge.refunded`. Refunds are listed at `GET /v1/refunds?charge=…`.
   */
  refund(paymentIntentId: string, amount?: number, metadata?: Record<string, string>): Promise<Json>;
  /**
   * While on, refunds made through the API (`POST /v1/refunds`) stay `pending` until
   * `settleRefund` decides them, as a bank's slower refunds do at Stripe.
   */
  holdRefunds(on: boolean): void;
  /** A pending refund ends: `succeeded` (`charge.refunded`, `refund.updated`) or `failed` (`refund.failed`, `refund.updated`). */
  settleRefund(refundId: string, status: 'succeeded' | 'failed'): Promise<Json>;
  /** A dispute ends: `won` or `lost` (`charge.dispute.closed`). */
  closeDispute(disputeId: string, status: 'won' | 'lost'): Promise<Json>;
  /** The card issuer warns of likely fraud on a PaymentIntent's charge: `radar.early_fraud_warning.created`. */
  earlyFraudWarning(paymentIntentId: string, fraudType?: string): Promise<Json>;
  /** Sends a stored event again, freshly signed (Stripe redelivers after a failure, or on request). */
  redeliver(eventId: string): Promise<StripeDelivery>;
  /** Sends an event signed with `secret` (default: the right one) at `timestamp` (default: now). */
  sendEvent(
    type: string,
    object: Json,
    options?: { readonly secret?: string; readonly timestamp?: number },
  ): Promise<StripeDelivery>;
  /** Posts a raw body with a raw `Stripe-Signature` header (or none). */
  postRaw(body: string, signature: string | undefined): Promise<StripeDelivery>;
  /**
   * The next `count` API writes (POSTs) are carried out but their answers never arrive (the
   * connection is cut): the client sees a network failure after Stripe acted.
   */
  loseAnswers(count: number): void;
  /**
   * The issuer approves the charges of a card from now on (the cardholder paid their card off, or
   * the bank lifted a block): what a retry of a declined payment hopes for. No Stripe test card
   * changes its behaviour, so this is the test server's own control, not an API call.
   */
  issuerApproves(paymentMethodId: string): void;
  /**
   * The expiry of the cards test methods become from now on (`pm_card_visa` and the like): the
   * month and year a customer's card runs out; undefined restores December three years ahead.
   * The test server's own control, as a test method's expiry is fixed at Stripe.
   */
  cardExpiry(expiry: { readonly month: number; readonly year: number } | undefined): void;
  /**
   * Until cleared, POSTs whose path matches `path` fail: `lose_answer` carries the request out
   * (or replays it) and cuts the connection; `server_error` answers `500 api_error` without
   * acting. Returns a function that clears the fault and answers how many requests it hit.
   * `method: 'GET'` faults reads instead (a search Stripe cannot answer, say). `where`, when given,
   * narrows the fault to requests whose parameters it accepts (one customer's charges, say), so
   * that everyone else's requests are answered as usual.
   */
  fault(
    kind: 'lose_answer' | 'server_error',
    path: RegExp,
    method?: 'POST' | 'GET',
    where?: (params: Json) => boolean,
  ): () => number;
  /** Forgets every Idempotency-Key, as Stripe prunes keys after 24 hours: a repeat then acts again. */
  forgetIdempotencyKeys(): void;
  /** The queries of `GET /v1/payment_intents/search`, in order. */
  readonly searches: readonly string[];
  /**
   * Until cleared, runs `hook` after Stripe acted on a POST whose path matches `path` and before
   * its answer leaves: what the caller's other requests do meanwhile happens between the two.
   */
  beforeAnswer(path: RegExp, hook: () => Promise<void>): () => void;
  close(): Promise<void>;
}

function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** Reads a form body with bracketed keys (`a[b][0]=x`) into nested objects and arrays. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    for (let index = 0; index < path.length; index += 1) {
      const part = path[index] as string;
      if (index === path.length - 1) {
        node[part] = value;
        break;
      }
      const next = node[part];
      if (typeof next !== 'object' || next === null) node[part] = {};
      node = node[part] as Record<string, unknown>;
    }
  }
  return arraysOf(root) as Json;
}

/** Objects whose keys are 0, 1, … become arrays (`expand[0]=a&expand[1]=b`). */
function arraysOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, inner]) => [key, arraysOf(inner)] as const);
  if (entries.length > 0 && entries.every(([key], index) => key === String(index))) {
    return entries.map(([, inner]) => inner);
  }
  return Object.fromEntries(entries);
}

/** A `Stripe-Signature` header for `body`, as Stripe computes it. */
export function stripeSignature(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message));
  }
}

function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });
}

function missing(kind: string, id: string, param: string): StripeApiError {
  return new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });
}

export async function startFakeStripe(options: FakeStripeOptions): Promise<FakeStripe> {
  const store = new Map<string, Json>();
  const cards = new Map<string, TestCard>();
  const requests: ReceivedStripeRequest[] = [];
  const deliveries: StripeDelivery[] = [];
  const idempotent = new Map<string, { readonly params: string; readonly status: number; readonly body: Json }>();
  const inFlight = new Set<Promise<unknown>>();
  let webhookUrl: string | undefined;
  let baseUrl = '';
  let answersToLose = 0;
  /** The expiry of the cards test methods become (`cardExpiry`); December three years ahead when unset. */
  let expiry: { readonly month: number; readonly year: number } | undefined;
  let refundsHeld = false;
  const searches: string[] = [];
  const faults = new Set<{
    readonly kind: 'lose_answer' | 'server_error';
    readonly path: RegExp;
    readonly method: 'POST' | 'GET';
    readonly where: ((params: Json) => boolean) | undefined;
    hits: number;
  }>();
  const hooks = new Set<{ readonly path: RegExp; readonly hook: () => Promise<void> }>();
  const faultFor = (method: string, path: string, params: Json) =>
    [...faults].find((fault) => fault.method === method && fault.path.test(path) && (fault.where?.(params) ?? true));
  const now = () => Math.floor((options.now ?? Date.now)() / 1000);

  const save = (object: Json): Json => {
    store.set(String(object.id), object);
    return object;
  };

  async function post(body: string, signature: string | undefined): Promise<StripeDelivery> {
    if (!webhookUrl) throw new Error('no webhook destination: call sendWebhooksTo first');
    const event = JSON.parse(body) as { id?: string; type?: string };
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature === undefined ? {} : { 'stripe-signature': signature }),
      },
      body,
    });
    const delivery: StripeDelivery = {
      eventId: String(event.id),
      eventType: String(event.type),
      status: response.status,
      responseBody: await response.text(),
    };
    deliveries.push(delivery);
    return delivery;
  }

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  function deliver(event: Json, secret = options.webhookSecret, timestamp = now()): Promise<StripeDelivery> {
    const body = JSON.stringify(event, null, 2);
    return track(post(body, stripeSignature(body, secret, timestamp)));
  }

  /** Records an event and sends it, not waiting for the answer (Stripe sends webhooks asynchronously). */
  function emit(type: string, object: Json, idempotencyKey: string | null = null): void {
    const event = save({
      id: newId('evt_'),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: webhookUrl ? 1 : 0,
      request: { id: newId('req_'), idempotency_key: idempotencyKey },
      type,
    });
    if (webhookUrl) void deliver(event).catch(() => {});
  }

  function requireObject(id: unknown, prefix: string, kind: string, param: string): Json {
    const object = typeof id === 'string' && id.startsWith(prefix) ? store.get(id) : undefined;
    if (!object) throw missing(kind, String(id), param);
    return object;
  }

  /** A payment method by id; a test method (`pm_card_visa`) is cloned into a new one, as Stripe does. */
  function paymentMethodOf(id: unknown, customerId: string | null): Json {
    if (typeof id === 'string' && TEST_CARDS[id]) {
      const card = TEST_CARDS[id];
      const method = save({
        id: newId('pm_'),
        object: 'payment_method',
        type: 'card',
        billing_details: { address: null, email: null, name: null, phone: null },
        card: {
          brand: card.brand,
          country: 'US',
          exp_month: expiry?.month ?? 12,
          exp_year: expiry?.year ?? new Date().getUTCFullYear() + 3,
          funding: 'credit',
          last4: card.last4,
          networks: { available: [card.brand], preferred: null },
        },
        created: now(),
        customer: null,
        livemode: false,
        metadata: {},
      });
      cards.set(String(method.id), card);
      return method;
    }
    const method = requireObject(id, 'pm_', 'PaymentMethod', 'payment_method');
    if (method.customer !== null && customerId !== null && method.customer !== customerId) {
      throw invalidRequest(
        `The provided PaymentMethod belongs to a different Customer (${String(method.customer)}).`,
        'payment_method',
      );
    }
    return method;
  }

  function cardError(code: string, declineCode: string | undefined, message: string, extra: Json): StripeApiError {
    return new StripeApiError(402, {
      type: 'card_error',
      code,
      ...(declineCode ? { decline_code: declineCode } : {}),
      message,
      doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`,
      request_log_url: `https://dashboard.stripe.com/test/logs/${newId('req_')}`,
      ...extra,
    });
  }

  function expand(object: Json, params: Json): Json {
    const paths = Array.isArray(params.expand) ? (params.expand as string[]) : [];
    const expanded = structuredClone(object);
    for (const path of paths) {
      const id = expanded[path];
      if (typeof id === 'string' && store.has(id)) expanded[path] = structuredClone(store.get(id));
    }
    return expanded;
  }

  /**
   * The method a confirmation names: `payment_method`, or card details Stripe.js sent as
   * `payment_method_data` (a test number; any other number is `incorrect_number`, as Stripe's is).
   */
  function confirmedMethod(intent: Json, params: Json): Json {
    const customerId = (intent.customer as string | null) ?? null;
    const data = params.payment_method_data as Json | undefined;
    if (data && params.payment_method === undefined) {
      const card = (data.card ?? {}) as Json;
      const number = String(card.number ?? '').replace(/\s+/g, '');
      const test = TEST_CARD_NUMBERS[number];
      if (!test) {
        throw cardError('incorrect_number', undefined, 'Your card number is incorrect.', { param: 'number' });
      }
      const method = paymentMethodOf(test, customerId);
      Object.assign(method, {
        billing_details: {
          ...(method.billing_details as Json),
          name: (data.billing_details as Json | undefined)?.name ?? null,
        },
        card: { ...(method.card as Json), exp_month: Number(card.exp_month), exp_year: Number(card.exp_year) },
      });
      return save(method);
    }
    return paymentMethodOf(params.payment_method ?? intent.payment_method, customerId);
  }

  /** Confirms a PaymentIntent with its payment method: charges it, or asks for 3-D Secure, or declines. */
  function confirmPaymentIntent(intent: Json, params: Json, idempotencyKey: string | null): Json {
    const method = confirmedMethod(intent, params);
    const card = cards.get(String(method.id)) ?? TEST_CARDS.pm_card_visa;
    const offSession = params.off_session === 'true' || params.off_session === 'one_off';
    intent.payment_method = method.id;
    intent.status = 'processing';
    if (typeof params.return_url === 'string') intent.return_url = params.return_url;
    if (params.setup_future_usage) intent.setup_future_usage = params.setup_future_usage;
    const declines = card?.behaviour === 'decline' || card?.behaviour === 'attach_then_decline';
    if (card?.behaviour === 'authenticate' && !offSession) {
      intent.status = 'requires_action';
      intent.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: {
          url: `${baseUrl}/test/authenticate/${String(intent.id)}`,
          return_url: intent.return_url ?? null,
        },
      };
      save(intent);
      return intent;
    }
    if (declines || card?.behaviour === 'authenticate') {
      return declinePaymentIntent(
        intent,
        method,
        card?.behaviour === 'authenticate' ? 'authentication_required' : 'card_declined',
        card?.behaviour === 'authenticate' ? 'authentication_required' : card?.declineCode,
        idempotencyKey,
      );
    }
    return succeedPaymentIntent(intent, method, idempotencyKey);
  }

  function succeedPaymentIntent(intent: Json, method: Json, idempotencyKey: string | null): Json {
    const manual = intent.capture_method === 'manual';
    const charge = save({
      id: newId('ch_'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: manual ? 0 : intent.amount,
      captured: !manual,
      currency: intent.currency,
      payment_intent: intent.id,
      payment_method: method.id,
      status: 'succeeded',
      paid: true,
      created: now(),
    });
    if (intent.setup_future_usage && intent.customer) method.customer = intent.customer;
    if (manual) {
      // An authorisation: the money is held until captured (or released by a cancel).
      Object.assign(intent, {
        status: 'requires_capture',
        amount_capturable: intent.amount,
        latest_charge: charge.id,
        last_payment_error: null,
        next_action: null,
      });
      save(intent);
      emit('charge.succeeded', charge, idempotencyKey);
      emit('payment_intent.amount_capturable_updated', intent, idempotencyKey);
      return intent;
    }
    Object.assign(intent, {
      status: 'succeeded',
      amount_received: intent.amount,
      latest_charge: charge.id,
      last_payment_error: null,
      next_action: null,
    });
    save(intent);
    emit('charge.succeeded', charge, idempotencyKey);
    emit('payment_intent.succeeded', intent, idempotencyKey);
    return intent;
  }

  function declinePaymentIntent(
    intent: Json,
    method: Json,
    code: string,
    declineCode: string | undefined,
    idempotencyKey: string | null,
  ): never {
    const message =
      code === 'authentication_required'
        ? 'Your card was declined. This transaction requires authentication.'
        : code === 'payment_intent_authentication_failure'
          ? 'We are unable to authenticate your payment method.'
          : 'Your card was declined.';
    const charge =
      code === 'payment_intent_authentication_failure'
        ? null
        : save({
            id: newId('ch_'),
            object: 'charge',
            amount: intent.amount,
            currency: intent.currency,
            payment_intent: intent.id,
            payment_method: method.id,
            status: 'failed',
            paid: false,
            failure_code: code,
            created: now(),
          });
    Object.assign(intent, {
      status: 'requires_payment_method',
      latest_charge: charge?.id ?? intent.latest_charge ?? null,
      next_action: null,
      last_payment_error: {
        type: 'card_error',
        code,
        ...(declineCode ? { decline_code: declineCode } : {}),
        message,
        charge: charge?.id,
        payment_method: structuredClone(method),
      },
    });
    save(intent);
    emit('payment_intent.payment_failed', intent, idempotencyKey);
    throw cardError(code, declineCode, message, {
      charge: charge?.id,
      payment_intent: structuredClone(intent),
      payment_method: structuredClone(method),
    });
  }

  function confirmSetupIntent(intent: Json, params: Json, idempotencyKey: string | null): Json {
    const method = confirmedMethod(intent, params);
    const card = cards.get(String(method.id)) ?? TEST_CARDS.pm_card_visa;
    intent.payment_method = method.id;
    if (typeof params.return_url === 'string') intent.return_url = params.return_url;
    if (card?.behaviour === 'authenticate') {
      intent.status = 'requires_action';
      intent.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: {
          url: `${baseUrl}/test/authenticate/${String(intent.id)}`,
          return_url: intent.return_url ?? null,
        },
      };
      save(intent);
      return intent;
    }
    if (card?.behaviour === 'decline') {
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_setup_error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: card.declineCode,
          message: 'Your card was declined.',
          payment_method: structuredClone(method),
        },
      });
      save(intent);
      emit('setup_intent.setup_failed', intent, idempotencyKey);
      throw cardError('card_declined', card.declineCode, 'Your card was declined.', {
        setup_intent: structuredClone(intent),
        payment_method: structuredClone(method),
      });
    }
    return succeedSetupIntent(intent, method, idempotencyKey);
  }

  function succeedSetupIntent(intent: Json, method: Json, idempotencyKey: string | null): Json {
    if (intent.customer) method.customer = intent.customer;
    Object.assign(intent, { status: 'succeeded', next_action: null, last_setup_error: null });
    save(intent);
    emit('setup_intent.succeeded', intent, idempotencyKey);
    return intent;
  }

  /**
   * A Refund of (part of) a captured charge, as Stripe makes one: refused when the charge is
   * refunded already (`charge_already_refunded`) or the amount is above what is left
   * (`amount_too_large`); `succeeded` at once (`charge.refunded`) unless refunds are held.
   */
  function makeRefund(
    charge: Json,
    amount: number | undefined,
    metadata: Record<string, string>,
    idempotencyKey: string | null,
  ): Json {
    const refunded = Number(charge.amount_refunded ?? 0);
    const left = Number(charge.amount) - refunded;
    if (left <= 0) {
      throw invalidRequest(
        `Charge ${String(charge.id)} has already been refunded.`,
        undefined,
        'charge_already_refunded',
      );
    }
    const value = amount ?? left;
    if (value > left) {
      throw invalidRequest(
        `Refund amount (${value}) is greater than unrefunded amount on charge (${left})`,
        'amount',
        'amount_too_large',
      );
    }
    const refund = save({
      id: newId('re_'),
      object: 'refund',
      amount: value,
      charge: charge.id,
      currency: charge.currency,
      created: now(),
      failure_reason: null,
      metadata,
      payment_intent: charge.payment_intent,
      reason: null,
      status: refundsHeld ? 'pending' : 'succeeded',
    });
    // Pending refunds count in `amount_refunded` too; a failed one gives its amount back.
    Object.assign(charge, { amount_refunded: refunded + value, refunded: refunded + value === Number(charge.amount) });
    save(charge);
    emit('refund.created', refund, idempotencyKey);
    if (refund.status === 'succeeded') emit('charge.refunded', charge, idempotencyKey);
    return refund;
  }

  function handle(method: string, path: string, params: Json, idempotencyKey: string | null): Json {
    const parts = path.split('/').filter(Boolean);
    const [version, resource, id, action] = parts;
    if (version !== 'v1') throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`);
    if (resource === 'customers' && method === 'POST' && id === undefined) {
      return save({
        id: newId('cus_'),
        object: 'customer',
        created: now(),
        email: params.email ?? null,
        name: params.name ?? null,
        livemode: false,
        metadata: params.metadata ?? {},
      });
    }
    if (resource === 'customers' && method === 'GET' && id) return requireObject(id, 'cus_', 'customer', 'id');
    if (resource === 'payment_intents' && method === 'POST' && id === undefined) {
      const amount = Number(params.amount);
      if (!Number.isSafeInteger(amount) || amount < 1 || String(amount) !== params.amount) {
        throw invalidRequest('Invalid integer: amount', 'amount');
      }
      if (typeof params.currency !== 'string' || !/^[a-z]{3}$/.test(params.currency)) {
        throw invalidRequest('Invalid currency', 'currency');
      }
      if (params.customer !== undefined) requireObject(params.customer, 'cus_', 'customer', 'customer');
      const intent: Json = {
        id: newId('pi_'),
        object: 'payment_intent',
        amount,
        amount_capturable: 0,
        amount_received: 0,
        capture_method: params.capture_method === 'manual' ? 'manual' : 'automatic_async',
        currency: params.currency,
        customer: params.customer ?? null,
        client_secret: '',
        created: now(),
        latest_charge: null,
        last_payment_error: null,
        livemode: false,
        metadata: params.metadata ?? {},
        next_action: null,
        payment_method: null,
        payment_method_types: ['card'],
        setup_future_usage: params.setup_future_usage ?? null,
        status: 'requires_payment_method',
      };
      intent.client_secret = `${String(intent.id)}_secret_${randomBytes(8).toString('hex')}`;
      // An unknown payment method is refused before any PaymentIntent exists, as Stripe does.
      if (params.payment_method !== undefined && !TEST_CARDS[String(params.payment_method)]) {
        paymentMethodOf(params.payment_method, (params.customer as string | undefined) ?? null);
      }
      save(intent);
      if (params.confirm === 'true') return expand(confirmPaymentIntent(intent, params, idempotencyKey), params);
      if (params.payment_method) {
        intent.payment_method = paymentMethodOf(params.payment_method, intent.customer as string | null).id;
        intent.status = 'requires_confirmation';
      }
      return expand(intent, params);
    }
    if (resource === 'payment_intents' && method === 'GET' && id === 'search') {
      // Stripe's search query language, in the one form Drawdown sends: metadata['key']:'value'.
      const query = /^metadata\['([a-z_]+)'\]:'((?:[^'\\]|\\.)*)'$/.exec(String(params.query ?? ''));
      if (!query) throw invalidRequest(`Invalid search query: ${String(params.query)}`, 'query');
      const [, key, raw] = query;
      const value = String(raw).replace(/\\(.)/g, '$1');
      const data = [...store.values()]
        .filter(
          (object) =>
            object.object === 'payment_intent' &&
            (object.metadata as Record<string, string> | undefined)?.[String(key)] === value,
        )
        .reverse();
      searches.push(String(params.query));
      return { object: 'search_result', data, has_more: false, next_page: null, url: '/v1/payment_intents/search' };
    }
    if (resource === 'payment_intents' && id) {
      const intent = requireObject(id, 'pi_', 'payment_intent', 'intent');
      if (method === 'GET' && action === undefined) return expand(intent, params);
      if (method === 'POST' && action === 'confirm') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          throw invalidRequest(
            `This PaymentIntent's status is ${String(intent.status)}; it cannot be confirmed.`,
            undefined,
            'payment_intent_unexpected_state',
          );
        }
        return expand(confirmPaymentIntent(intent, params, idempotencyKey), params);
      }
      if (method === 'POST' && action === 'capture') {
        if (intent.status !== 'requires_capture') {
          throw invalidRequest(
            `This PaymentIntent could not be captured because it has a status of ${String(intent.status)}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
            undefined,
            'payment_intent_unexpected_state',
          );
        }
        const amount =
          params.amount_to_capture === undefined ? Number(intent.amount_capturable) : Number(params.amount_to_capture);
        if (!Number.isSafeInteger(amount) || amount < 1 || amount > Number(intent.amount_capturable)) {
          throw invalidRequest('Invalid amount_to_capture', 'amount_to_capture');
        }
        const charge = store.get(String(intent.latest_charge)) as Json;
        Object.assign(charge, { captured: true, amount_captured: amount });
        save(charge);
        Object.assign(intent, { status: 'succeeded', amount_capturable: 0, amount_received: amount });
        save(intent);
        emit('charge.captured', charge, idempotencyKey);
        emit('payment_intent.succeeded', intent, idempotencyKey);
        return expand(intent, params);
      }
      if (method === 'POST' && action === 'cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          throw invalidRequest(
            `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`,
            undefined,
            'payment_intent_unexpected_state',
          );
        }
        // A held authorisation is released: its uncaptured charge is refunded in full.
        if (intent.status === 'requires_capture') {
          const charge = store.get(String(intent.latest_charge));
          if (charge) save(Object.assign(charge, { refunded: true, amount_refunded: charge.amount }));
        }
        Object.assign(intent, {
          amount_capturable: 0,
          status: 'canceled',
          canceled_at: now(),
          cancellation_reason: params.cancellation_reason ?? null,
        });
        save(intent);
        emit('payment_intent.canceled', intent, idempotencyKey);
        return expand(intent, params);
      }
    }
    if (resource === 'setup_intents' && method === 'POST' && id === undefined) {
      if (params.customer !== undefined) requireObject(params.customer, 'cus_', 'customer', 'customer');
      const intent: Json = {
        id: newId('seti_'),
        object: 'setup_intent',
        customer: params.customer ?? null,
        client_secret: '',
        created: now(),
        last_setup_error: null,
        livemode: false,
        metadata: params.metadata ?? {},
        next_action: null,
        payment_method: null,
        payment_method_types: ['card'],
        status: 'requires_payment_method',
        usage: params.usage ?? 'off_session',
      };
      intent.client_secret = `${String(intent.id)}_secret_${randomBytes(8).toString('hex')}`;
      save(intent);
      if (params.confirm === 'true') return expand(confirmSetupIntent(intent, params, idempotencyKey), params);
      return expand(intent, params);
    }
    if (resource === 'setup_intents' && id) {
      const intent = requireObject(id, 'seti_', 'setup_intent', 'intent');
      if (method === 'GET' && action === undefined) return expand(intent, params);
      if (method === 'POST' && action === 'confirm') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          throw invalidRequest(
            `This SetupIntent's status is ${String(intent.status)}; it cannot be confirmed.`,
            undefined,
            'setup_intent_unexpected_state',
          );
        }
        return expand(confirmSetupIntent(intent, params, idempotencyKey), params);
      }
      if (method === 'POST' && action === 'cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          throw invalidRequest(
            `You cannot cancel this SetupIntent because it has a status of ${String(intent.status)}.`,
            undefined,
            'setup_intent_unexpected_state',
          );
        }
        Object.assign(intent, { status: 'canceled' });
        save(intent);
        emit('setup_intent.canceled', intent, idempotencyKey);
        return expand(intent, params);
      }
    }
    if (resource === 'refunds' && method === 'GET' && id === undefined) {
      // Either filter, as Stripe documents; newest first, one page (tests never make 100).
      const charge = params.charge === undefined ? undefined : requireObject(params.charge, 'ch_', 'charge', 'charge');
      const intent =
        params.payment_intent === undefined
          ? undefined
          : requireObject(params.payment_intent, 'pi_', 'payment_intent', 'payment_intent');
      const data = [...store.values()]
        .filter(
          (object) =>
            object.object === 'refund' &&
            (charge === undefined || object.charge === charge.id) &&
            (intent === undefined || object.payment_intent === intent.id),
        )
        .reverse();
      return { object: 'list', data, has_more: false, url: '/v1/refunds' };
    }
    if (resource === 'refunds' && method === 'GET' && id) return requireObject(id, 're_', 'refund', 'refund');
    if (resource === 'refunds' && method === 'POST' && id === undefined) {
      const intent =
        params.payment_intent !== undefined
          ? requireObject(params.payment_intent, 'pi_', 'payment_intent', 'payment_intent')
          : undefined;
      const charge = intent
        ? store.get(String(intent.latest_charge))
        : requireObject(params.charge, 'ch_', 'charge', 'charge');
      if (!charge || charge.captured !== true) {
        throw invalidRequest(
          'This charge has not been captured and cannot be refunded.',
          undefined,
          'charge_not_captured',
        );
      }
      const amount = params.amount === undefined ? undefined : Number(params.amount);
      if (amount !== undefined && (!Number.isSafeInteger(amount) || amount < 1 || String(amount) !== params.amount)) {
        throw invalidRequest('Invalid integer: amount', 'amount');
      }
      return makeRefund(charge, amount, (params.metadata as Record<string, string> | undefined) ?? {}, idempotencyKey);
    }
    if (resource === 'payment_methods' && id) {
      const paymentMethod = requireObject(id, 'pm_', 'PaymentMethod', 'payment_method');
      if (method === 'GET' && action === undefined) return paymentMethod;
      if (method === 'POST' && action === 'detach') {
        if (paymentMethod.customer === null) {
          throw invalidRequest(
            `The payment method you provided is not attached to a customer so detachment is impossible.`,
            undefined,
            'payment_method_unexpected_state',
          );
        }
        paymentMethod.customer = null;
        save(paymentMethod);
        emit('payment_method.detached', paymentMethod, idempotencyKey);
        return paymentMethod;
      }
    }
    throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`);
  }

  function answer(res: ServerResponse, status: number, body: Json): void {
    res.writeHead(status, {
      // Stripe's API answers browsers (Stripe.js) from any origin.
      'access-control-allow-origin': '*',
      'content-type': 'application/json',
      'request-id': newId('req_'),
      'stripe-version': API_VERSION,
    });
    res.end(JSON.stringify(body, null, 2));
  }

  /** What a publishable key may do, as Stripe allows it: confirm an intent whose client secret it holds. */
  function browserMayCall(method: string, path: string, params: Json): boolean {
    if (!options.publishableKey || params.key !== options.publishableKey || method !== 'POST') return false;
    const match = /^\/v1\/(payment_intents|setup_intents)\/([A-Za-z0-9_]+)\/confirm$/.exec(path);
    const intent = match ? store.get(match[2] as string) : undefined;
    return (
      intent !== undefined && typeof params.client_secret === 'string' && intent.client_secret === params.client_secret
    );
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const params = parseStripeForm(method === 'GET' ? url.search.slice(1) : rawBody);
      requests.push({ method, path: url.pathname, headers: req.headers, rawBody, params });
      if (url.pathname.startsWith('/test/authenticate/')) {
        // The page a customer would see at next_action.redirect_to_url; tests call authenticate().
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>3-D Secure test page</title><p>Complete or fail the test authentication.</p>');
        return;
      }
      if (method === 'GET' && url.pathname === '/v3/') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        res.end(STRIPE_JS_STAND_IN);
        return;
      }
      if (method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': 'content-type',
        });
        res.end();
        return;
      }
      const authorization = req.headers.authorization ?? '';
      if (!authorization && browserMayCall(method, url.pathname, params)) {
        // Stripe.js: the publishable key and the intent's client secret, nothing else.
      } else if (authorization !== `Bearer ${options.secretKey}`) {
        const shown = authorization.replace(/^Bearer /, '');
        answer(res, 401, {
          error: {
            type: 'invalid_request_error',
            message: `Invalid API Key provided: ${shown.slice(0, 8)}****${shown.slice(-4)}`,
          },
        });
        return;
      }
      const idempotencyKey =
        method === 'POST' ? ((req.headers['idempotency-key'] as string | undefined) ?? null) : null;
      const fault = faultFor(method, url.pathname, params);
      if (fault) fault.hits += 1;
      if (fault?.kind === 'server_error') {
        // Before execution: nothing is saved under the key, so a retry executes.
        answer(res, 500, {
          error: { type: 'api_error', message: 'An unknown error occurred (injected by the test).' },
        });
        return;
      }
      if (idempotencyKey) {
        const earlier = idempotent.get(idempotencyKey);
        if (earlier) {
          if (earlier.params !== rawBody) {
            answer(res, 400, {
              error: {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
              },
            });
            return;
          }
          if (fault?.kind === 'lose_answer') {
            req.socket.destroy();
            return;
          }
          res.setHeader('idempotent-replayed', 'true');
          answer(res, earlier.status, earlier.body);
          return;
        }
      }
      let status = 200;
      let body: Json;
      try {
        body = handle(method, url.pathname, params, idempotencyKey);
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        status = error.status;
        body = { error: error.body };
      }
      if (idempotencyKey) idempotent.set(idempotencyKey, { params: rawBody, status, body });
      if ((answersToLose > 0 && method === 'POST') || fault?.kind === 'lose_answer') {
        if (fault?.kind !== 'lose_answer') answersToLose -= 1;
        req.socket.destroy();
        return;
      }
      const hook = method === 'POST' ? [...hooks].find((entry) => entry.path.test(url.pathname)) : undefined;
      if (hook) {
        void track(hook.hook()).finally(() => answer(res, status, body));
        return;
      }
      answer(res, status, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    stripeJsUrl: `${baseUrl}/v3/`,
    requests,
    deliveries,
    sendWebhooksTo: (url) => {
      webhookUrl = url;
    },
    settled: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    object: (id) => {
      const object = store.get(id);
      return object ? structuredClone(object) : undefined;
    },
    objects: (prefix) => [...store.values()].filter((object) => String(object.id).startsWith(prefix)),
    authenticate: async (intentId, outcome) => {
      const intent = store.get(intentId);
      if (intent?.status !== 'requires_action') throw new Error(`${intentId} is not waiting for authentication`);
      const method = store.get(String(intent.payment_method)) as Json;
      if (String(intent.id).startsWith('seti_')) {
        if (outcome === 'pass') succeedSetupIntent(intent, method, null);
        else {
          Object.assign(intent, {
            status: 'requires_payment_method',
            next_action: null,
            last_setup_error: {
              type: 'invalid_request_error',
              code: 'setup_intent_authentication_failure',
              message: 'We are unable to authenticate your payment method.',
            },
          });
          emit('setup_intent.setup_failed', intent);
        }
        return;
      }
      if (outcome === 'pass') succeedPaymentIntent(intent, method, null);
      else {
        try {
          declinePaymentIntent(intent, method, 'payment_intent_authentication_failure', undefined, null);
        } catch {
          // The customer saw the failure on the authentication page; the webhook says the rest.
        }
      }
    },
    dispute: async (paymentIntentId, reason = 'fraudulent') => {
      const intent = store.get(paymentIntentId);
      if (intent?.status !== 'succeeded') throw new Error(`${paymentIntentId} has no successful charge to dispute`);
      const dispute = save({
        id: newId('du_'),
        object: 'dispute',
        amount: intent.amount,
        currency: intent.currency,
        charge: intent.latest_charge,
        payment_intent: intent.id,
        created: now(),
        evidence_details: { due_by: now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
        is_charge_refundable: false,
        livemode: false,
        metadata: {},
        reason,
        status: 'needs_response',
      });
      emit('charge.dispute.created', dispute);
      return dispute;
    },
    closeDispute: async (disputeId, status) => {
      const dispute = store.get(disputeId);
      if (!dispute || dispute.object !== 'dispute') throw new Error(`no dispute ${disputeId}`);
      if (dispute.status === 'won' || dispute.status === 'lost') throw new Error(`${disputeId} is already closed`);
      Object.assign(dispute, { status });
      save(dispute);
      emit('charge.dispute.closed', dispute);
      return dispute;
    },
    earlyFraudWarning: async (paymentIntentId, fraudType = 'made_with_stolen_card') => {
      const intent = store.get(paymentIntentId);
      if (intent?.status !== 'succeeded') throw new Error(`${paymentIntentId} has no charge to warn about`);
      const warning = save({
        id: newId('issfr_'),
        object: 'radar.early_fraud_warning',
        actionable: true,
        charge: intent.latest_charge,
        created: now(),
        fraud_type: fraudType,
        livemode: false,
        payment_intent: intent.id,
      });
      emit('radar.early_fraud_warning.created', warning);
      return warning;
    },
    refund: async (paymentIntentId, amount, metadata = {}) => {
      const intent = store.get(paymentIntentId);
      const charge = intent ? store.get(String(intent.latest_charge)) : undefined;
      if (intent?.status !== 'succeeded' || !charge) throw new Error(`${paymentIntentId} has no charge to refund`);
      const held = refundsHeld;
      refundsHeld = false;
      try {
        return makeRefund(charge, amount, metadata, null);
      } finally {
        refundsHeld = held;
      }
    },
    holdRefunds: (on) => {
      refundsHeld = on;
    },
    settleRefund: async (refundId, status) => {
      const refund = store.get(refundId);
      if (refund?.status !== 'pending') throw new Error(`${refundId} is not a pending refund`);
      const charge = store.get(String(refund.charge)) as Json;
      if (status === 'failed') {
        const refunded = Number(charge.amount_refunded) - Number(refund.amount);
        Object.assign(charge, { amount_refunded: refunded, refunded: false });
        save(charge);
        Object.assign(refund, { status: 'failed', failure_reason: 'lost_or_stolen_card' });
        save(refund);
        emit('refund.failed', refund);
        emit('refund.updated', refund);
        return refund;
      }
      Object.assign(refund, { status: 'succeeded' });
      save(refund);
      emit('charge.refunded', charge);
      emit('refund.updated', refund);
      return refund;
    },
    redeliver: (eventId) => {
      const event = store.get(eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      return deliver(event);
    },
    sendEvent: (type, object, sendOptions = {}) => {
      const event = save({
        id: newId('evt_'),
        object: 'event',
        api_version: API_VERSION,
        created: now(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      });
      return deliver(event, sendOptions.secret, sendOptions.timestamp);
    },
    postRaw: (body, signature) => track(post(body, signature)),
    loseAnswers: (count) => {
      answersToLose = count;
    },
    cardExpiry: (next) => {
      expiry = next;
    },
    issuerApproves: (paymentMethodId) => {
      const card = cards.get(paymentMethodId);
      if (!card) throw new Error(`${paymentMethodId} is not a card this server made`);
      cards.set(paymentMethodId, { ...card, behaviour: 'success' });
    },
    beforeAnswer: (path, hook) => {
      const entry = { path, hook };
      hooks.add(entry);
      return () => {
        hooks.delete(entry);
      };
    },
    forgetIdempotencyKeys: () => {
      idempotent.clear();
    },
    searches,
    fault: (kind, path, method = 'POST', where = undefined) => {
      const fault = { kind, path, method, where, hits: 0 };
      faults.add(fault);
      return () => {
        faults.delete(fault);
        return fault.hits;
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
