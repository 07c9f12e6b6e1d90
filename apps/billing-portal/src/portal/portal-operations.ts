/**
 * @module
 * What the portal does, apart from HTTP: who is signed in and in which language, the page's
 * parts, and every action, each checking on the service's own record that what it names is the
 * signed-in customer's (seed 001, rule 6; ADR 1441). The routes in `../http/routes/` read the request,
 * call one of these and answer; nothing here reads a path, a query or a form.
 */
import { negotiateLocale } from '@drawdown/http-kit';
import {
  CANCELLATION_REASONS,
  type CancellationReasonCode,
  changeStatement,
  DrawdownApiError,
  type ProrationBillingMode,
  type Subscription,
  type SubscriptionWithIncludes,
  type VerifiedPortalSession,
} from '@drawdown/sdk';
import { dateText, EMPTY_HISTORY, type HistoryPage, loadHistoryPage } from './billing-history.js';
import { type Language, type MessageKey, type Translate, translator } from './messages.js';
import type { PortalClient } from './portal-client.js';
import {
  badRequest,
  FORBIDDEN,
  INTERNAL_ERROR,
  NO_CUSTOMER,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  type PortalRefusal,
  Refused,
  refusalFromServiceError,
} from './portal-error.js';
import type { PageAssets, PageInput, SubPageInput } from './render-page.js';
import {
  type CardView,
  changedItems,
  describeChange,
  loadAdjustments,
  loadBalance,
  loadBillingDetails,
  loadCard,
  loadPlans,
  loadSellerName,
  money,
  ownSubscription,
  type PlanChoice,
  type PreviewView,
  planChoices,
  prorationFor,
  REASON_TEXT,
  type ResolvedSelfService,
  readDetailsForm,
  saveBillingDetails,
  subscribeChoices,
} from './self-service.js';
import { PortalSessionTokens } from './session-tokens.js';
import { loadUsage, UnitNameCache, type UsageMeterView } from './usage-view.js';

const PRICE_ID = /^pri_[a-z\d]{26}$/;

/** Who is looking: a customer, or a signed-in user the host knows no customer record for. */
export type Viewer = { readonly kind: 'customer'; readonly customerId: string } | { readonly kind: 'no_customer' };

/** The viewer's language and the locale amounts and dates are written in. */
export interface Text {
  readonly language: Language;
  readonly t: Translate;
  readonly locale: string;
}

/** What a finished action says on the page it returns to. */
const NOTICES = {
  cancel: 'doneCancel',
  keep: 'doneKeep',
  pause: 'donePause',
  resume: 'doneResume',
  subscribe: 'doneSubscribe',
  change: 'doneChange',
  details: 'doneDetails',
} as const satisfies Record<string, MessageKey>;
export type Notice = keyof typeof NOTICES;

/** A verified portal session's grant (ADR 1440). */
export type PortalSessionGrant = VerifiedPortalSession;

/** The portal's settings, resolved once from the host's options. */
export interface PortalSettings {
  readonly client: PortalClient;
  readonly resolveCustomerId: (request: Request) => Promise<string | null | undefined>;
  /** Where the portal is mounted, without a trailing slash ('' at the root). */
  readonly basePath: string;
  readonly csrfToken:
    | ((request: Request) => string | null | undefined | Promise<string | null | undefined>)
    | undefined;
  readonly signInUrl: string | undefined;
  readonly signOutUrl: string | undefined;
  /**
   * The portal's public address (origin and base path) as customers reach it; checkout links
   * lead back there (ADR 0813). Unset: the request's own origin and the base path.
   */
  readonly publicUrl: string | undefined;
  readonly title: string | undefined;
  readonly pollMs: number;
  readonly allowed: ResolvedSelfService;
  readonly assets: PageAssets;
  readonly startSession:
    | ((
        grant: PortalSessionGrant,
        request: Request,
      ) => Promise<Headers | Record<string, string>> | Headers | Record<string, string>)
    | undefined;
  readonly logError: (message: string, error: unknown) => void;
}

/** A plan change a form asks for, checked against the plan's choices. */
export interface RequestedChange {
  readonly priceId: string;
  readonly quantity: number;
  readonly label: string;
  readonly input: {
    readonly items: ReturnType<typeof changedItems>;
    readonly prorationBillingMode: ProrationBillingMode;
  };
}

