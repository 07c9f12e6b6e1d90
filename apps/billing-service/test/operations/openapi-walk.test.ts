/**
 * Every operation of the OpenAPI document, walked on its happy path on both engines (issue 18): each
 * call answers the documented status, a JSON body validates against the documented response schema
 * (entities are closed, so a field emitted but not documented fails here), a file download or page
 * has the documented media type (a page is HTML), and a redirect has the documented `Location`. The
 * hosted checkout's forms are posted form-encoded, as a browser does, each form checked against its
 * documented body first; redirects are not followed. The live Stripe webhook is walked against a
 * live account configured with the local Stripe-format server (the Stripe.js intent, confirmed at
 * that server as the browser would, then Stripe's correctly signed event).
 * The steps live in `openapi-walk-steps.ts`, one per operation; the last test holds that every
 * operation of `API_OPERATIONS` was walked, none left out. `OPENAPI_WALK_DUMP=/tmp/walk` writes
 * the JSON answers to `/tmp/walk-<engine>.json`, for writing a new response schema from real output.
 * Every JSON answer, every webhook the walk receives and every event type's simulation example is
 * also held to the public API's required fields (ADR 1474): each entity, nested object and event
 * `data` has every field its kind lists, null only where allowed; a component or event type with no
 * list fails, so a new entity cannot slip past.
 */
import { writeFileSync } from 'node:fs';
import {
  componentKind,
  missingEventDataFields,
  missingEventFields,
  missingRequiredFields,
  RESPONSE_SCHEMAS,
} from '@drawdown/billing-contract';
import { examplePayload, METRIC_ENDPOINTS } from '@drawdown/billing-core';
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { dereference } from '@readme/openapi-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '../../src/openapi/api-operations.js';
import { openApiDocument, openApiPath } from '../../src/openapi/openapi-document.js';
import { startWebhookReceiver, type WebhookReceiver } from '../notifications/webhook-receiver.js';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { type FakeStripe, startFakeStripe } from '../support/stripe/fake-stripe-server.js';
import { createBuyer, createOneOffPrice, createTransaction } from '../transactions/transaction-fixtures.js';
import {
  CATALOGUE_STEPS,
  CHECKOUT_FORM_STEPS,
  CUSTOMER_STEPS,
  DISCOUNT_STEPS,
  type Fixtures,
  metricSteps,
  NOTIFICATION_STEPS,
  REPORT_STEPS,
  SANDBOX_STEPS,
  SUBSCRIPTION_STEPS,
  stripeSteps,
  TOKEN_STEPS,
  TRANSACTION_STEPS,
  type WalkStep,
  type WalkTarget,
} from './openapi-walk-steps.js';

type Media = Record<string, { schema: object }>;
type DocumentedHeader = { required?: boolean; schema: object };
type DocumentedResponse = { content?: Media; headers?: Record<string, DocumentedHeader> };
type DocumentedOperation = {
  responses: Record<string, DocumentedResponse>;
  'x-drawdown-environments'?: string[];
  security?: unknown[];
  requestBody?: { content: Media };
};
type Document = { paths: Record<string, Record<string, DocumentedOperation>> };

const FORM = 'application/x-www-form-urlencoded';
const STRIPE_SECRET_KEY = 'sk_test_drawdownWalk000000000001';
const STRIPE_WEBHOOK_SECRET = 'whsec_drawdownWalkSecret0000000001';
const STRIPE_PUBLISHABLE_KEY = 'pk_test_drawdownWalk000000000001';

// Answers are validated against the document as written, each entity a `$ref` to its component,
// and one validator per distinct schema serves the whole file, both engines. Compiling was most of
// the walk's time (10-17 s of an engine's 20-30 s on a loaded machine): the dereferenced document
// gives every operation its own inlined copy of each entity it answers with (some twenty answer a
// whole transaction), and Ajv caches by object, so each was compiled again, and again per engine.
// With the references kept, each component is compiled once; `$ref` has no sibling keywords in the
// document, so a reference validates exactly what its inlined copy did.
const RAW_DOCUMENT = openApiDocument() as unknown as Document & { components: { schemas: object } };
const COMPONENTS = 'drawdown-openapi-components';
const ajv = new Ajv2020({ strict: false, allErrors: true, inlineRefs: false });
addFormats.default(ajv);
ajv.addSchema({ $id: COMPONENTS, components: { schemas: RAW_DOCUMENT.components.schemas } });
const validators = new Map<string, ValidateFunction>();
function validatorOf(schema: object): ValidateFunction {
  const text = JSON.stringify(schema);
  let check = validators.get(text);
  if (!check) {
    check = ajv.compile(JSON.parse(text.replaceAll('"#/components/schemas/', `"${COMPONENTS}#/components/schemas/`)));
    validators.set(text, check);
  }
  return check;
}
let dereferenced: Promise<Document> | undefined;
/** The document with its references resolved, once for the file (the engines only read it). */
function dereferencedDocument(): Promise<Document> {
  dereferenced ??= dereference(structuredClone(openApiDocument()) as never) as unknown as Promise<Document>;
  return dereferenced;
}

