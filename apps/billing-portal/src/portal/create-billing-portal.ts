/**
 * @module
 * The billing portal as a fetch handler that a host application mounts behind its own sign-in.
 * The customer id always comes from `resolveCustomerId` (the host's server-side session), never
 * from the request: a customer id in a query, body or header is never read (seed 001, rule 6).
 * Every subscription, transaction and adjustment an action names is checked to be that
 * customer's, as the service has it, before anything is done.
 *
 * Routes under `basePath`:
 * - `GET /` the page (HTML); `?after=txn_…` starts after a cursor, for browsers without script.
 * - `GET /api/transactions[?after=txn_…]` one page of history: `{ data, hasMore, next }`.
 * - `POST /api/transactions/{id}/invoice` a fresh invoice link: `{ data: { url } }`.
 * - `POST /transactions/{id}/invoice` the same for a plain form post: a page with the link.
 * - `POST /adjustments/{id}/credit-note` a fresh credit note link: redirects to the PDF.
 * - `GET /api/usage` the usage bars: `{ data }`.
 * - Self-service (ADR 1441): `GET /subscriptions/{id}/cancel` (confirmation), `POST …/cancel`,
 *   `POST …/keep` (undo a scheduled cancellation), `POST …/pause`, `POST …/keep-running`,
 *   `POST …/resume`, `GET …/change`, `GET …/change/preview?price_id&quantity`, `POST …/change`,
 *   `GET …/payment-method`, `POST /billing-details`.
 * - `GET /session?token=…&action=…` a customer portal session link (ADR 1440): verified by the
 *   service, then handed to the host's `startSession`.
 * - `GET /assets/portal.js`, `GET /assets/portal.css`.
 */
import { createHash } from 'node:crypto';
import { escapeHtml, readTextWithin } from '@drawdown/http-kit';
import {
  DrawdownApiError,
  localeFromAcceptLanguage,
  type Subscription,
  type VerifiedPortalSession,
} from '@drawdown/sdk';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { PORTAL_SCRIPT } from './assets-script.js';
import { PORTAL_CSS } from './assets-style.js';
import { dateText, EMPTY_HISTORY, type HistoryPage, loadHistoryPage } from './billing-history.js';
import {
  formatLocaleFor,
  type Language,
  type MessageKey,
  pickLanguage,
  type Translate,
  translator,
} from './messages.js';
import type { PortalClient } from './portal-client.js';
import {
  badRequest,
  FORBIDDEN,
  INTERNAL_ERROR,
  NO_CUSTOMER,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  type PortalRefusal,
  refusalBody,
  refusalFromServiceError,
} from './portal-error.js';
import {
  type PageAssets,
  renderCancelConfirm,
  renderChangeForm,
  renderChangePreview,
  renderDetailsForm,
  renderMessagePage,
  renderPage,
  renderSubPage,
  type SubPageInput,
} from './render-page.js';
import { withSecurityHeaders } from './security-headers.js';
import {
  changedItems,
  describePreview,
  loadAdjustments,
  loadBalance,
  loadBillingDetails,
  loadPlans,
  ownSubscription,
  planChoices,
  prorationFor,
  readDetailsForm,
  resolveSelfService,
  type SelfServiceOptions,
  saveBillingDetails,
} from './self-service.js';
import { PortalSessionTokens } from './session-tokens.js';
import { loadUsage, UnitNameCache, type UsageMeterView } from './usage-view.js';

/** The host's answer to "who is signed in": undefined for nobody, null for a user without a customer record. */
export type ResolveCustomerId = (request: Request) => Promise<string | null | undefined>;

/** A customer portal session the service verified (ADR 1440). */
export type PortalSessionGrant = VerifiedPortalSession;