/** A part of the page the key may not be allowed to read: left off (null) on 403, else the failure stands. */
async function optional<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof DrawdownApiError && error.status === 403) return null;
    throw error;
  }
}

const invalidSession = () =>
  new Refused(
    { status: 404, code: 'portal_session_invalid', detail: 'This link is not valid.' },
    { title: 'sessionInvalid', text: 'sessionInvalidText' },
  );
const expiredSession = () =>
  new Refused(
    { status: 410, code: 'portal_session_expired', detail: 'This link has expired.' },
    { title: 'sessionExpired', text: 'sessionExpiredText' },
  );

export type PortalOperations = ReturnType<typeof createPortalOperations>;

/** How long the portal reuses what rarely changes: the account's checkout settings, seller name and logo. */
const ACCOUNT_FACTS_TTL_MS = 60_000;

/** A value fetched at most once a minute; a failed fetch is tried again on the next use. */
function cachedFor<T>(load: () => Promise<T>): () => Promise<T> {
  let entry: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (entry === null || now - entry.at > ACCOUNT_FACTS_TTL_MS) {
      const value = load();
      entry = { at: now, value };
      value.catch(() => {
        if (entry?.value === value) entry = null;
      });
    }
    return entry.value;
  };
}

/** A checkout link with the address a finished checkout leads back to (ADR 1112, 0813). */
export function withReturnUrl(checkoutUrl: string, returnUrl: string | null): string {
  if (returnUrl === null) return checkoutUrl;
  const url = new URL(checkoutUrl);
  url.searchParams.set('return_url', returnUrl);
  return url.href;
}

/** The seller's logo as the portal serves it from its own origin (the page's CSP allows only 'self' images). */
export interface SellerLogo {
  readonly contentType: string;
  readonly bytes: Uint8Array;
  /** Changes when the logo does, for a cache-busting address. */
  readonly version: string;
}

