/**
 * @module
 * The hosted checkout (ADR 1411), served without an API key on each environment's address:
 * `GET /checkout?_ptxn=txn_…` shows the transaction, `POST /checkout/details` takes the
 * customer's email and address (the tax follows), `POST /checkout/code` applies a promo code
 * (ADR 1111), `POST /checkout/pay` applies the details it carries (re-taxed; a changed total is
 * shown to confirm and nothing is charged, ADR 1115) and pays through the environment's provider, `GET /checkout/return` is where an authentication step comes back to.
 * The sandbox's 3-D Secure challenge page lives at `/checkout/sandbox-authentication/{ref}`;
 * providers' webhooks go to `POST /payment-providers/{provider}/webhooks/{account_id}` (ADR 1425).
 * Forms post and redirect (303) to the page, so a reload never resubmits. Every page is in the
 * language `?locale=` names, else the customer's stored locale, else the browser's (ADR 1433);
 * forms and redirects keep `?locale=`.
 */
import { randomBytes } from 'node:crypto';
import {
  BrowserCheckoutBody,
  CheckoutCodeFormBody,
  CheckoutDetailsFormBody,
  CheckoutPayFormBody,
  SandboxChallengeFormBody,
} from '@drawdown/billing-contract';
import {
  BillingError,
  type CheckoutDetails,
  type CheckoutView,
  type CurrencyCode,
  checkoutCompanyName,
  checkoutReturnUrl,
  checkoutTaxIdentifier,
  type Environment,
  holdsUnstorableText,
  isIdOf,
  type MethodInput,
  minorUnitsOf,
  UNSTORABLE_TEXT_REASON,
} from '@drawdown/billing-core';
import { formatMoney } from '@drawdown/http-kit';
import type { Context, Hono } from 'hono';
import { LRUCache } from 'lru-cache';
import { addressNeeds, countryName, isCountryCode } from '../../checkout/checkout-countries.js';
import { type CheckoutLocale, localizeCheckoutError, pickCheckoutLocale } from '../../checkout/checkout-messages.js';
import {
  CHECKOUT_HEADERS,
  CHECKOUT_STYLESHEET,
  type FormValues,
  type PageMessage,
  renderChallengePage,
  renderCheckoutPage,
  renderNotFoundPage,
  renderRefusedLinkPage,
  STRIPE_CHECKOUT_SCRIPT,
  STRIPE_CHECKOUT_SCRIPT_PATH,
  stripeCheckoutCsp,
} from '../../checkout/checkout-page.js';
import type { AppEnv } from '../app-env.js';
import { STATUS_BY_CODE } from '../error-mapping.js';

type Status = 200 | 400 | 403 | 404 | 409;

/** How often `GET /checkout/return` asks the provider about one payment attempt, at most. */
const RETURN_ASK_INTERVAL_MS = 5_000;
/** A rendered checkout page and the CSP it needs (Stripe's origins only on a page that loads Stripe.js). */
interface RenderedPage {
  readonly body: string;
  readonly csp?: string | undefined;
}

function html(c: Context<AppEnv>, rendered: RenderedPage | string, status: Status = 200): Response {
  const { body, csp } = typeof rendered === 'string' ? { body: rendered, csp: undefined } : rendered;
  for (const [name, value] of Object.entries(CHECKOUT_HEADERS)) c.header(name, value);
  if (csp) c.header('Content-Security-Policy', csp);
  return c.html(body, status);
}

function seeOther(c: Context<AppEnv>, location: string): Response {
  for (const [name, value] of Object.entries(CHECKOUT_HEADERS)) c.header(name, value);
  return c.redirect(location, 303);
}

function transactionIdOf(c: Context<AppEnv>): string {
  const id = c.req.query('_ptxn') ?? '';
  if (!isIdOf('txn', id)) throw BillingError.notFound('Transaction', id.slice(0, 40));
  return id;
}

function newSubmissionKey(): string {
  return randomBytes(18).toString('base64url');
}

/** A browser marks a cross-site form post; the checkout takes forms only from its own pages. */
function refuseCrossSite(c: Context<AppEnv>): void {
  if (c.req.header('sec-fetch-site') === 'cross-site') {
    throw new BillingError('forbidden', 'The checkout accepts forms only from its own pages.');
  }
}