export interface BillingPortalOptions {
  /** A Drawdown SDK client with a server-side key; see `PortalClient` for the permissions each part needs. */
  readonly client: PortalClient;
  /** The signed-in user's customer id, from the host's server-side session. */
  readonly resolveCustomerId: ResolveCustomerId;
  /** Where the portal is mounted, such as `/billing`; the handler expects full request paths. Default `/`. */
  readonly basePath?: string;
  /** The host's CSRF token for this request; sent back as `X-CSRF-Token` (or `csrf_token` in forms) on POSTs. */
  readonly csrfToken?: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** Shown as a link on the "Not authenticated" page. */
  readonly signInUrl?: string;
  /** Shown as a "Sign out" button (a POST with the CSRF token). */
  readonly signOutUrl?: string;
  /** Page title. Default: "Billing" in the viewer's language. */
  readonly title?: string;
  /** How often the page refreshes the usage bars, in milliseconds. Default 5000. */
  readonly usagePollMs?: number;
  /** What customers may do themselves (ADR 1441). */
  readonly selfService?: SelfServiceOptions;
  /**
   * Signs the customer of a verified portal session in to the host (ADR 1440): return the headers
   * (a `Set-Cookie`) that start the host's session for `grant.customerId`. Without it, session
   * links answer 404.
   */
  readonly startSession?: (
    grant: PortalSessionGrant,
    request: Request,
  ) => Promise<Headers | Record<string, string>> | Headers | Record<string, string>;
  /** Where unexpected failures are reported. Default `console.error`. */
  readonly logError?: (message: string, error: unknown) => void;
}

/** A fetch-style handler: give it the request as the host received it. */
export type BillingPortalHandler = (request: Request) => Promise<Response>;

const TRANSACTION_ID = /^txn_[a-z\d]{26}$/;
const SUBSCRIPTION_ID = /^sub_[a-z\d]{26}$/;
const ADJUSTMENT_ID = /^adj_[a-z\d]{26}$/;
const PRICE_ID = /^pri_[a-z\d]{26}$/;
const MAX_FORM_BYTES = 8 * 1024;

function normaliseBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? '/').trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!/^\/[A-Za-z0-9\-._~/]*$/.test(trimmed)) throw new TypeError(`basePath "${basePath}" is not a plain URL path.`);
  return trimmed;
}

