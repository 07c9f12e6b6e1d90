/**
 * Every operation of the OpenAPI document, walked on its happy path on both engines (issue 18): each
 * call answers the documented status, a JSON body validates against the documented response schema
 * (entities are closed, so a field emitted but not documented fails here), and a file download has
 * the documented media type. The steps live in `openapi-walk-steps.ts`, one per operation; the last
 * test holds that every operation of `API_OPERATIONS` was walked. `OPENAPI_WALK_DUMP=/tmp/walk` writes
 * the JSON answers to `/tmp/walk-<engine>.json`, for writing a new response schema from real output.
 */
import { writeFileSync } from 'node:fs';
import { METRIC_ENDPOINTS } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { dereference } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '../../src/openapi/api-operations.js';
import { openApiDocument, openApiPath } from '../../src/openapi/openapi-document.js';
import { startWebhookReceiver, type WebhookReceiver } from '../notifications/webhook-receiver.js';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import {
  CATALOGUE_STEPS,
  CUSTOMER_STEPS,
  DISCOUNT_STEPS,
  type Fixtures,
  metricSteps,
  NOTIFICATION_STEPS,
  REPORT_STEPS,
  SANDBOX_STEPS,
  SUBSCRIPTION_STEPS,
  TOKEN_STEPS,
  TRANSACTION_STEPS,
  type WalkStep,
} from './openapi-walk-steps.js';

type DocumentedResponse = { content?: Record<string, { schema: object }> };
type DocumentedOperation = { responses: Record<string, DocumentedResponse>; security?: unknown[] };
type Document = { paths: Record<string, Record<string, DocumentedOperation>> };

/** Operations the walk cannot reach on this machine, each with its reason. Keep it short. */
const NOT_WALKED: Readonly<Record<string, string>> = {
  // The hosted checkout's forms post form-encoded fields and answer 303 redirects; the walk's client
  // posts JSON. Each is exercised through its forms (both engines) in test/payments/checkout.test.ts,
  // and in a real browser with axe checks in test/payments/checkout.browser.test.ts.
  'post /checkout/details': 'form post, 303: test/payments/checkout.test.ts (new customer’s email and address)',
  'post /checkout/pay': 'form post, 303: test/payments/checkout.test.ts (and the payment-method steps here use it)',
  'get /checkout/return': 'provider return redirect: test/payments/checkout.test.ts (3-D Secure challenge)',
  'get /checkout/sandbox-authentication/:ref': 'HTML challenge page: test/payments/checkout.test.ts (3-D Secure)',
  'post /checkout/sandbox-authentication/:ref': 'form post, 303: test/payments/checkout.test.ts (3-D Secure)',
  // Live only with a Stripe account that has a publishable key (the walk's sandbox takes test-card fields).
  'post /checkout/intent':
    'live with Stripe.js: test/payments/stripe-checkout.test.ts (both engines) and stripe-checkout.browser.test.ts',
  // Live only, and only with a configured Stripe provider (the walk runs the sandbox without one).
  'post /payment-providers/:provider/webhooks/:accountId':
    'live with a Stripe account: test/payments/stripe-live-payments.test.ts (local Stripe server)',
};