/** What each form may hold, and how long each field may be: the documented form bodies. */
type FormSchema =
  | typeof BrowserCheckoutBody
  | typeof CheckoutCodeFormBody
  | typeof CheckoutDetailsFormBody
  | typeof CheckoutPayFormBody
  | typeof SandboxChallengeFormBody;

async function readForm(c: Context<AppEnv>, schema: FormSchema) {
  const raw = await c.req.parseBody();
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') continue;
    if (holdsUnstorableText(name) || holdsUnstorableText(value)) {
      throw new BillingError('invalid_characters', `The form field ${name.slice(0, 40)} ${UNSTORABLE_TEXT_REASON}.`, [
        { field: name.slice(0, 40), message: UNSTORABLE_TEXT_REASON },
      ]);
    }
    values[name] = value;
  }
  const parsed = schema.partial().passthrough().safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'form').slice(0, 40);
    throw BillingError.invalidField(field, issue?.code === 'too_big' ? 'is too long' : 'is not an allowed value');
  }
  return values;
}

function statusOf(error: BillingError): Status {
  const status = STATUS_BY_CODE[error.code];
  return status === 409 || status === 404 || status === 403 ? status : 400;
}

/**
 * The page's language and locale for this request, and for this checkout's customer. Its query
 * suffix also carries the link's `return_url` (ADR 1112), so every form and redirect of the
 * checkout keeps it; the page checks it against the account's setting when it is shown.
 */
function localeOf(c: Context<AppEnv>, view?: CheckoutView): CheckoutLocale {
  const locale = pickCheckoutLocale({
    query: c.req.query('locale'),
    customerLocale: view?.customer?.locale,
    acceptLanguage: c.req.header('accept-language'),
  });
  const returnUrl = c.req.query('return_url');
  if (returnUrl === undefined) return locale;
  return { ...locale, querySuffix: `${locale.querySuffix}&return_url=${encodeURIComponent(returnUrl.slice(0, 2049))}` };
}

/** A refusal the page itself makes before the core sees the form: already in the page's language. */
class CheckoutFormRefusal extends BillingError {
  constructor(readonly pageMessage: PageMessage) {
    super(
      'invalid_field',
      pageMessage.text,
      Object.entries(pageMessage.fields ?? {}).map(([field, text]) => ({ field, message: text })),
    );
  }
}

/**
 * The address fields as the chosen country needs them (ADR 1433): a country from the select's list,
 * and where the tax follows the region (United States, Canada, Spain) the region or postal code.
 */
function checkAddressForm(form: Record<string, string>, l: CheckoutLocale): void {
  const code = (form.country_code ?? '').trim().toUpperCase();
  if (!isCountryCode(code)) {
    throw new CheckoutFormRefusal({
      kind: 'error',
      text: l.t('errorSummary'),
      fields: { country_code: l.t('errCountry') },
    });
  }
  const needs = addressNeeds(code);
  if (needs.regionOrPostalRequired && !(form.postal_code ?? '').trim() && !(form.region ?? '').trim()) {
    const text = l.t('errRegionOrPostal', {
      country: countryName(code, l.locale),
      region: l.t(needs.regionKind),
      postal: l.t(needs.postalKind === 'zip' ? 'zipCode' : 'postalCode'),
    });
    throw new CheckoutFormRefusal({ kind: 'error', text: l.t('errorSummary'), fields: { postal_code: text } });
  }
}

/**
 * The details the payment form carried changed the total (ADR 1115): nothing was charged, and the
 * page shows the new total for the customer to confirm by paying again.
 */
class CheckoutRetaxed extends BillingError {
  constructor(transactionId: string, balance: string, expected: string) {
    super(
      'transaction_checkout_amount_changed',
      `The details given change what transaction ${transactionId} owes to ${balance}, not the ${expected} shown; nothing was charged.`,
    );
  }
}

/** The balance a payment form expects: the balance, or 0 when nothing is owed. */
function expectedBalance(view: CheckoutView): string {
  const balance = BigInt(view.transaction.details.totals.balance);
  return balance > 0n ? balance.toString() : '0';
}