function versioned(basePath: string, file: string, content: string): string {
  return `${basePath}/assets/${file}?v=${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
}

type Viewer = { readonly kind: 'customer'; readonly customerId: string } | { readonly kind: 'no_customer' };

class Refused extends Error {
  constructor(
    readonly refusal: PortalRefusal,
    readonly page?: { readonly title: MessageKey; readonly text: MessageKey },
  ) {
    super(refusal.detail);
  }
}

/** What a finished action says on the page it returns to. */
const NOTICES = {
  cancel: 'doneCancel',
  keep: 'doneKeep',
  pause: 'donePause',
  resume: 'doneResume',
  change: 'doneChange',
  details: 'doneDetails',
} as const satisfies Record<string, MessageKey>;
type Notice = keyof typeof NOTICES;

/** A part of the page the key may not be allowed to read: left off (null) on 403, else the failure stands. */
async function optional<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof DrawdownApiError && error.status === 403) return null;
    throw error;
  }
}

/**
 * Creates the portal.
 *
 * @example
 * const portal = createBillingPortal({
 *   client: new Drawdown(process.env.DRAWDOWN_PORTAL_KEY, { baseUrl }),
 *   resolveCustomerId: async (request) => (await sessions.read(request))?.customerId,
 *   basePath: '/billing',
 * });
 * app.all('/billing/*', (c) => portal(c.req.raw));
 */
export function createBillingPortal(options: BillingPortalOptions): BillingPortalHandler {
  const basePath = normaliseBasePath(options.basePath);
  const pollMs = Math.max(1_000, Math.floor(options.usagePollMs ?? 5_000));
  const logError = options.logError ?? ((message: string, error: unknown) => console.error(message, error));
  const unitNames = new UnitNameCache();
  const sessionTokens = new PortalSessionTokens(options.client);
  const allowed = resolveSelfService(options.selfService);
  const { client } = options;
  const assets: PageAssets = {
    scriptUrl: versioned(basePath, 'portal.js', PORTAL_SCRIPT),
    styleUrl: versioned(basePath, 'portal.css', PORTAL_CSS),
  };

  async function viewerOf(request: Request): Promise<Viewer> {
    const customerId = await options.resolveCustomerId(request);
    if (customerId === undefined) throw new Refused(NOT_AUTHENTICATED);
    if (customerId === null || customerId === '') return { kind: 'no_customer' };
    return { kind: 'customer', customerId };
  }

  async function customerOf(c: Context): Promise<string> {
    const viewer = await viewerOf(c.req.raw);
    if (viewer.kind === 'no_customer') throw new Refused(NO_CUSTOMER);
    return viewer.customerId;
  }

  interface Text {
    readonly language: Language;
    readonly t: Translate;
    /** Amounts and dates. */
    readonly locale: string;
  }

  /** The viewer's language: the customer's stored locale, then Accept-Language (ADR 1441). */
  async function textOf(c: Context, viewer?: Viewer): Promise<Text> {
    const header = c.req.header('accept-language');
    let stored: string | null = null;
    if (viewer?.kind === 'customer') {
      stored = (await optional(() => client.customers.get(viewer.customerId)))?.locale ?? null;
    }
    const language = pickLanguage(stored, header);
    return { language, t: translator(language), locale: formatLocaleFor(language, localeFromAcceptLanguage(header)) };
  }

  function titleOf(text: Text): string {
    return options.title ?? text.t('billing');
  }

  function subPage(text: Text): SubPageInput {
    return { language: text.language, t: text.t, assets, basePath, title: titleOf(text) };
  }

  function readCursor(c: Context): string | null {
    const after = c.req.query('after');
    if (after === undefined || after === '') return null;
    if (!TRANSACTION_ID.test(after)) throw new Refused(badRequest('after must be a transaction id (txn_…).'));
    return after;
  }

  function idParam(c: Context, pattern: RegExp, what: string): string {
    const id = c.req.param('id') ?? '';
    if (!pattern.test(id)) throw new Refused(badRequest(`The ${what} id is malformed.`));
    return id;
  }

  /** Refuses a state-changing request that a browser says comes from another site. */
  function requireSameSite(c: Context): void {
    if (c.req.header('sec-fetch-site') === 'cross-site') throw new Refused(FORBIDDEN);
  }

  async function readForm(c: Context): Promise<Record<string, string>> {
    const type = c.req.header('content-type') ?? '';
    if (!type.startsWith('application/x-www-form-urlencoded')) return {};
    const text = await readTextWithin(c.req.raw, MAX_FORM_BYTES);
    if (text === null) throw new Refused(badRequest('The form is too large.'));
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(text)) fields[name] = value;
    return fields;
  }

  async function invoiceLink(c: Context, disposition: 'attachment' | 'inline'): Promise<string> {
    requireSameSite(c);
    const customerId = await customerOf(c);
    const id = idParam(c, TRANSACTION_ID, 'transaction');
    // Ownership is checked on the transaction as the service has it, never on anything sent.
    const transaction = await client.transactions.get(id);
    if (transaction.customerId !== customerId) throw new Refused(FORBIDDEN);
    const { url } = await client.transactions.getInvoicePdf(id, { disposition });
    return url;
  }

  /** A fresh link to the credit note of one of the customer's own adjustments. */
  async function creditNoteLink(c: Context): Promise<string> {
    requireSameSite(c);
    const customerId = await customerOf(c);
    const id = idParam(c, ADJUSTMENT_ID, 'adjustment');
    // Read by id alone, then checked: a customer filter in the query is not what decides.
    const [adjustment] = await client.adjustments.list({ id: [id] }).next();
    if (!adjustment) throw new Refused(NOT_FOUND);
    if (adjustment.customerId !== customerId) throw new Refused(FORBIDDEN);
    const { url } = await client.adjustments.getCreditNote(id, { disposition: 'attachment' });
    return url;
  }

  /** The customer's subscription named in the path, or a refusal: another customer's is `forbidden`. */
  async function subscriptionOf(c: Context): Promise<{ customerId: string; subscription: Subscription }> {
    const customerId = await customerOf(c);
    const id = idParam(c, SUBSCRIPTION_ID, 'subscription');
    const subscription = await ownSubscription(client, customerId, id);
    if (!subscription) throw new Refused(FORBIDDEN);
    return { customerId, subscription };
  }

  function back(notice: Notice, at?: string | null): string {
    const query = new URLSearchParams({ done: notice, ...(at ? { at } : {}) });
    return `${basePath}/?${query.toString()}#plan`;
  }

  async function history(viewer: Viewer, after: string | null, text: Text): Promise<HistoryPage> {
    if (viewer.kind === 'no_customer') return EMPTY_HISTORY;
    return loadHistoryPage(client, viewer.customerId, after, text.locale, text.t);
  }

  async function usage(viewer: Viewer, text: Text): Promise<readonly UsageMeterView[]> {
    if (viewer.kind === 'no_customer') return [];
    return loadUsage(client, viewer.customerId, text.locale, unitNames, text.t);
  }

  function noticeOf(c: Context, text: Text): string | null {
    const done = c.req.query('done') as Notice | undefined;
    if (done === undefined || !(done in NOTICES)) return null;
    const at = c.req.query('at');
    const date = at && !Number.isNaN(Date.parse(at)) ? dateText(at, text.locale) : '';
    return text.t(NOTICES[done], { date });
  }

  function refusalOf(error: unknown): PortalRefusal {
    if (error instanceof Refused) return error.refusal;
    const fromService = refusalFromServiceError(error);
    if (fromService) return fromService;
    logError('billing portal: unexpected failure', error);
    return INTERNAL_ERROR;
  }

  const app = new Hono({ strict: false }).basePath(basePath === '' ? '/' : basePath);

  // JSON routes answer refusals as JSON; page routes as a short page.
  const api = new Hono({ strict: false });
  api.get('/transactions', async (c) => {
    const viewer = await viewerOf(c.req.raw);
    const page = await history(viewer, readCursor(c), await textOf(c, viewer));
    return c.json({ data: page.rows, hasMore: page.hasMore, next: page.next });
  });
  api.post('/transactions/:id/invoice', async (c) => {
    // Only `disposition` is read from the body, and only from a small one (counted on the stream,
    // ADR 0903); any customer id in it is ignored.
    const text = await readTextWithin(c.req.raw, 1_024);
    const body = text === null ? null : (parseJsonOrNull(text) as { disposition?: unknown } | null);
    const disposition = body?.disposition === 'inline' ? 'inline' : 'attachment';
    return c.json({ data: { url: await invoiceLink(c, disposition) } });
  });
  api.post('/adjustments/:id/credit-note', async (c) => c.json({ data: { url: await creditNoteLink(c) } }));
  api.get('/usage', async (c) => {
    const viewer = await viewerOf(c.req.raw);
    return c.json({ data: await usage(viewer, await textOf(c, viewer)) });
  });
  api.all('*', () => {
    throw new Refused(NOT_FOUND);
  });
  api.onError((error, c) => {
    const refusal = refusalOf(error);
    return c.json(refusalBody(refusal), refusal.status);
  });
  app.route('/api', api);

  app.get('/assets/portal.js', (c) =>
    c.body(PORTAL_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    }),
  );
  app.get('/assets/portal.css', (c) =>
    c.body(PORTAL_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    }),
  );

  app.get('/', async (c) => {
    const viewer = await viewerOf(c.req.raw);
    const after = readCursor(c);
    const text = await textOf(c, viewer);
    const customerId = viewer.kind === 'customer' ? viewer.customerId : null;
    const forCustomer = <T>(load: (id: string) => Promise<T>) =>
      customerId === null ? Promise.resolve(null) : optional(() => load(customerId));
    const [page, meters, csrfToken, plans, balance, adjustments] = await Promise.all([
      history(viewer, after, text),
      usage(viewer, text),
      options.csrfToken?.(c.req.raw),
      forCustomer((id) => loadPlans(client, id, text.t, text.locale, allowed)),
      forCustomer((id) => loadBalance(client, id, text.t, text.locale)),
      forCustomer((id) => loadAdjustments(client, id, text.t, text.locale)),
    ]);
    const details = allowed.billingDetails
      ? await forCustomer(async (id) => {
          const [first] = (await client.subscriptions.list({ customerId: [id], perPage: 1 }).next()) ?? [];
          return loadBillingDetails(client, id, first?.customerId === id ? first.addressId : null);
        })
      : null;
    return c.html(
      renderPage({
        basePath,
        assets,
        language: text.language,
        t: text.t,
        locale: text.locale,
        title: titleOf(text),
        history: page,
        after,
        usage: meters,
        csrfToken: csrfToken ?? null,
        signOutUrl: options.signOutUrl ?? null,
        hasCustomer: viewer.kind === 'customer',
        pollMs,
        plans,
        balance,
        adjustments,
        details,
        notice: noticeOf(c, text),
      }),
    );
  });

  // Without script, the invoice button is a form post: answer with a page that links the PDF.
  app.post('/transactions/:id/invoice', async (c) => {
    const url = await invoiceLink(c, 'attachment');
    const text = await textOf(c);
    return c.html(
      renderMessagePage(
        text.t('invoiceReady'),
        text.t('linkOneHour'),
        assets,
        { href: url, text: text.t('downloadInvoicePdf') },
        text.language,
      ),
    );
  });

  // A credit note without script: a page that links the PDF (a redirect to the service's
  // address would leave 'self', which the policy's form-action refuses).
  app.post('/adjustments/:id/credit-note', async (c) => {
    const url = await creditNoteLink(c);
    const text = await textOf(c);
    return c.html(
      renderMessagePage(
        text.t('creditNoteReady'),
        text.t('linkOneHour'),
        assets,
        { href: url, text: text.t('downloadCreditNotePdf') },
        text.language,
      ),
    );
  });

  // Self-service: each action checks the subscription is the signed-in customer's first.
  app.get('/subscriptions/:id/cancel', async (c) => {
    const { subscription } = await subscriptionOf(c);
    const text = await textOf(c, await viewerOf(c.req.raw));
    if (!allowed.cancel) throw new Refused(NOT_FOUND);
    const end = subscription.currentBillingPeriod?.endsAt ?? subscription.nextBilledAt;
    const name = subscription.items
      .map((item) => item.product?.name)
      .filter(Boolean)
      .join(', ');
    return c.html(
      renderCancelConfirm(
        subPage(text),
        (await options.csrfToken?.(c.req.raw)) ?? null,
        subscription.id,
        name,
        end ? dateText(end, text.locale) : '',
      ),
    );
  });
  app.post('/subscriptions/:id/cancel', async (c) => {
    requireSameSite(c);
    if (!allowed.cancel) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    const canceled = await client.subscriptions.cancel(subscription.id, { effectiveFrom: 'next_billing_period' });
    return c.redirect(back('cancel', canceled.scheduledChange?.effectiveAt), 303);
  });
  app.post('/subscriptions/:id/keep', async (c) => {
    requireSameSite(c);
    if (!allowed.cancel) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    if (subscription.scheduledChange?.action !== 'cancel') return c.redirect(back('keep'), 303);
    await client.subscriptions.update(subscription.id, { scheduledChange: null });
    return c.redirect(back('keep'), 303);
  });
  app.post('/subscriptions/:id/pause', async (c) => {
    requireSameSite(c);
    if (!allowed.pause) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    const paused = await client.subscriptions.pause(subscription.id, { effectiveFrom: 'next_billing_period' });
    return c.redirect(back('pause', paused.scheduledChange?.effectiveAt), 303);
  });
  app.post('/subscriptions/:id/keep-running', async (c) => {
    requireSameSite(c);
    if (!allowed.pause) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    if (subscription.scheduledChange?.action === 'pause') {
      await client.subscriptions.update(subscription.id, { scheduledChange: null });
    }
    return c.redirect(back('keep'), 303);
  });
  app.post('/subscriptions/:id/resume', async (c) => {
    requireSameSite(c);
    if (!allowed.pause) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    await client.subscriptions.resume(subscription.id, { effectiveFrom: 'immediately' });
    return c.redirect(back('resume'), 303);
  });

  /** The change a form asks for: a price the plan may move to and a quantity within its limits. */
  async function requestedChange(subscription: Subscription, text: Text, fields: Record<string, string>) {
    const priceId = fields.price_id ?? '';
    const quantity = Number(fields.quantity ?? '');
    if (!PRICE_ID.test(priceId)) throw new Refused(badRequest('price_id must be a price id (pri_…).'));
    const choices = await planChoices(client, subscription, text.t, text.locale);
    const choice = choices.find((entry) => entry.priceId === priceId);
    if (!choice) throw new Refused(badRequest('That plan cannot be chosen for this subscription.'));
    if (!Number.isInteger(quantity) || quantity < choice.minimum || quantity > choice.maximum) {
      throw new Refused(badRequest(`The quantity must be a whole number from ${choice.minimum} to ${choice.maximum}.`));
    }
    const [price] = await client.prices.list({ id: [priceId] }).next();
    return {
      priceId,
      quantity,
      label: choice.label,
      input: {
        items: changedItems(subscription, priceId, quantity),
        prorationBillingMode: prorationFor(subscription, price),
      },
    };
  }

  app.get('/subscriptions/:id/change', async (c) => {
    if (!allowed.changePlan) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    const text = await textOf(c, await viewerOf(c.req.raw));
    const choices = await planChoices(client, subscription, text.t, text.locale);
    const [item] = subscription.items;
    return c.html(
      renderChangeForm(subPage(text), subscription.id, choices, {
        priceId: item?.price.id ?? '',
        quantity: item?.quantity ?? 1,
      }),
    );
  });
  app.get('/subscriptions/:id/change/preview', async (c) => {
    if (!allowed.changePlan) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    const text = await textOf(c, await viewerOf(c.req.raw));
    const change = await requestedChange(subscription, text, c.req.query());
    const preview = await client.subscriptions.previewUpdate(subscription.id, change.input);
    return c.html(
      renderChangePreview(
        subPage(text),
        (await options.csrfToken?.(c.req.raw)) ?? null,
        subscription.id,
        change,
        await describePreview(client, preview, subscription.currencyCode, text.t, text.locale),
      ),
    );
  });
  app.post('/subscriptions/:id/change', async (c) => {
    requireSameSite(c);
    if (!allowed.changePlan) throw new Refused(NOT_FOUND);
    const { subscription } = await subscriptionOf(c);
    const text = await textOf(c);
    const change = await requestedChange(subscription, text, await readForm(c));
    await client.subscriptions.update(subscription.id, change.input);
    return c.redirect(back('change'), 303);
  });

  // The payment method: the service's checkout for it when it offers one, else how to change it.
  app.get('/subscriptions/:id/payment-method', async (c) => {
    const { subscription } = await subscriptionOf(c);
    const text = await textOf(c, await viewerOf(c.req.raw));
    const checkout = await updatePaymentMethodCheckout(client, subscription);
    if (checkout) return c.redirect(checkout, 303);
    const message = subscription.collectionMode === 'manual' ? 'paymentMethodManual' : 'paymentMethodUnavailable';
    return c.html(
      renderSubPage(
        subPage(text),
        text.t('paymentMethodHeading'),
        `<p class="hint">${escapeHtml(text.t(message))}</p>`,
      ),
    );
  });

  app.post('/billing-details', async (c) => {
    requireSameSite(c);
    if (!allowed.billingDetails) throw new Refused(NOT_FOUND);
    const customerId = await customerOf(c);
    const text = await textOf(c, { kind: 'customer', customerId });
    const { values, errors } = readDetailsForm(await readForm(c));
    if (Object.keys(errors).length > 0) {
      const form = renderDetailsForm({
        t: text.t,
        basePath,
        csrfToken: (await options.csrfToken?.(c.req.raw)) ?? null,
        details: values,
        errors,
      });
      return c.html(renderSubPage(subPage(text), text.t('detailsHeading'), form), 400);
    }
    const [first] = await client.subscriptions.list({ customerId: [customerId], perPage: 1 }).next();
    const current = await loadBillingDetails(
      client,
      customerId,
      first?.customerId === customerId ? first.addressId : null,
    );
    await saveBillingDetails(client, customerId, current, values);
    return c.redirect(back('details'), 303);
  });

  // A customer portal session link (ADR 1440): checked here first (ADR 1443), then verified by
  // the service; the host signs in.
  app.get('/session', async (c) => {
    const { startSession } = options;
    if (!startSession) throw new Refused(NOT_FOUND);
    const token = c.req.query('token') ?? '';
    const action = c.req.query('action') ?? 'overview';
    const subscriptionId = c.req.query('subscription_id');
    const invalid = new Refused(
      { status: 404, code: 'portal_session_invalid', detail: 'This link is not valid.' },
      { title: 'sessionInvalid', text: 'sessionInvalidText' },
    );
    const expired = new Refused(
      { status: 410, code: 'portal_session_expired', detail: 'This link has expired.' },
      { title: 'sessionExpired', text: 'sessionExpiredText' },
    );
    if (token === '' || token.length > 2_048) throw invalid;
    const verdict = await sessionTokens.check(token);
    if (verdict === 'invalid') throw invalid;
    if (verdict === 'expired') throw expired;
    let grant: VerifiedPortalSession;
    try {
      grant = await client.customerPortalSessions.verify(token);
    } catch (error) {
      if (error instanceof DrawdownApiError && error.code === 'portal_session_expired') throw expired;
      if (error instanceof DrawdownApiError && (error.code === 'portal_session_invalid' || error.status === 400)) {
        throw invalid;
      }
      throw error;
    }
    let target = `${basePath}/`;
    if (action === 'cancel_subscription' || action === 'update_subscription_payment_method') {
      if (!subscriptionId || !grant.subscriptionIds.includes(subscriptionId)) throw invalid;
      target = `${basePath}/subscriptions/${subscriptionId}/${action === 'cancel_subscription' ? 'cancel' : 'payment-method'}`;
    } else if (action !== 'overview') {
      throw invalid;
    }
    const headers = new Headers(await startSession(grant, c.req.raw));
    headers.set('Location', target);
    return new Response(null, { status: 303, headers });
  });

  app.all('*', () => {
    throw new Refused(NOT_FOUND);
  });

  app.onError(async (error, c) => {
    const refusal = refusalOf(error);
    const text = await textOf(c).catch(() => ({ language: 'en' as const, t: translator('en'), locale: 'en-US' }));
    const page = error instanceof Refused ? error.page : undefined;
    const link =
      refusal === NOT_AUTHENTICATED && options.signInUrl ? { href: options.signInUrl, text: text.t('signIn') } : null;
    const title = page
      ? text.t(page.title)
      : refusal === NOT_AUTHENTICATED
        ? text.t('notAuthenticated')
        : refusal.detail;
    const message = page ? text.t(page.text) : messageFor(refusal, text.t);
    return c.html(renderMessagePage(title, message, assets, link, text.language), refusal.status);
  });

  return async (request) => withSecurityHeaders(await app.fetch(request));
}