describe.each(ENGINES)('%s: every documented operation answers what the document says', (engine) => {
  let harness: BillingHarness;
  let stripe: FakeStripe | undefined;
  let api: ApiClient;
  let clients: Record<WalkTarget, ApiClient>;
  let receiver: WebhookReceiver;
  let document: Document;
  const walked = new Set<string>();
  const fixtures: Fixtures = {};
  const answers: Record<string, unknown> = {};

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      allowPrivateWebhooks: true,
      webhookDelivery: { pollIntervalMs: 20 },
      // A configured portal: portal sessions are made, not refused (ADR 1472).
      portalUrl: 'https://portal.example/billing',
    });
    api = harnessClients(harness).sandbox;
    clients = { sandbox: api, live: harnessClients(harness).live };
    receiver = await startWebhookReceiver();
    fixtures.receiverUrl = receiver.url;
    fixtures.sandboxUrl = harness.sandboxUrl;
    document = await dereferencedDocument();
  });
  afterAll(async () => {
    if (process.env.OPENAPI_WALK_DUMP)
      writeFileSync(`${process.env.OPENAPI_WALK_DUMP}-${engine}.json`, JSON.stringify(answers, null, 2));
    await receiver?.close();
    await stripe?.close();
    await harness?.close();
  });

  /** Validates `value` against a documented schema as written; the first errors name what is wrong. */
  function conforms(schema: object | undefined, value: unknown, what: string): void {
    expect(schema, `${what}: the schema as written`).toBeDefined();
    if (!schema) return;
    const check = validatorOf(schema);
    const valid = check(value);
    const errors = (check.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`);
    expect.soft(valid, `${what}:\n${errors.join('\n')}`).toBe(true);
  }

  /** Holds a JSON answer to the required fields of the entity its operation answers with (ADR 1474). */
  function hasRequiredFields(label: string, body: unknown): void {
    const operation = API_OPERATIONS.find((entry) => `${entry.method} ${entry.path}` === label);
    const component = operation?.response ? RESPONSE_SCHEMAS.get(operation.response)?.id : undefined;
    const kind = componentKind(String(component));
    expect.soft(kind, `${label} answers ${component}, which has no required field list`).not.toBeUndefined();
    if (!kind) return;
    const data = (body as { data?: unknown }).data;
    const findings =
      operation?.shape === 'entity'
        ? missingRequiredFields(kind, data)
        : Array.isArray(data)
          ? data.flatMap((item, index) => missingRequiredFields(kind, item, `data[${index}]`))
          : [`data: a ${operation?.shape} of ${kind} must be an array`];
    expect.soft(findings, `${label}: required fields`).toEqual([]);
  }

  /** Makes the step's call and checks the status, the headers and the body against the document. */
  async function walk(step: WalkStep): Promise<void> {
    const client = clients[step.on ?? 'sandbox'];
    await step.before?.(fixtures, client);
    const [method = '', route = ''] = step.operation.split(' ');
    const request = step.request(fixtures);
    const operation = document.paths[openApiPath(route)]?.[method];
    // The same operation as written, its schemas with their references (see `validatorOf`).
    const written = RAW_DOCUMENT.paths[openApiPath(route)]?.[method];
    expect(operation, `${step.operation} is documented`).toBeDefined();
    const environment = step.on === 'sandbox' || step.on === undefined ? 'sandbox' : 'live';
    expect(operation?.['x-drawdown-environments'] ?? [environment], step.operation).toContain(environment);
    // A form-encoded body is what the document says the operation takes, and conforms to it.
    const formSchema = operation?.requestBody?.content[FORM]?.schema;
    expect(request.form !== undefined, `${step.operation} posts a form exactly when documented`).toBe(
      formSchema !== undefined,
    );
    if (formSchema && request.form)
      conforms(written?.requestBody?.content[FORM]?.schema, request.form, `${step.operation} form`);
    let sent: { rawBody: string; headers: Readonly<Record<string, string>> } | undefined;
    if (request.form)
      sent = { rawBody: new URLSearchParams(request.form).toString(), headers: { 'content-type': FORM } };
    if (request.rawBody !== undefined) sent = { rawBody: request.rawBody, headers: request.headers ?? {} };
    // A public operation (signed links, the checkout, providers' webhooks) is called without a key,
    // as its documented security says. Redirects are answered, not followed.
    const response = await client.request(method.toUpperCase(), request.path, {
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(sent ?? {}),
      ...(operation?.security?.length === 0 ? { authorization: null } : {}),
      redirect: 'manual',
    });
    const [status, documented] = Object.entries(operation?.responses ?? {}).find(([code]) => code !== 'default') ?? [];
    const writtenResponse = written?.responses[String(status)];
    expect(`${step.operation} ${response.status}`, response.text).toBe(`${step.operation} ${status}`);
    for (const [name, header] of Object.entries(documented?.headers ?? {})) {
      const value = response.headers.get(name);
      if (header.required) expect(value, `${step.operation} ${name}`).not.toBeNull();
      if (value !== null)
        conforms(writtenResponse?.headers?.[name]?.schema, value, `${step.operation} ${name}: ${value}`);
    }
    const [mediaType, media] = Object.entries(documented?.content ?? {})[0] ?? [];
    if (mediaType === 'application/json' && media) {
      expect(response.headers.get('content-type'), step.operation).toMatch(/^application\/json/);
      answers[step.operation] = response.body;
      conforms(writtenResponse?.content?.[mediaType]?.schema, response.body, step.operation);
      hasRequiredFields(step.operation, response.body);
    } else if (mediaType) {
      expect(response.headers.get('content-type'), step.operation).toMatch(new RegExp(`^${mediaType}`));
      expect(response.text.length, step.operation).toBeGreaterThan(0);
      if (mediaType === 'text/html') expect(response.text, step.operation).toMatch(/^<!doctype html>/i);
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
  }, 60_000); // Some sixty calls in turn: about 10 s on a quiet machine, near 30 s on a loaded one.

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
    // Each event type's simulation example carries its entity's required fields.
    const types = (answers['get /event-types'] as { data: { name: string }[] }).data.map((type) => type.name);
    expect(types.length).toBeGreaterThan(40);
    const findings = types.flatMap((type) => missingEventDataFields(type, examplePayload(type), `${type} example`));
    expect.soft(findings, 'simulation examples: required fields').toEqual([]);
  });

  it('reports, metrics and the sandbox clock', async () => {
    await walkAll(REPORT_STEPS);
    await walkAll(metricSteps(METRIC_ENDPOINTS));
    await walkAll(SANDBOX_STEPS);
  });

  it('the checkout’s forms, its 3-D Secure pages, the Stripe.js intent, Stripe’s webhook and the return', async () => {
    await walkAll(CHECKOUT_FORM_STEPS);
    // Live, through Stripe: the account is configured with the local Stripe-format server, which
    // keeps its events for the walk to post (it sends none itself).
    stripe = await startFakeStripe({
      secretKey: STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      publishableKey: STRIPE_PUBLISHABLE_KEY,
    });
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      publishableKey: STRIPE_PUBLISHABLE_KEY,
      apiBase: stripe.baseUrl,
    });
    const live = clients.live;
    const buyer = await createBuyer(live, 'GB');
    const price = await createOneOffPrice(live, '2000', 'GBP');
    const transaction = await createTransaction(live, {
      items: [{ price_id: price, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    fixtures.liveUrl = harness.liveUrl;
    fixtures.liveAccount = harness.accountId;
    fixtures.liveTransaction = String(transaction.id);
    fixtures.liveAmount = String((transaction.details as { totals: { balance: string } }).totals.balance);
    await walkAll(
      stripeSteps(stripe, { webhookSecret: STRIPE_WEBHOOK_SECRET, publishableKey: STRIPE_PUBLISHABLE_KEY }),
    );
  });

  it('every webhook the walk received carries the required fields of its event', () => {
    expect(receiver.received.length).toBeGreaterThan(0);
    const findings = receiver.received.flatMap((webhook) =>
      missingEventFields(JSON.parse(webhook.rawBody), `${webhook.eventType} webhook`),
    );
    expect(findings).toEqual([]);
  });

  it('walked every operation of the document, none left out', () => {
    const all = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(all.filter((label) => !walked.has(label))).toEqual([]);
    expect([...walked].filter((label) => !all.includes(label))).toEqual([]);
  });
});