function retaxedMessage(view: CheckoutView, l: CheckoutLocale): PageMessage {
  const { transaction } = view;
  const amount = formatMoney(
    expectedBalance(view),
    transaction.currencyCode,
    minorUnitsOf(transaction.currencyCode as CurrencyCode),
    l.locale,
  );
  return { kind: 'notice', text: l.t('retaxed', { amount }) };
}

function pageMessage(error: BillingError, l: CheckoutLocale, view: CheckoutView, sandbox: boolean): PageMessage {
  if (error instanceof CheckoutFormRefusal) return error.pageMessage;
  if (error instanceof CheckoutRetaxed) return retaxedMessage(view, l);
  const status = view.transaction.status;
  const localized = localizeCheckoutError(error, l.t, {
    sandbox,
    alreadyPaid: status === 'completed' || status === 'paid',
  });
  return { kind: 'error', text: localized.text, fields: localized.fields };
}

function cardInput(form: Record<string, string>): MethodInput {
  if (form.provider_token) return { kind: 'token', token: form.provider_token };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.card_expiry ?? '');
  const year = expiry?.[2] ?? '';
  return {
    kind: 'card_fields',
    number: form.card_number ?? '',
    expiryMonth: expiry ? Number(expiry[1]) : 0,
    expiryYear: year.length === 2 ? 2000 + Number(year) : Number(year),
    cvc: (form.card_cvc ?? '').trim(),
    cardholderName: form.cardholder_name ?? '',
  };
}

function formValues(form: Record<string, string>): FormValues {
  const { email, country_code, postal_code, region, city, first_line, cardholder_name, code } = form;
  const { purchase_as, company_name, tax_identifier } = form;
  return {
    email,
    country_code,
    postal_code,
    region,
    city,
    first_line,
    cardholder_name,
    code,
    purchase_as,
    company_name,
    tax_identifier,
  } as FormValues;
}

/** The customer's details a form carries: email, address and, when chosen, the business (ADR 1113). */
/** The form fields that are the customer's details (`CheckoutDetailsFormBody`). */
const CHECKOUT_DETAIL_FIELDS = [
  'email',
  'country_code',
  'postal_code',
  'region',
  'city',
  'first_line',
  'purchase_as',
  'company_name',
  'tax_identifier',
] as const;

function detailsOf(form: Record<string, string>): CheckoutDetails {
  const business =
    form.purchase_as === 'business'
      ? { name: form.company_name ?? '', taxIdentifier: form.tax_identifier ?? '' }
      : form.purchase_as === 'individual'
        ? null
        : undefined;
  return {
    email: form.email ?? '',
    address: {
      countryCode: (form.country_code ?? '').trim().toUpperCase(),
      postalCode: form.postal_code ?? null,
      region: form.region ?? null,
      city: form.city ?? null,
      firstLine: form.first_line ?? null,
    },
    business,
  };
}

/** Whether the details differ from what the transaction holds (a form sent unchanged writes nothing). */
function detailsDiffer(view: CheckoutView, details: CheckoutDetails): boolean {
  const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? '').trim() === (b ?? '').trim();
  const { customer, address, business } = view;
  if (!customer || customer.email !== details.email.trim().toLowerCase()) return true;
  if (
    !address ||
    address.countryCode !== details.address.countryCode ||
    !same(address.postalCode, details.address.postalCode) ||
    !same(address.region, details.address.region) ||
    !same(address.city, details.address.city) ||
    !same(address.firstLine, details.address.firstLine)
  ) {
    return true;
  }
  if (details.business === undefined) return false;
  if (details.business === null) return business !== null;
  const typedId = checkoutTaxIdentifier(details.address.countryCode, details.business.taxIdentifier);
  return (
    business === null ||
    business.name !== checkoutCompanyName(details.business.name) ||
    !typedId.ok ||
    typedId.taxIdentifier !== business.taxIdentifier
  );
}

export interface CheckoutRouteOptions {
  /** Where the page loads Stripe.js from (ADR 1424). */
  readonly stripeJsUrl: string;
}