/**
 * The checkout that updates a subscription's payment method, when the service offers one
 * (`GET /subscriptions/{id}/update-payment-method-transaction`, issue 14 part A); null when it
 * does not, or for a manually collected subscription.
 */
async function updatePaymentMethodCheckout(client: PortalClient, subscription: Subscription): Promise<string | null> {
  if (subscription.collectionMode !== 'automatic') return null;
  const subscriptions = client.subscriptions as unknown as {
    getPaymentMethodChangeTransaction?: (id: string) => Promise<{ checkout?: { url?: string | null } | null }>;
  };
  if (typeof subscriptions.getPaymentMethodChangeTransaction !== 'function') return null;
  try {
    const transaction = await subscriptions.getPaymentMethodChangeTransaction(subscription.id);
    return transaction.checkout?.url ?? null;
  } catch (error) {
    if (error instanceof DrawdownApiError && (error.status === 404 || error.status === 403)) return null;
    throw error;
  }
}

function messageFor(refusal: PortalRefusal, t: Translate): string {
  switch (refusal.code) {
    case 'not_authenticated':
      return t('notAuthenticatedText');
    case 'no_customer':
      return t('noCustomerText');
    case 'forbidden':
      return t('forbiddenText');
    case 'not_found':
      return t('notFoundText');
    default:
      return `${refusal.detail} (${refusal.code})`;
  }
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