export function createPortalOperations(settings: PortalSettings) {
  const { client, basePath, allowed, assets } = settings;
  const unitNames = new UnitNameCache();
  const sessionTokens = new PortalSessionTokens(client);
  const nameOfUnit = (unitId: string) => unitNames.nameOf(client, unitId);

  /** The account's checkout return address, when the key may read it (null otherwise). */
  const checkoutReturnSetting = cachedFor(
    async () => (await optional(() => client.checkoutSettings.get()))?.returnUrl ?? null,
  );
  const sellerName = cachedFor(async () => (await optional(() => loadSellerName(client))) ?? null);
  const sellerLogo = cachedFor(async (): Promise<SellerLogo | null> => {
    try {
      const logo = await client.sellerDetails.logo();
      const bytes = new Uint8Array(Buffer.from(logo.data, 'base64'));
      return { contentType: logo.contentType, bytes, version: String(Date.parse(logo.updatedAt)) };
    } catch (error) {
      if (error instanceof DrawdownApiError && (error.status === 403 || error.status === 404)) return null;
      throw error;
    }
  });

  /** The portal's public base (origin and path, no trailing slash). */
  function publicBaseOf(request: Request): string {
    if (settings.publicUrl) return settings.publicUrl.replace(/\/+$/, '');
    return `${new URL(request.url).origin}${basePath}`;
  }

  /**
   * Where a checkout the portal sends the customer to leads back: the portal's page, when the
   * account's checkout settings allow its origin (ADR 1112: a link's `return_url` must share the
   * setting's origin, and none is allowed while the account sets none); null otherwise.
   */
  async function returnUrlOf(request: Request, done?: Notice): Promise<string | null> {
    // A way back is an addition to the link: a failed read leaves the link as the service made it.
    const setting = await checkoutReturnSetting().catch((error: unknown) => {
      settings.logError('billing portal: checkout settings unreadable', error);
      return null;
    });
    if (setting === null || !URL.canParse(setting)) return null;
    const base = publicBaseOf(request);
    if (new URL(setting).origin !== new URL(base).origin) return null;
    return `${base}/${done ? `?done=${done}` : ''}`;
  }

  async function viewerOf(request: Request): Promise<Viewer> {
    const customerId = await settings.resolveCustomerId(request);
    if (customerId === undefined) throw new Refused(NOT_AUTHENTICATED);
    if (customerId === null || customerId === '') return { kind: 'no_customer' };
    return { kind: 'customer', customerId };
  }

  /** The signed-in customer's id; `no_customer` for a user without one. */
  async function customerOf(request: Request): Promise<string> {
    const viewer = await viewerOf(request);
    if (viewer.kind === 'no_customer') throw new Refused(NO_CUSTOMER);
    return viewer.customerId;
  }

  /** The viewer's language: the customer's stored locale, then Accept-Language (ADR 1441). */
  async function textOf(request: Request, viewer?: Viewer): Promise<Text> {
    const header = request.headers.get('accept-language');
    let stored: string | null = null;
    if (viewer?.kind === 'customer') {
      stored = (await optional(() => client.customers.get(viewer.customerId)))?.locale ?? null;
    }
    const { language, locale } = negotiateLocale({ customerLocale: stored, acceptLanguage: header });
    return { language, t: translator(language), locale };
  }

  function titleOf(text: Text): string {
    return settings.title ?? text.t('billing');
  }

  async function csrfTokenOf(request: Request): Promise<string | null> {
    return (await settings.csrfToken?.(request)) ?? null;
  }

  /** A page of the history; its "Pay now" links lead back to the portal (ADR 0813). */
  async function history(request: Request, viewer: Viewer, after: string | null, text: Text): Promise<HistoryPage> {
    if (viewer.kind === 'no_customer') return EMPTY_HISTORY;
    const [page, returnUrl] = await Promise.all([
      loadHistoryPage(client, viewer.customerId, after, text.locale, text.t),
      returnUrlOf(request),
    ]);
    if (returnUrl === null) return page;
    return {
      ...page,
      rows: page.rows.map((row) => (row.payUrl ? { ...row, payUrl: withReturnUrl(row.payUrl, returnUrl) } : row)),
    };
  }

  async function usage(viewer: Viewer, text: Text): Promise<readonly UsageMeterView[]> {
    if (viewer.kind === 'no_customer') return [];
    return loadUsage(client, viewer.customerId, text.locale, unitNames, text.t);
  }

  /** The change a form asks for: a price the plan may move to and a quantity within its limits. */
  async function requestedChange(
    subscription: Subscription,
    text: Text,
    fields: Readonly<Record<string, string | undefined>>,
  ): Promise<RequestedChange> {
    const priceId = fields.price_id ?? '';
    const quantity = Number(fields.quantity ?? '');
    if (!PRICE_ID.test(priceId)) throw new Refused(badRequest('price_id must be a price id (pri_…).'));
    const choices = await planChoices(client, subscription, text.t, text.locale, nameOfUnit);
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
        prorationBillingMode: prorationFor(subscription, price, allowed.changeBilling),
      },
    };
  }

  /** The address the customer's billing details update: the first subscription's, else none. */
  async function detailsOf(customerId: string) {
    const [first] = (await client.subscriptions.list({ customerId: [customerId], perPage: 1 }).next()) ?? [];
    return loadBillingDetails(client, customerId, first?.customerId === customerId ? first.addressId : null);
  }

  return {
    settings,
    viewerOf,
    customerOf,
    textOf,
    csrfTokenOf,
    history,
    usage,

    /** The input of a page of its own (a confirmation, a preview, a form with errors). */
    subPage(text: Text): SubPageInput {
      return { language: text.language, t: text.t, assets, basePath, title: titleOf(text) };
    },

    /** Where an action returns to: the page, with its notice (and the date it takes effect). */
    back(notice: Notice, at?: string | null): string {
      const query = new URLSearchParams({ done: notice, ...(at ? { at } : {}) });
      return `${basePath}/?${query.toString()}#plan`;
    },

    /** The notice a `?done=…&at=…` return asks for, in the viewer's language; null for none or an unknown one. */
    noticeOf(done: string | undefined, at: string | undefined, text: Text): string | null {
      if (done === undefined || !(done in NOTICES)) return null;
      const date = at && !Number.isNaN(Date.parse(at)) ? dateText(at, text.locale) : '';
      return text.t(NOTICES[done as Notice], { date });
    },

    /** Everything the page shows the viewer, loaded at once; parts the key may not read are left off. */
    async page(request: Request, viewer: Viewer, after: string | null, text: Text): Promise<PageInput> {
      const customerId = viewer.kind === 'customer' ? viewer.customerId : null;
      const forCustomer = <T>(load: (id: string) => Promise<T>) =>
        customerId === null ? Promise.resolve(null) : optional(() => load(customerId));
      const [page, meters, csrfToken, plans, balance, adjustments, card, seller, logo, details] = await Promise.all([
        history(request, viewer, after, text),
        usage(viewer, text),
        csrfTokenOf(request),
        forCustomer((id) => loadPlans(client, id, text.t, text.locale, allowed)),
        forCustomer((id) => loadBalance(client, id, text.t, text.locale)),
        forCustomer((id) => loadAdjustments(client, id, text.t, text.locale)),
        forCustomer((id): Promise<CardView | null> => loadCard(client, id, text.t, text.locale)),
        // The seller's name and logo decorate the page: a failed read leaves them off.
        sellerName().catch(() => null),
        sellerLogo().catch(() => null),
        allowed.billingDetails ? forCustomer(detailsOf) : Promise.resolve(null),
      ]);
      // A customer with no plan may pick one of the host's plans and pay for it at checkout (ADR 0812).
      const offers =
        plans !== null && plans.length === 0 && customerId !== null
          ? await subscribeChoices(client, allowed.subscribePriceIds, text.t, text.locale, nameOfUnit)
          : [];
      return {
        basePath,
        assets,
        language: text.language,
        t: text.t,
        locale: text.locale,
        title: titleOf(text),
        history: page,
        after,
        usage: meters,
        csrfToken,
        signOutUrl: settings.signOutUrl ?? null,
        hasCustomer: viewer.kind === 'customer',
        pollMs: settings.pollMs,
        plans,
        balance,
        adjustments,
        details,
        card,
        offers,
        seller:
          seller === null && logo === null
            ? null
            : { name: seller, logoUrl: logo ? `${basePath}/assets/seller-logo?v=${logo.version}` : null },
        notice: null,
      };
    },

    /** The seller's logo, for `{base}/assets/seller-logo`; null when none is set or the key may not read it. */
    sellerLogo,

    /** The plans a customer with no plan may subscribe to (ADR 0812). */
    subscribeChoices(text: Text): Promise<readonly PlanChoice[]> {
      return subscribeChoices(client, allowed.subscribePriceIds, text.t, text.locale, nameOfUnit);
    },

    /**
     * A checkout for the customer's first plan: a transaction for one of the offered prices, paid
     * on the hosted checkout, which leads back to the portal (ADR 0812, 0813). A customer who
     * already has a plan is refused (they change it instead); an open checkout the portal made for
     * the same price is reused rather than a second one made.
     */
    async subscribeCheckout(request: Request, customerId: string, priceId: string): Promise<string> {
      if (!PRICE_ID.test(priceId) || !allowed.subscribePriceIds.includes(priceId)) {
        throw new Refused(badRequest('That plan cannot be chosen.'));
      }
      const live = await client.subscriptions
        .list({ customerId: [customerId], status: ['active', 'trialing', 'past_due', 'paused'], perPage: 1 })
        .next();
      if (live.some((subscription) => subscription.customerId === customerId)) {
        throw new Refused(badRequest('You already have a plan: change it instead.'));
      }
      const open = (
        await client.transactions.list({ customerId: [customerId], status: ['draft', 'ready'], perPage: 30 }).next()
      ).find(
        (transaction) =>
          transaction.customerId === customerId &&
          transaction.customData?.portalSubscribe === priceId &&
          transaction.checkout?.url,
      );
      let checkout = open?.checkout?.url ?? null;
      if (checkout === null) {
        const [price] = await client.prices.list({ id: [priceId] }).next();
        if (!price) throw new Refused(badRequest('That plan cannot be chosen.'));
        const [address] = await client.addresses.list(customerId, { status: ['active'], perPage: 1 }).next();
        const created = await client.transactions.create({
          customerId,
          addressId: address?.customerId === customerId ? address.id : null,
          currencyCode: price.unitPrice.currencyCode,
          collectionMode: 'automatic',
          items: [{ priceId, quantity: 1 }],
          customData: { portalSubscribe: priceId },
        });
        checkout = created.checkout?.url ?? null;
      }
      if (checkout === null) throw new Refused(badRequest('Paying online is not available; ask us for an invoice.'));
      return withReturnUrl(checkout, await returnUrlOf(request, 'subscribe'));
    },

    /** A fresh invoice link for one of the customer's own transactions. */
    async invoiceLink(
      customerId: string,
      transactionId: string,
      disposition: 'attachment' | 'inline',
    ): Promise<string> {
      // Ownership is checked on the transaction as the service has it, never on anything sent.
      const transaction = await client.transactions.get(transactionId);
      if (transaction.customerId !== customerId) throw new Refused(FORBIDDEN);
      const { url } = await client.transactions.getInvoicePdf(transactionId, { disposition });
      return url;
    },

    /** A fresh link to the credit note of one of the customer's own adjustments. */
    async creditNoteLink(customerId: string, adjustmentId: string): Promise<string> {
      // Read by id alone, then checked: a customer filter in the query is not what decides.
      const [adjustment] = await client.adjustments.list({ id: [adjustmentId] }).next();
      if (!adjustment) throw new Refused(NOT_FOUND);
      if (adjustment.customerId !== customerId) throw new Refused(FORBIDDEN);
      const { url } = await client.adjustments.getCreditNote(adjustmentId, { disposition: 'attachment' });
      return url;
    },

    /** The customer's subscription, or a refusal: another customer's is `forbidden`. */
    async subscriptionOf(customerId: string, subscriptionId: string): Promise<Subscription> {
      const subscription = await ownSubscription(client, customerId, subscriptionId);
      if (!subscription) throw new Refused(FORBIDDEN);
      return subscription;
    },

    /** Refuses an action the account does not allow with 404, as if it did not exist (ADR 1441). */
    requireAllowed(action: keyof ResolvedSelfService): void {
      if (!allowed[action]) throw new Refused(NOT_FOUND);
    },

    /** Cancels at the end of the period, with the reason the customer gave (ADR 0806); the instant it takes effect. */
    async cancel(
      subscription: Subscription,
      reason: { readonly reason: CancellationReasonCode; readonly comment: string | null } | null,
    ): Promise<string | null | undefined> {
      const canceled = await client.subscriptions.cancel(subscription.id, {
        effectiveFrom: 'next_billing_period',
        ...(reason ? { cancellationReason: reason } : {}),
      });
      return canceled.scheduledChange?.effectiveAt;
    },

    /**
     * The reason a cancel form gives: one of the list, and optional free text; null when none was
     * chosen (giving a reason is optional: cancelling is never made harder for it).
     */
    readReason(fields: Readonly<Record<string, string | undefined>>): {
      readonly reason: CancellationReasonCode;
      readonly comment: string | null;
    } | null {
      const reason = fields.reason ?? '';
      if (!(CANCELLATION_REASONS as readonly string[]).includes(reason)) return null;
      const comment = (fields.comment ?? '').trim().slice(0, 500);
      return { reason: reason as CancellationReasonCode, comment: comment === '' ? null : comment };
    },

    /** The reasons in the viewer's words, in the order the cancel page lists them. */
    reasonOptions(text: Text): readonly { readonly value: CancellationReasonCode; readonly label: string }[] {
      return CANCELLATION_REASONS.map((value) => ({ value, label: text.t(REASON_TEXT[value]) }));
    },

    /** Takes back a scheduled change of `action` (cancel or pause); nothing when none is scheduled. */
    async keep(subscription: Subscription, action: 'cancel' | 'pause'): Promise<void> {
      if (subscription.scheduledChange?.action !== action) return;
      await client.subscriptions.update(subscription.id, { scheduledChange: null });
    },

    /** Pauses at the end of the period; the instant it takes effect. */
    async pause(subscription: Subscription): Promise<string | null | undefined> {
      const paused = await client.subscriptions.pause(subscription.id, { effectiveFrom: 'next_billing_period' });
      return paused.scheduledChange?.effectiveAt;
    },

    /**
     * Resumes now, starting a new billing period: the charge the confirmation stated (the plan's
     * recurring charge as the service prices it) is what the resume bills.
     */
    async resume(subscription: Subscription): Promise<void> {
      await client.subscriptions.resume(subscription.id, {
        effectiveFrom: 'immediately',
        onResume: 'start_new_billing_period',
      });
    },

    /** What resuming now charges, in words, before the customer confirms it. */
    async resumeCharge(subscription: Subscription, text: Text): Promise<string> {
      const priced = (await client.subscriptions.get(subscription.id, {
        include: ['recurring_transaction_details'],
      })) as SubscriptionWithIncludes;
      const totals = priced.recurringTransactionDetails?.totals;
      const amount = totals?.grandTotal ?? totals?.total ?? '0';
      const key = subscription.collectionMode === 'manual' ? 'resumeInvoice' : 'resumeCharge';
      return text.t(key, { amount: await money(client, amount, subscription.currencyCode, text.locale) });
    },

    /** The prices the plan may move to, in the viewer's language. */
    planChoices(subscription: Subscription, text: Text): Promise<readonly PlanChoice[]> {
      return planChoices(client, subscription, text.t, text.locale, nameOfUnit);
    },

    requestedChange,

    /** What a change would charge now and next, as the service previews it; changes nothing. */
    async previewChange(subscription: Subscription, change: RequestedChange, text: Text): Promise<PreviewView> {
      const before = (await client.subscriptions.get(subscription.id, {
        include: ['next_transaction', 'recurring_transaction_details'],
      })) as SubscriptionWithIncludes;
      const preview = await client.subscriptions.previewUpdate(subscription.id, change.input);
      const statement = changeStatement(before, preview, change.input.prorationBillingMode);
      return describeChange(client, statement, before.currentBillingPeriod, text.t, text.locale);
    },

    async changePlan(subscription: Subscription, change: RequestedChange): Promise<void> {
      await client.subscriptions.update(subscription.id, change.input);
    },

    /**
     * The checkout that updates a subscription's payment method, when the service offers one
     * (`GET /subscriptions/{id}/update-payment-method-transaction`, issue 14 part A); null when it
     * does not, or for a manually collected subscription.
     */
    async paymentMethodCheckout(request: Request, subscription: Subscription): Promise<string | null> {
      if (subscription.collectionMode !== 'automatic') return null;
      const subscriptions = client.subscriptions as unknown as {
        getPaymentMethodChangeTransaction?: (id: string) => Promise<{ checkout?: { url?: string | null } | null }>;
      };
      if (typeof subscriptions.getPaymentMethodChangeTransaction !== 'function') return null;
      try {
        const transaction = await subscriptions.getPaymentMethodChangeTransaction(subscription.id);
        const url = transaction.checkout?.url ?? null;
        return url === null ? null : withReturnUrl(url, await returnUrlOf(request));
      } catch (error) {
        if (error instanceof DrawdownApiError && (error.status === 404 || error.status === 403)) return null;
        throw error;
      }
    },

    /**
     * Saves the billing details a form sends: the field errors (nothing saved) when there are
     * any, else null once saved.
     */
    async saveBillingDetails(
      customerId: string,
      fields: Readonly<Record<string, string>>,
    ): Promise<ReturnType<typeof readDetailsForm> | null> {
      const form = readDetailsForm(fields);
      if (Object.keys(form.errors).length > 0) return form;
      await saveBillingDetails(client, customerId, await detailsOf(customerId), form.values);
      return null;
    },

    /**
     * Opens a customer portal session link: the token checked here (ADR 1443) and then by the
     * service (ADR 1440), the action and subscription checked against the session; where to go.
     */
    async openSession(
      token: string,
      action: string,
      subscriptionId: string | undefined,
    ): Promise<{ grant: PortalSessionGrant; target: string }> {
      if (token === '' || token.length > 2_048) throw invalidSession();
      const verdict = await sessionTokens.check(token);
      if (verdict === 'invalid') throw invalidSession();
      if (verdict === 'expired') throw expiredSession();
      let grant: PortalSessionGrant;
      try {
        grant = await client.customerPortalSessions.verify(token);
      } catch (error) {
        if (error instanceof DrawdownApiError && error.code === 'portal_session_expired') throw expiredSession();
        if (error instanceof DrawdownApiError && (error.code === 'portal_session_invalid' || error.status === 400)) {
          throw invalidSession();
        }
        throw error;
      }
      let target = `${basePath}/`;
      if (action === 'cancel_subscription' || action === 'update_subscription_payment_method') {
        if (!subscriptionId || !grant.subscriptionIds.includes(subscriptionId)) throw invalidSession();
        target = `${basePath}/subscriptions/${subscriptionId}/${action === 'cancel_subscription' ? 'cancel' : 'payment-method'}`;
      } else if (action !== 'overview') {
        throw invalidSession();
      }
      return { grant, target };
    },

    /** The refusal an error is answered with; anything that is neither a refusal nor the service's is logged. */
    refusalOf(error: unknown): PortalRefusal {
      if (error instanceof Refused) return error.refusal;
      const fromService = refusalFromServiceError(error);
      if (fromService) return fromService;
      settings.logError('billing portal: unexpected failure', error);
      return INTERNAL_ERROR;
    },
  };
}