export function registerCheckoutRoutes(
  app: Hono<AppEnv>,
  environment: Environment,
  options: CheckoutRouteOptions,
): void {
  const sandbox = environment === 'sandbox';
  const stripeCsp = stripeCheckoutCsp(options.stripeJsUrl);

  async function showPage(
    c: Context<AppEnv>,
    transactionId: string,
    refusal?: BillingError,
    values?: FormValues,
  ): Promise<RenderedPage> {
    const view = await c.var.useCases.openCheckout(environment, transactionId);
    const locale = localeOf(c, view);
    const returnUrl = checkoutReturnUrl(view.returnUrl, c.req.query('return_url'));
    const browser =
      view.browserKey !== null
        ? {
            scriptUrl: options.stripeJsUrl,
            returnUrl: `${c.var.publicBaseUrl}/checkout/return?_ptxn=${transactionId}${locale.querySuffix}`,
          }
        : undefined;
    const body = renderCheckoutPage({
      view,
      sandbox,
      locale,
      query: `?_ptxn=${transactionId}${locale.querySuffix}`,
      submissionKey: newSubmissionKey(),
      message: refusal
        ? pageMessage(refusal, locale, view, sandbox)
        : c.req.query('notice') === 'retaxed'
          ? retaxedMessage(view, locale)
          : undefined,
      values,
      browser,
      returnUrl,
    });
    return { body, csp: browser ? stripeCsp : undefined };
  }

  /**
   * One submit re-taxes before paying (ADR 1115): the details the payment form carries, while the
   * order can still change, are applied first (the tax computed for them, a business checked),
   * and when they change the total nothing is charged: the page shows the new total to confirm.
   */
  async function retaxBeforePaying(
    c: Context<AppEnv>,
    transactionId: string,
    form: Record<string, string>,
    locale: CheckoutLocale,
    shown: CheckoutView,
  ): Promise<void> {
    // Details the form carries are applied, or refused (`transaction_not_editable` once the order
    // can no longer change, `setCheckoutDetails`), never ignored.
    if (!CHECKOUT_DETAIL_FIELDS.some((name) => form[name] !== undefined)) return;
    checkAddressForm(form, locale);
    const details = detailsOf(form);
    if (!detailsDiffer(shown, details)) return;
    const view = await c.var.useCases.setCheckoutDetails(environment, transactionId, details);
    const expected = form.expected_amount ?? '';
    if (expectedBalance(view) !== expected) throw new CheckoutRetaxed(transactionId, expectedBalance(view), expected);
  }

  /** Runs a form's action; a refusal re-renders the page with the message and what was entered (never card details). */
  async function handleForm(
    c: Context<AppEnv>,
    schema: FormSchema,
    action: (
      transactionId: string,
      form: Record<string, string>,
      locale: CheckoutLocale,
      view: CheckoutView,
    ) => Promise<string | undefined>,
  ): Promise<Response> {
    const transactionId = transactionIdOf(c);
    const locale = localeOf(c);
    refuseCrossSite(c);
    const form = await readForm(c, schema);
    try {
      const view = await c.var.useCases.openCheckout(environment, transactionId);
      const redirect = await action(transactionId, form, localeOf(c, view), view);
      return seeOther(c, redirect ?? `/checkout?_ptxn=${transactionId}${locale.querySuffix}`);
    } catch (error) {
      if (!(error instanceof BillingError) || error.code === 'not_found') throw error;
      return html(c, await showPage(c, transactionId, error, formValues(form)), statusOf(error));
    }
  }

  app.get('/checkout/assets/checkout.css', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(CHECKOUT_STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  app.get(STRIPE_CHECKOUT_SCRIPT_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(STRIPE_CHECKOUT_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });

  app.get('/checkout', async (c) => {
    try {
      return html(c, await showPage(c, transactionIdOf(c)));
    } catch (error) {
      if (error instanceof BillingError && error.code === 'not_found') {
        return html(c, renderNotFoundPage(sandbox, localeOf(c)), 404);
      }
      if (error instanceof BillingError && error.code === 'checkout_return_url_not_allowed') {
        return html(c, renderRefusedLinkPage(sandbox, localeOf(c)), 400);
      }
      throw error;
    }
  });

  app.post('/checkout/details', (c) =>
    handleForm(c, CheckoutDetailsFormBody, async (transactionId, form, locale) => {
      checkAddressForm(form, locale);
      await c.var.useCases.setCheckoutDetails(environment, transactionId, detailsOf(form));
      return undefined;
    }),
  );

  // A promo code (ADR 1111): applied like discount_id, the tax computed again; refusals re-render the page.
  app.post('/checkout/code', (c) =>
    handleForm(c, CheckoutCodeFormBody, async (transactionId, form) => {
      await c.var.useCases.applyCheckoutCode(environment, transactionId, form.code ?? '');
      return undefined;
    }),
  );

  app.post('/checkout/pay', (c) =>
    handleForm(c, CheckoutPayFormBody, async (transactionId, form, locale, shown) => {
      await retaxBeforePaying(c, transactionId, form, locale, shown);
      const view = await c.var.useCases.submitCheckout(environment, transactionId, {
        submissionKey: form.submission_key ?? '',
        expectedAmount: form.expected_amount ?? '',
        method: cardInput(form),
        saveMethod: form.save_method === 'on',
        returnUrl: `${c.var.publicBaseUrl}/checkout/return?_ptxn=${transactionId}${locale.querySuffix}`,
      });
      const attempt = view.attempt;
      if (attempt?.status !== 'requires_action' || !attempt.actionUrl) return undefined;
      // The sandbox's own challenge page keeps the page's asked-for language.
      return locale.querySuffix && attempt.actionUrl.startsWith('/checkout/sandbox-authentication/')
        ? `${attempt.actionUrl}?${locale.querySuffix.slice(1)}`
        : attempt.actionUrl;
    }),
  );

  // The page's script asks for the PaymentIntent Stripe.js confirms (ADR 1424): JSON, so the
  // script reads the client secret or the refusal; nothing completes before the return URL.
  app.post('/checkout/intent', async (c) => {
    const transactionId = transactionIdOf(c);
    refuseCrossSite(c);
    const form = await readForm(c, BrowserCheckoutBody);
    const parsed = BrowserCheckoutBody.safeParse(form);
    if (!parsed.success) {
      const field = String(parsed.error.issues[0]?.path[0] ?? 'form');
      throw BillingError.invalidField(field, 'is not a field of this form, or is missing or too long');
    }
    const shown = await c.var.useCases.openCheckout(environment, transactionId);
    await retaxBeforePaying(c, transactionId, form, localeOf(c, shown), shown);
    const started = await c.var.useCases.startBrowserCheckout(environment, transactionId, {
      submissionKey: parsed.data.submission_key,
      expectedAmount: parsed.data.expected_amount,
      saveMethod: parsed.data.save_method === 'on',
    });
    c.header('Cache-Control', 'no-store');
    return c.json({
      data: { payment_attempt_id: started.attemptId, kind: started.kind, client_secret: started.clientSecret },
      meta: { request_id: c.var.requestId },
    });
  });

  // Anyone may open the return address: the provider is asked about one payment attempt at most once
  // per interval per process, so repeated visits cannot spend the merchant's provider quota (issue
  // 32). The page then shows what is stored; the provider's webhook settles the rest.
  const recentAsks = new LRUCache<string, true>({ max: 10_000, ttl: RETURN_ASK_INTERVAL_MS });
  const mayAskProvider = (attemptId: string) => {
    if (recentAsks.has(attemptId)) return false;
    recentAsks.set(attemptId, true);
    return true;
  };
  app.get('/checkout/return', async (c) => {
    const transactionId = transactionIdOf(c);
    await c.var.useCases.resumeCheckout(environment, transactionId, mayAskProvider);
    return seeOther(c, `/checkout?_ptxn=${transactionId}${localeOf(c).querySuffix}`);
  });

  if (sandbox) {
    app.get('/checkout/sandbox-authentication/:ref', async (c) => {
      const ref = c.req.param('ref');
      const attempt = await c.var.useCases.findSandboxChallenge(ref);
      return html(c, renderChallengePage({ attempt, providerPaymentRef: ref, locale: localeOf(c) }));
    });
    app.post('/checkout/sandbox-authentication/:ref', async (c) => {
      refuseCrossSite(c);
      const ref = c.req.param('ref');
      const form = await readForm(c, SandboxChallengeFormBody);
      if (form.outcome !== 'pass' && form.outcome !== 'fail') {
        throw BillingError.invalidField('outcome', 'must be pass or fail');
      }
      const attempt = await c.var.useCases.answerSandboxChallenge(ref, form.outcome === 'pass');
      return seeOther(c, `/checkout?_ptxn=${attempt.transactionId}${localeOf(c).querySuffix}`);
    });
  }
}