describe.each(ENGINES)('%s: every documented operation answers what the document says', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  let receiver: WebhookReceiver;
  let document: Document;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const walked = new Set<string>();
  const fixtures: Fixtures = {};
  const answers: Record<string, unknown> = {};

  beforeAll(async () => {
    harness = await startBillingHarness({ engine, webhookDelivery: { pollIntervalMs: 20 } });
    api = harnessClients(harness).sandbox;
    receiver = await startWebhookReceiver();
    fixtures.receiverUrl = receiver.url;
    fixtures.sandboxUrl = harness.sandboxUrl;
    document = (await dereference(structuredClone(openApiDocument()) as never)) as unknown as Document;
  });
  afterAll(async () => {
    if (process.env.OPENAPI_WALK_DUMP)
      writeFileSync(`${process.env.OPENAPI_WALK_DUMP}-${engine}.json`, JSON.stringify(answers, null, 2));
    await receiver?.close();
    await harness?.close();
  });

  /** Makes the step's call and checks the status and the body against the document. */
  async function walk(step: WalkStep): Promise<void> {
    await step.before?.(fixtures, api);
    const [method = '', route = ''] = step.operation.split(' ');
    const request = step.request(fixtures);
    const operation = document.paths[openApiPath(route)]?.[method];
    expect(operation, `${step.operation} is documented`).toBeDefined();
    // A public operation (signed links) is called without a key, as its documented security says.
    const response = await api.request(method.toUpperCase(), request.path, {
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(operation?.security?.length === 0 ? { authorization: null } : {}),
    });
    const [status, documented] = Object.entries(operation?.responses ?? {}).find(([code]) => code !== 'default') ?? [];
    expect(`${step.operation} ${response.status}`, response.text).toBe(`${step.operation} ${status}`);
    const [mediaType, media] = Object.entries(documented?.content ?? {})[0] ?? [];
    if (mediaType === 'application/json' && media) {
      expect(response.headers.get('content-type'), step.operation).toMatch(/^application\/json/);
      answers[step.operation] = response.body;
      const check = ajv.compile(media.schema);
      const valid = check(response.body);
      const errors = (check.errors ?? [])
        .slice(0, 5)
        .map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
      expect.soft(valid, `${step.operation}:\n${errors.join('\n')}`).toBe(true);
    } else if (mediaType) {
      expect(response.headers.get('content-type'), step.operation).toMatch(new RegExp(`^${mediaType}`));
      expect(response.text.length, step.operation).toBeGreaterThan(0);
    } else {
      expect(response.text, step.operation).toBe('');
    }
    step.keep?.(response, fixtures);
    walked.add(step.operation);
  }

  async function walkAll(steps: readonly WalkStep[]): Promise<void> {
    for (const step of steps) await walk(step);
  }

  it('catalogue, customers, addresses, businesses, discounts and tokens', async () => {
    await walkAll(CATALOGUE_STEPS);
    await walkAll(CUSTOMER_STEPS);
    await walkAll(DISCOUNT_STEPS);
    await walkAll(TOKEN_STEPS);
  });

  it('transactions, payments, invoices, revisions, adjustments and credit notes', async () => {
    const oneOff = await api.post('/prices', {
      product_id: fixtures.product,
      description: 'Setup fee',
      unit_price: { amount: '1000', currency_code: 'USD' },
    });
    expect(oneOff.status, oneOff.text).toBe(201);
    fixtures.oneOffPrice = oneOff.id;
    await walkAll(TRANSACTION_STEPS);
  });

  it('subscriptions, usage balances and one-time charges', async () => {
    const trialPrice = await api.post('/prices', {
      product_id: fixtures.product,
      description: 'Monthly with a trial',
      unit_price: { amount: '1000', currency_code: 'USD' },
      billing_cycle: { interval: 'month', frequency: 1 },
      trial_period: { interval: 'day', frequency: 7 },
    });
    expect(trialPrice.status, trialPrice.text).toBe(201);
    const checkout = await api.post('/transactions', {
      customer_id: fixtures.customer,
      address_id: fixtures.address,
      items: [{ price_id: trialPrice.id, quantity: 1 }],
    });
    const paid = await api.post(`/transactions/${checkout.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    fixtures.trialSubscription = String(paid.entity.subscription_id);
    await walkAll(SUBSCRIPTION_STEPS);
  });

  it('notification settings, notifications, events and simulations', async () => {
    await walkAll(NOTIFICATION_STEPS);
  });

  it('reports, metrics and the sandbox clock', async () => {
    await walkAll(REPORT_STEPS);
    await walkAll(metricSteps(METRIC_ENDPOINTS));
    await walkAll(SANDBOX_STEPS);
  });

  it('walked every operation of the document (none left out but the listed ones)', () => {
    const all = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(all.filter((label) => !walked.has(label) && !(label in NOT_WALKED))).toEqual([]);
    expect(Object.keys(NOT_WALKED).filter((label) => walked.has(label) || !all.includes(label))).toEqual([]);
  });
});
