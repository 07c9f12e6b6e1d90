/**
 * @module
 * The hosted checkout page (ADR 1411): server-rendered HTML with no script at all, styled by one
 * stylesheet from the page's own path, so the Content-Security-Policy allows nothing inline.
 * Every text reaches the page through `escapeHtml`, in the document shell every Drawdown page
 * shares (`@drawdown/http-kit`). Before the first address, the customer's details alone (email,
 * address and buying as a business, which decide the tax); from then on one form with the details
 * and the payment, whose one button re-taxes before paying (ADR 1115): the sandbox's test-card
 * fields, or, for a live
 * account paying through Stripe, Stripe.js's Payment Element driven by one script from the page's
 * own path (ADR 1424), under a CSP that adds Stripe's documented origins and nothing else. Every
 * text is in the page's language, amounts, dates and country names in its locale (ADR 1433).
 */
import {
  type CheckoutView,
  type CurrencyCode,
  Decimal,
  minorUnitsOf,
  type PaymentAttempt,
  type Transaction,
  taxNameOf,
} from '@drawdown/billing-core';
import { escapeHtml, formatDate, formatMoney, htmlDocument } from '@drawdown/http-kit';
import { addressNeeds, countryName, countryOptions } from './checkout-countries.js';
import type { CheckoutLocale, CheckoutTranslate } from './checkout-messages.js';

export const CHECKOUT_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The CSP of a page that loads Stripe.js (ADR 1424): Stripe's documented origins for its script,
 * its frames (the Payment Element and 3-D Secure) and its API; for any other Stripe.js address
 * (a stand-in in tests), that address's origin alone. `connect-src 'self'` is the page's own
 * request for the PaymentIntent.
 */
export function stripeCheckoutCsp(stripeJsUrl: string): string {
  const origin = new URL(stripeJsUrl).origin;
  const stripe = origin === 'https://js.stripe.com';
  const scripts = stripe ? 'https://js.stripe.com https://*.js.stripe.com' : origin;
  const frames = stripe ? 'https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com' : origin;
  const api = stripe ? 'https://api.stripe.com' : origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${scripts}`,
    "style-src 'self'",
    "img-src 'self' data:",
    `frame-src ${frames}`,
    `connect-src 'self' ${api}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export const CHECKOUT_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CHECKOUT_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=()',
  'Cache-Control': 'no-store',
};

export const CHECKOUT_STYLESHEET = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1f24; background: #f6f7f9; }
body { margin: 0; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
main { max-width: 40rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.merchant { margin: 0 0 1rem; color: #454c55; }
.badge { display: inline-block; background: #7a4d00; color: #fff; border-radius: .25rem; padding: .1rem .5rem; font-size: .85rem; }
table { width: 100%; border-collapse: collapse; background: #fff; }
caption { text-align: left; font-weight: 600; padding: .5rem 0; }
th, td { text-align: left; padding: .5rem; border-bottom: 1px solid #d0d4da; }
td.amount, th.amount { text-align: right; font-variant-numeric: tabular-nums; }
tfoot th { font-weight: 600; }
form { background: #fff; border: 1px solid #d0d4da; border-radius: .5rem; padding: 1rem; margin-top: 1rem; }
.field { margin-bottom: .75rem; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
.hint { color: #454c55; font-size: .9rem; margin: .25rem 0 0; }
input[type=text], input[type=email], select { box-sizing: border-box; width: 100%; min-height: 44px; font-size: 1rem; padding: .5rem; border: 1px solid #6b7280; border-radius: .25rem; }
.check label { display: inline; font-weight: 400; }
.check input { width: 1.25rem; height: 1.25rem; vertical-align: middle; }
button, .button { display: inline-block; min-height: 44px; font-size: 1rem; padding: .5rem 1.25rem; border-radius: .25rem; border: 0; background: #0b57d0; color: #fff; cursor: pointer; text-decoration: none; }
button.secondary { background: #454c55; }
:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.error { border: 2px solid #b3261e; background: #fdecea; color: #5c0f0a; padding: .75rem 1rem; border-radius: .25rem; }
.success { border: 2px solid #146c2e; background: #e6f4ea; color: #0b3d1a; padding: .75rem 1rem; border-radius: .25rem; }
.notice { border: 2px solid #454c55; background: #fff; padding: .75rem 1rem; border-radius: .25rem; }
.field-error { color: #b3261e; font-weight: 600; margin: .25rem 0 0; }
.cards { margin: .5rem 0 0; padding-left: 1.25rem; color: #454c55; }
.row { display: flex; gap: .75rem; }
#payment-element { min-height: 3rem; margin-bottom: .75rem; }
#payment-error[hidden] { display: none; }
.row .field { flex: 1; }
.brand { display: flex; align-items: center; gap: .75rem; margin: 0 0 1rem; }
.brand img { max-height: 3rem; max-width: 10rem; width: auto; height: auto; }
.brand .merchant { margin: 0; }
fieldset { border: 0; padding: 0; margin: 0 0 .75rem; }
legend { font-weight: 600; margin-bottom: .25rem; padding: 0; }
.choice { display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; }
.choice label { display: inline; font-weight: 400; }
.choice input { width: 1.25rem; height: 1.25rem; vertical-align: middle; }
.purchase:has(#field-purchase_as-individual:checked) .business-fields { display: none; }
.terms { margin: .75rem 0 0; font-weight: 600; }
.seller-links ul { list-style: none; padding: 0; margin: 1.5rem 0 0; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
.seller-links a { color: #0b57d0; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;

/** A lowest-unit amount in the page's locale, with the currency's ISO 4217 decimal places. */
function money(amount: string, currencyCode: string, locale: string): string {
  return formatMoney(amount, currencyCode, minorUnitsOf(currencyCode as CurrencyCode), locale);
}

/** A calendar date in the page's locale (the instant's UTC day, as the API's dates are UTC). */
function dateText(iso: string, locale: string): string {
  return formatDate(iso, locale, 'long');
}

function page(
  l: CheckoutLocale,
  title: string,
  body: string,
  sandbox: boolean,
  scripts: readonly string[] = [],
): string {
  // The scripts run at the end of the body, after the form they drive exists.
  return htmlDocument({
    language: l.language,
    title,
    stylesheet: '/checkout/assets/checkout.css',
    body: `<a class="skip" href="#main">${escapeHtml(l.t('skip'))}</a>
<main id="main">
${sandbox ? `<p><span class="badge">${escapeHtml(l.t('sandboxBadge'))}</span></p>` : ''}
${body}
</main>
${scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`).join('\n')}`,
  });
}

const RENEWS_ONE = { day: 'renewsDay', week: 'renewsWeek', month: 'renewsMonth', year: 'renewsYear' } as const;
const RENEWS_MANY = { day: 'renewsDays', week: 'renewsWeeks', month: 'renewsMonths', year: 'renewsYears' } as const;

function cycleText(transaction: Transaction, index: number, l: CheckoutLocale): string {
  const cycle = transaction.items[index]?.price.billingCycle;
  if (!cycle) return '';
  const text =
    cycle.frequency === 1
      ? l.t(RENEWS_ONE[cycle.interval])
      : l.t(RENEWS_MANY[cycle.interval], { count: new Intl.NumberFormat(l.locale).format(cycle.frequency) });
  return ` (${text})`;
}

const TAX_LABEL = {
  vat: 'taxVat',
  gst: 'taxGst',
  sales_tax: 'taxSales',
  consumption_tax: 'taxConsumption',
  tax: 'taxRate',
} as const;

/**
 * The tax of the order, one row per rate, each named as the buyer's country names its tax and with
 * its rate ("VAT 20%"); one "Tax" row (id `tax`) while no rate applies yet. The first row keeps the
 * id `tax` and carries the tax total when there is one rate.
 */
function taxRows(
  transaction: Transaction,
  countryCode: string | null,
  l: CheckoutLocale,
  reverseCharge = false,
): string {
  const { t, locale } = l;
  const currency = transaction.currencyCode;
  if (reverseCharge) {
    return `<tr><th scope="row" colspan="2">${escapeHtml(t('reverseCharge'))}</th><td class="amount" id="tax" data-reverse-charge="true">${escapeHtml(money(transaction.details.totals.tax, currency, locale))}</td></tr>`;
  }
  const rates = transaction.details.taxRatesUsed.filter((used) => Decimal.parse(used.taxRate).isPositive());
  if (rates.length === 0) {
    return `<tr><th scope="row" colspan="2">${escapeHtml(t('tax'))}</th><td class="amount" id="tax">${escapeHtml(money(transaction.details.totals.tax, currency, locale))}</td></tr>`;
  }
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 });
  const name = TAX_LABEL[taxNameOf(countryCode)];
  return rates
    .map(
      (used, index) =>
        `<tr><th scope="row" colspan="2">${escapeHtml(t(name, { rate: percent.format(used.taxRate as `${number}`) }))}</th><td class="amount"${index === 0 && rates.length === 1 ? ' id="tax"' : ''} data-tax-rate="${escapeHtml(used.taxRate)}">${escapeHtml(money(used.totals.tax, currency, locale))}</td></tr>`,
    )
    .join('\n');
}

function itemsTable(
  transaction: Transaction,
  l: CheckoutLocale,
  countryCode: string | null = null,
  reverseCharge = false,
): string {
  const { t, locale } = l;
  const { totals, lineItems } = transaction.details;
  const currency = transaction.currencyCode;
  const amount = (value: string) => escapeHtml(money(value, currency, locale));
  const rows = lineItems
    .map(
      (line, index) => `<tr>
<th scope="row">${escapeHtml(line.product.name)}${escapeHtml(cycleText(transaction, index, l))}</th>
<td class="amount">${escapeHtml(new Intl.NumberFormat(locale).format(line.quantity))}</td>
<td class="amount">${amount(line.totals.subtotal)}</td>
</tr>`,
    )
    .join('\n');
  const discount =
    BigInt(totals.discount) > 0n
      ? `<tr><th scope="row" colspan="2">${escapeHtml(t('discount'))}</th><td class="amount" id="discount">−${amount(totals.discount)}</td></tr>`
      : '';
  const credit =
    BigInt(totals.credit) > 0n
      ? `<tr><th scope="row" colspan="2">${escapeHtml(t('creditApplied'))}</th><td class="amount">−${amount(totals.credit)}</td></tr>`
      : '';
  const period = transaction.billingPeriod
    ? `<p class="hint" id="billing-period">${escapeHtml(
        t('billingPeriod', {
          start: dateText(transaction.billingPeriod.startsAt, locale),
          end: dateText(transaction.billingPeriod.endsAt, locale),
        }),
      )}</p>`
    : '';
  return `<p class="hint" id="order-date">${escapeHtml(t('orderDate', { date: dateText(transaction.createdAt, locale) }))}</p>
${period}
<table>
<caption>${escapeHtml(t('yourOrder'))}</caption>
<thead><tr><th scope="col">${escapeHtml(t('colItem'))}</th><th scope="col" class="amount">${escapeHtml(t('colQuantity'))}</th><th scope="col" class="amount">${escapeHtml(t('colAmount'))}</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
<tr><th scope="row" colspan="2">${escapeHtml(t('subtotal'))}</th><td class="amount" id="subtotal">${amount(totals.subtotal)}</td></tr>
${discount}
${taxRows(transaction, countryCode, l, reverseCharge)}
${credit}
${
  transaction.status === 'completed' || transaction.status === 'paid'
    ? `<tr><th scope="row" colspan="2">${escapeHtml(t('paid'))}</th><td class="amount" id="paid">${amount(totals.grandTotal)}</td></tr>`
    : `<tr><th scope="row" colspan="2">${escapeHtml(t('dueToday'))}</th><td class="amount" id="due">${amount(totals.balance)}</td></tr>`
}
</tfoot>
</table>`;
}

/** Messages for the page: a failed form (400/409) or the newest attempt's outcome, in the page's language. */
export interface PageMessage {
  readonly kind: 'error' | 'success' | 'notice';
  readonly text: string;
  /** Field messages, keyed by the form field's name. */
  readonly fields?: Readonly<Record<string, string>>;
}

export interface FormValues {
  readonly email?: string;
  readonly country_code?: string;
  readonly postal_code?: string;
  readonly region?: string;
  readonly city?: string;
  readonly first_line?: string;
  readonly cardholder_name?: string;
  readonly code?: string;
  readonly purchase_as?: string;
  readonly company_name?: string;
  readonly tax_identifier?: string;
}

interface FieldOptions {
  readonly value?: string | undefined;
  readonly type?: 'text' | 'email';
  readonly autocomplete?: string;
  readonly required?: boolean;
  readonly hint?: string | undefined;
  readonly error?: string | undefined;
  readonly readonly?: boolean;
  readonly inputmode?: string;
  readonly maxlength?: number;
}

function describedBy(id: string, options: FieldOptions): string {
  const described = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return `${described ? ` aria-describedby="${described}"` : ''}${options.error ? ' aria-invalid="true"' : ''}`;
}

function fieldNotes(id: string, options: FieldOptions): string {
  return `${options.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : ''}
${options.error ? `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>` : ''}`;
}

function field(name: string, label: string, options: FieldOptions): string {
  const id = `field-${name}`;
  return `<div class="field">
<label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" name="${name}" type="${options.type ?? 'text'}"${options.value ? ` value="${escapeHtml(options.value)}"` : ''}${
    options.autocomplete ? ` autocomplete="${options.autocomplete}"` : ''
  }${options.required ? ' required' : ''}${options.readonly ? ' readonly' : ''}${
    options.inputmode ? ` inputmode="${options.inputmode}"` : ''
  }${options.maxlength ? ` maxlength="${options.maxlength}"` : ''}${describedBy(id, options)}>
${fieldNotes(id, options)}
</div>`;
}

/** The country as a native select of every country, named and sorted in the page's locale. */
function countrySelect(l: CheckoutLocale, selected: string | undefined, error: string | undefined): string {
  const id = 'field-country_code';
  const chosen = (selected ?? '').trim().toUpperCase();
  const options = countryOptions(l.locale)
    .map(
      (country) =>
        `<option value="${country.code}"${country.code === chosen ? ' selected' : ''}>${escapeHtml(country.name)}</option>`,
    )
    .join('');
  return `<div class="field">
<label for="${id}">${escapeHtml(l.t('country'))}</label>
<select id="${id}" name="country_code" autocomplete="country" required${describedBy(id, { error })}>
<option value=""${chosen === '' ? ' selected' : ''}>${escapeHtml(l.t('chooseCountry'))}</option>
${options}
</select>
${fieldNotes(id, { error })}
</div>`;
}

/** The region and postal code fields, labelled and required as the chosen country needs. */
function regionFields(
  l: CheckoutLocale,
  countryCode: string | undefined,
  values: { readonly postal?: string | undefined; readonly region?: string | undefined },
  errors: Readonly<Record<string, string>>,
): string {
  const { t } = l;
  const needs = addressNeeds(countryCode);
  const postalLabel = t(needs.postalKind === 'zip' ? 'zipCode' : 'postalCode');
  const regionLabel = t(needs.regionKind);
  const hint = needs.regionOrPostalRequired
    ? t('regionalHint', {
        country: countryName((countryCode ?? '').toUpperCase(), l.locale),
        region: regionLabel,
        postal: postalLabel,
      })
    : countryCode
      ? undefined
      : t('optionalHint');
  return `<div class="row">
${field('postal_code', postalLabel, { value: values.postal, autocomplete: 'postal-code', error: errors.postal_code, hint, maxlength: 100 })}
${field('region', regionLabel, { value: values.region, autocomplete: 'address-level1', error: errors.region, maxlength: 100 })}
</div>`;
}

function messageBox(message: PageMessage | undefined): string {
  if (!message) return '';
  const role = message.kind === 'error' ? 'alert' : 'status';
  const id = message.kind === 'error' ? 'checkout-error' : 'checkout-message';
  return `<div class="${message.kind}" role="${role}" id="${id}"><p>${escapeHtml(message.text)}</p></div>`;
}

/** What the newest attempt says to the customer, when nothing else does. */
export function attemptMessage(
  attempt: PaymentAttempt | null,
  transaction: Transaction,
  t: CheckoutTranslate,
): PageMessage | undefined {
  if (!attempt) return undefined;
  if (attempt.status === 'declined' && transaction.status !== 'completed') {
    return {
      kind: 'error',
      text: t(attempt.errorCode === 'authentication_failed' ? 'authenticationFailed' : 'declined'),
    };
  }
  if (attempt.status === 'requires_action') return { kind: 'notice', text: t('requiresAction') };
  if (attempt.status === 'processing') return { kind: 'notice', text: t('processing') };
  return undefined;
}

export interface CheckoutPageInput {
  readonly view: CheckoutView;
  readonly sandbox: boolean;
  readonly locale: CheckoutLocale;
  /** `?_ptxn=` of this checkout (and `&locale=` when asked for), for the forms' actions. */
  readonly query: string;
  readonly submissionKey: string;
  readonly message?: PageMessage | undefined;
  readonly values?: FormValues | undefined;
  /** For a provider whose browser library takes the card (Stripe.js): where it loads from and where it returns to. */
  readonly browser?: { readonly scriptUrl: string; readonly returnUrl: string } | undefined;
  /** Where the finished page leads back to (ADR 1112), already allowed; none without one. */
  readonly returnUrl?: string | null | undefined;
}

/** The checkout page's own script that drives Stripe.js's Payment Element (ADR 1424). */
export const STRIPE_CHECKOUT_SCRIPT_PATH = '/checkout/assets/stripe-checkout.js';

const CARD_BRANDS: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  american_express: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners_club: 'Diners Club',
  union_pay: 'UnionPay',
  maestro: 'Maestro',
};

function completedPanel(view: CheckoutView, l: CheckoutLocale): string {
  const { t } = l;
  const { transaction } = view;
  const captured = [...transaction.payments].reverse().find((payment) => payment.status === 'captured');
  const card = captured?.methodDetails.card;
  const cardText = card ? t('cardEnding', { brand: CARD_BRANDS[card.type] ?? card.type, last4: card.last4 }) : null;
  const zero = BigInt(transaction.details.totals.grandTotal) === 0n;
  const amount = money(transaction.details.totals.grandTotal, transaction.currencyCode, l.locale);
  const text =
    transaction.origin === 'subscription_payment_method_change'
      ? cardText
        ? t('methodUpdatedWith', { card: cardText })
        : t('methodUpdated')
      : zero
        ? t('zeroComplete')
        : cardText
          ? t('paymentReceivedWith', { amount, card: cardText })
          : t('paymentReceived', { amount });
  const subscription =
    transaction.subscriptionId && transaction.origin !== 'subscription_payment_method_change'
      ? ` ${t('subscriptionActive')}`
      : '';
  return `<div class="success" role="status" id="checkout-message"><p>${escapeHtml(text + subscription)}</p></div>`;
}

function noticePanel(text: string): string {
  return `<div class="notice" role="status" id="checkout-message"><p>${escapeHtml(text)}</p></div>`;
}

/**
 * The name on the card of the newest attempt when it was declined: the customer tries another card
 * without typing their name again. The card's number, expiry and code are never kept.
 */
function declinedCardholder(view: CheckoutView): string | undefined {
  if (view.attempt?.status !== 'declined') return undefined;
  const payment = view.transaction.payments.find((entry) => entry.paymentAttemptId === view.attempt?.id);
  return payment?.methodDetails.card?.cardholderName || undefined;
}

const PER_ONE = { day: 'perDay', week: 'perWeek', month: 'perMonth', year: 'perYear' } as const;
const PER_MANY = { day: 'everyDays', week: 'everyWeeks', month: 'everyMonths', year: 'everyYears' } as const;

/**
 * What the subscription charges after this payment (ADR 1114): "Then €29.75 per month from
 * 28 December 2026.", from the core's renewal preview (tax included as it will be charged).
 */
function recurringLine(view: CheckoutView, l: CheckoutLocale): string {
  const terms = view.recurring;
  if (!terms) return '';
  const { interval, frequency } = terms.billingCycle;
  const period =
    frequency === 1
      ? l.t(PER_ONE[interval])
      : l.t(PER_MANY[interval], { count: new Intl.NumberFormat(l.locale).format(frequency) });
  const text = l.t(terms.afterTrial ? 'recurringAfterTrial' : 'recurringTerms', {
    amount: money(terms.totals.total, terms.currencyCode, l.locale),
    period,
    date: dateText(terms.startsAt, l.locale),
  });
  return `<p class="terms" id="recurring-terms">${escapeHtml(text)}</p>`;
}

/** The reverse charge said in words under the order (ADR 1113): who accounts for the VAT, and where. */
function reverseChargeLine(view: CheckoutView, l: CheckoutLocale): string {
  if (!view.reverseCharge || !view.address) return '';
  const text = l.t('reverseChargeNote', {
    business: view.business?.name ?? '',
    country: countryName(view.address.countryCode, l.locale),
  });
  return `<p class="hint" id="reverse-charge-note">${escapeHtml(text)}</p>`;
}

/** The seller's logo beside its name (seller details, ADR 1113). */
function brandHeader(view: CheckoutView, l: CheckoutLocale): string {
  const paying = `<p class="merchant">${escapeHtml(l.t('paying', { merchant: view.merchantName }))}</p>`;
  const logo = view.seller.logoDataUrl
    ? `<img src="${escapeHtml(view.seller.logoDataUrl)}" alt="${escapeHtml(l.t('logoAlt', { merchant: view.merchantName }))}">`
    : '';
  return `<h1>${escapeHtml(l.t('heading'))}</h1><div class="brand">${logo}${paying}</div>`;
}

/** The seller's pages (terms, privacy, refund policy, contact) from seller details (ADR 1113). */
function sellerLinks(view: CheckoutView, l: CheckoutLocale): string {
  const { seller } = view;
  const contact = seller.contactUrl ?? (seller.email ? `mailto:${seller.email}` : null);
  const links = [
    ['termsLink', seller.termsUrl, 'terms-link'],
    ['privacyLink', seller.privacyUrl, 'privacy-link'],
    ['refundLink', seller.refundPolicyUrl, 'refund-link'],
    ['contactLink', contact, 'contact-link'],
  ] as const;
  const items = links
    .filter(([, href]) => href)
    .map(([key, href, id]) => `<li><a id="${id}" href="${escapeHtml(href ?? '')}">${escapeHtml(l.t(key))}</a></li>`);
  if (items.length === 0) return '';
  return `<nav class="seller-links" aria-label="${escapeHtml(l.t('sellerLinks'))}"><ul>${items.join('')}</ul></nav>`;
}

/** Buying as an individual or as a business, with the company and its tax number (ADR 1113). */
function businessFields(
  view: CheckoutView,
  l: CheckoutLocale,
  values: FormValues,
  errors: Readonly<Record<string, string>>,
): string {
  const { t } = l;
  const asBusiness = values.purchase_as !== undefined ? values.purchase_as === 'business' : view.business !== null;
  const radio = (value: 'individual' | 'business', label: string, checked: boolean) =>
    `<span><input type="radio" id="field-purchase_as-${value}" name="purchase_as" value="${value}"${checked ? ' checked' : ''}> <label for="field-purchase_as-${value}">${escapeHtml(label)}</label></span>`;
  return `<div class="purchase">
<fieldset>
<legend>${escapeHtml(t('buyingAs'))}</legend>
<div class="choice">${radio('individual', t('buyingIndividual'), !asBusiness)}${radio('business', t('buyingBusiness'), asBusiness)}</div>
</fieldset>
<div class="business-fields">
<p class="hint" id="business-hint">${escapeHtml(t('businessHint'))}</p>
${field('company_name', t('companyName'), { value: values.company_name ?? view.business?.name, autocomplete: 'organization', error: errors.company_name, maxlength: 200 })}
${field('tax_identifier', t('taxNumber'), { value: values.tax_identifier ?? view.business?.taxIdentifier ?? undefined, autocomplete: 'off', error: errors.tax_identifier, maxlength: 64 })}
</div>
</div>`;
}

/** The customer's details: email, address (which decide the tax) and whether they buy as a business. */
function detailsFields(input: CheckoutPageInput, errors: Readonly<Record<string, string>>): string {
  const { view, locale: l } = input;
  const { t } = l;
  const { customer, address, transaction } = view;
  const values = input.values ?? {};
  const locked = customer !== null && transaction.customerId !== null;
  const country = values.country_code ?? address?.countryCode;
  return `<h2 id="details-heading">${escapeHtml(t('detailsHeading'))}</h2>
<p class="hint">${escapeHtml(t('taxHint'))}</p>
${field('email', t('email'), {
  type: 'email',
  value: values.email ?? customer?.email,
  autocomplete: 'email',
  required: true,
  readonly: locked,
  error: errors.email,
  maxlength: 320,
})}
${countrySelect(l, country, errors.country_code)}
${regionFields(l, country, { postal: values.postal_code ?? address?.postalCode ?? undefined, region: values.region ?? address?.region ?? undefined }, errors)}
${field('city', t('city'), { value: values.city ?? address?.city ?? undefined, autocomplete: 'address-level2', error: errors.city, maxlength: 200 })}
${field('first_line', t('address'), { value: values.first_line ?? address?.firstLine ?? undefined, autocomplete: 'address-line1', error: errors.first_line, maxlength: 300 })}
${businessFields(view, l, values, errors)}`;
}

/** The sandbox's card fields and the save-card choice. */
function cardFields(input: CheckoutPageInput, errors: Readonly<Record<string, string>>, keeps: boolean): string {
  const { view, sandbox, locale: l } = input;
  const { t } = l;
  const values = input.values ?? {};
  return `${
    sandbox
      ? `<p class="hint" id="test-cards">${escapeHtml(t('testCardsHint'))}</p>
<ul class="cards" aria-describedby="test-cards">
<li>${escapeHtml(t('testCardSuccess', { number: '4242 4242 4242 4242' }))}</li>
<li>${escapeHtml(t('testCardChallenge', { number: '4000 0038 0000 0446' }))}</li>
<li>${escapeHtml(t('testCardDecline', { number: '4000 0000 0000 0002' }))}</li>
</ul>`
      : ''
  }
${field('cardholder_name', t('nameOnCard'), { value: values.cardholder_name ?? declinedCardholder(view), autocomplete: 'cc-name', required: true, error: errors.cardholder_name, maxlength: 200 })}
${field('card_number', t('cardNumber'), { autocomplete: 'cc-number', inputmode: 'numeric', required: true, error: errors.card_number, maxlength: 32 })}
<div class="row">
${field('card_expiry', t('expiry'), { autocomplete: 'cc-exp', required: true, error: errors.card_expiry, maxlength: 7 })}
${field('card_cvc', t('securityCode'), { autocomplete: 'cc-csc', inputmode: 'numeric', required: true, error: errors.card_cvc, maxlength: 4 })}
</div>
${
  keeps
    ? `<p class="hint">${escapeHtml(t('cardSavedHint'))}</p>`
    : `<div class="field check"><input id="field-save_method" type="checkbox" name="save_method" value="on"> <label for="field-save_method">${escapeHtml(t('saveCardLabel'))}</label></div>`
}`;
}

export function renderCheckoutPage(input: CheckoutPageInput): string {
  const { view, sandbox, query, locale: l } = input;
  const { t } = l;
  const { transaction, customer, address } = view;
  const title = t('title', { merchant: view.merchantName });
  const header = brandHeader(view, l);
  const order = `${itemsTable(transaction, l, address?.countryCode ?? null, view.reverseCharge)}${reverseChargeLine(view, l)}${recurringLine(view, l)}`;
  const footer = sellerLinks(view, l);
  const refusal = input.message?.kind === 'error' ? messageBox(input.message) : '';
  // Every end state leads back to the seller when the account (or the link) says where (ADR 1112).
  const back = input.returnUrl
    ? `<p><a class="button" id="return-link" href="${escapeHtml(input.returnUrl)}">${escapeHtml(t('backToMerchant', { merchant: view.merchantName }))}</a></p>`
    : '';
  if (transaction.status === 'completed' || transaction.status === 'paid') {
    return page(l, title, `${header}${refusal}${completedPanel(view, l)}${back}${order}${footer}`, sandbox);
  }
  if (transaction.status === 'canceled') {
    return page(l, title, `${header}${refusal}${noticePanel(t('canceled'))}${back}${order}${footer}`, sandbox);
  }
  // No provider, or Stripe without the publishable key Stripe.js needs: no card can be taken here.
  if (!view.takesCards) {
    return page(
      l,
      title,
      `${header}${refusal}${noticePanel(t('noProvider', { merchant: view.merchantName }))}${order}${footer}`,
      sandbox,
    );
  }
  const message = input.message ?? attemptMessage(view.attempt, transaction, t);
  const errors = input.message?.fields ?? {};
  const takesDetails =
    (transaction.status === 'draft' || transaction.status === 'ready') &&
    !transaction.payments.some((payment) => payment.status === 'captured');
  // A promo code while the order can still change (ADR 1111); the discount row of the order shows it applied.
  const promo = takesDetails
    ? `<form method="post" action="/checkout/code${query}" class="promo" aria-labelledby="promo-heading" novalidate>
<h2 id="promo-heading">${escapeHtml(t('promoHeading'))}</h2>
${field('code', t('promoCode'), { value: input.values?.code, autocomplete: 'off', error: errors.code, maxlength: 32 })}
<button type="submit" class="secondary">${escapeHtml(t('applyCode'))}</button>
</form>`
    : '';
  const summary = `<h2 id="details-heading">${escapeHtml(t('detailsHeading'))}</h2><p>${escapeHtml(
    address
      ? t('detailsSummary', { email: customer?.email ?? '', country: countryName(address.countryCode, l.locale) })
      : (customer?.email ?? ''),
  )}</p>`;
  const payable = ['ready', 'billed', 'past_due'].includes(transaction.status) && transaction.addressId !== null;
  // Before the first address the tax is unknown: the details come first, alone ("Continue"). From
  // then on one form takes the details and the card, and its one button re-taxes before paying (ADR 1115).
  if (takesDetails && !payable) {
    const details = `<form method="post" action="/checkout/details${query}" aria-labelledby="details-heading" novalidate>
${detailsFields(input, errors)}
<button type="submit">${escapeHtml(t('continue'))}</button>
</form>`;
    return page(l, title, `${header}${messageBox(message)}${order}${promo}${details}${footer}`, sandbox);
  }
  const balance = transaction.details.totals.balance;
  const zero = BigInt(balance) <= 0n;
  const recurring = transaction.items.some((item) => item.price.billingCycle !== null);
  const action =
    view.attempt?.status === 'requires_action' && view.attempt.actionUrl
      ? `<p><a class="button" href="${escapeHtml(view.attempt.actionUrl)}">${escapeHtml(t('continueToAuthentication'))}</a></p>`
      : '';
  const browser = input.browser && view.browserKey !== null ? input.browser : undefined;
  const waiting = view.attempt?.status === 'requires_action' || view.attempt?.status === 'processing';
  if (browser && payable && !(view.attempt?.status === 'requires_action' && view.attempt.actionUrl)) {
    // Stripe.js keeps the card: an unconfirmed PaymentIntent in flight is confirmed again, not refused.
    const notice = waiting && !input.message ? undefined : message;
    const form = browserPaymentForm(
      input,
      browser,
      { balance, zero, recurring },
      takesDetails ? detailsFields(input, errors) : '',
    );
    return page(
      l,
      title,
      `${header}${messageBox(notice)}${order}${promo}${takesDetails ? '' : summary}${form}${footer}`,
      sandbox,
      [browser.scriptUrl, STRIPE_CHECKOUT_SCRIPT_PATH],
    );
  }
  // A payment waiting for the customer (a challenge) can be replaced by another card: the new payment
  // cancels it first (ADR 1468). One the provider is still deciding cannot.
  const payment =
    payable && (!waiting || view.attempt?.status === 'requires_action')
      ? `<form method="post" action="/checkout/pay${query}" aria-labelledby="payment-heading" novalidate>
${takesDetails ? detailsFields(input, errors) : ''}
<h2 id="payment-heading">${escapeHtml(t('paymentHeading'))}</h2>
<input type="hidden" name="submission_key" value="${escapeHtml(input.submissionKey)}">
<input type="hidden" name="expected_amount" value="${escapeHtml(zero ? '0' : balance)}">
${cardFields(input, errors, recurring || zero)}
<button type="submit" id="pay-button">${escapeHtml(zero ? t('saveCardButton') : t('payButton', { amount: money(balance, transaction.currencyCode, l.locale) }))}</button>
</form>`
      : '';
  return page(
    l,
    title,
    `${header}${messageBox(message)}${action}${order}${promo}${takesDetails && payment ? '' : summary}${payment}${footer}`,
    sandbox,
  );
}

function browserPaymentForm(
  input: CheckoutPageInput,
  browser: { readonly scriptUrl: string; readonly returnUrl: string },
  due: { readonly balance: string; readonly zero: boolean; readonly recurring: boolean },
  details: string,
): string {
  const { t, locale } = input.locale;
  const { transaction } = input.view;
  const amount = due.zero ? '0' : due.balance;
  const keeps = due.recurring || due.zero;
  return `<form id="stripe-payment" method="post" action="/checkout/pay${input.query}" aria-labelledby="payment-heading" novalidate
 data-publishable-key="${escapeHtml(input.view.browserKey ?? '')}"
 data-locale="${escapeHtml(input.locale.language)}"
 data-mode="${due.zero ? 'setup' : 'payment'}"
 data-amount="${escapeHtml(amount)}"
 data-currency="${escapeHtml(transaction.currencyCode.toLowerCase())}"
 data-future-usage="${keeps ? 'off_session' : ''}"
 data-intent-url="/checkout/intent${input.query}"
 data-return-url="${escapeHtml(browser.returnUrl)}"
 data-message-not-started="${escapeHtml(t('paymentNotStarted'))}"
 data-message-not-confirmed="${escapeHtml(t('paymentNotConfirmed'))}"
 data-message-connection="${escapeHtml(t('paymentConnection'))}"
 data-retaxed-url="${escapeHtml(`/checkout${input.query}&notice=retaxed`)}"
 data-details-url="${escapeHtml(`/checkout/details${input.query}`)}">
${details}
<h2 id="payment-heading">${escapeHtml(t('paymentHeading'))}</h2>
<input type="hidden" name="submission_key" value="${escapeHtml(input.submissionKey)}">
<input type="hidden" name="expected_amount" value="${escapeHtml(amount)}">
<p class="hint" id="card-hint">${escapeHtml(t('stripeCardHint'))}</p>
<div id="payment-element" aria-describedby="card-hint"></div>
<div class="error" role="alert" id="payment-error" tabindex="-1" hidden></div>
<noscript><p class="notice">${escapeHtml(t('stripeNeedsScript'))}</p></noscript>
${
  keeps
    ? `<p class="hint">${escapeHtml(t('cardSavedHint'))}</p>`
    : `<div class="field check"><input id="field-save_method" type="checkbox" name="save_method" value="on"> <label for="field-save_method">${escapeHtml(t('saveCardLabel'))}</label></div>`
}
<button type="submit" id="pay-button">${escapeHtml(due.zero ? t('saveCardButton') : t('payButton', { amount: money(due.balance, transaction.currencyCode, locale) }))}</button>
</form>`;
}

/**
 * The script behind the Stripe payment form (served from the page's own path; the CSP allows no
 * inline script). Stripe's deferred-intent flow: the Payment Element is shown for the amount,
 * `elements.submit()` checks the card, the page asks Drawdown for the PaymentIntent
 * (`POST /checkout/intent`), and `stripe.confirmPayment` confirms it and goes to the return URL,
 * where the server reads the intent back from Stripe before anything completes. A card error
 * also goes to the return URL, so the server records the decline and the page shows it.
 */
export const STRIPE_CHECKOUT_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('stripe-payment');
  if (!form || typeof window.Stripe !== 'function') return;
  var DETAIL_REFUSALS = ['invalid_field', 'checkout_business_invalid', 'checkout_email_belongs_to_customer'];
  var data = form.dataset;
  var stripe = window.Stripe(data.publishableKey, { locale: data.locale });
  var setup = data.mode === 'setup';
  var options = setup
    ? { mode: 'setup', currency: data.currency, paymentMethodTypes: ['card'] }
    : { mode: 'payment', amount: Number(data.amount), currency: data.currency, paymentMethodTypes: ['card'] };
  if (data.futureUsage && !setup) options.setupFutureUsage = data.futureUsage;
  var elements = stripe.elements(options);
  elements.create('payment').mount('#payment-element');
  var button = document.getElementById('pay-button');
  var errorBox = document.getElementById('payment-error');
  var save = document.getElementById('field-save_method');
  if (save && !setup) {
    save.addEventListener('change', function () {
      elements.update({ setupFutureUsage: save.checked ? 'off_session' : null });
    });
  }
  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    errorBox.focus();
    button.disabled = false;
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    errorBox.hidden = true;
    elements.submit().then(function (submitted) {
      if (submitted.error) return showError(submitted.error.message);
      return fetch(data.intentUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(new FormData(form)),
        credentials: 'same-origin',
      }).then(function (response) {
        return response.json().then(function (answer) {
          var code = answer && answer.error ? answer.error.code : '';
          // The details changed the total (ADR 1115): nothing was charged; the page shows the new total.
          if (code === 'transaction_checkout_amount_changed') return window.location.assign(data.retaxedUrl);
          // A refused detail (a VAT number, an email): the form goes to the details step, which says why in the page's language.
          if (DETAIL_REFUSALS.indexOf(code) >= 0) {
            form.setAttribute('action', data.detailsUrl);
            return HTMLFormElement.prototype.submit.call(form);
          }
          if (!response.ok) return showError(data.messageNotStarted);
          var confirm = answer.data.kind === 'setup' ? stripe.confirmSetup : stripe.confirmPayment;
          return confirm.call(stripe, {
            elements: elements,
            clientSecret: answer.data.client_secret,
            confirmParams: { return_url: data.returnUrl },
          }).then(function (result) {
            // Only a failure comes back: on success Stripe.js has gone to the return URL.
            if (result.error && result.error.type === 'card_error') return window.location.assign(data.returnUrl);
            showError(result.error && result.error.message ? result.error.message : data.messageNotConfirmed);
          });
        });
      });
    }).catch(function () {
      showError(data.messageConnection);
    });
  });
})();
`;

export function renderChallengePage(input: {
  readonly attempt: PaymentAttempt;
  readonly providerPaymentRef: string;
  readonly locale: CheckoutLocale;
}): string {
  const { attempt, locale: l } = input;
  const { t } = l;
  const waiting = attempt.status === 'requires_action';
  const text =
    BigInt(attempt.amount) > 0n
      ? t('confirmText', { amount: money(attempt.amount, attempt.currencyCode, l.locale) })
      : t('confirmSetupText');
  const action = `/checkout/sandbox-authentication/${escapeHtml(input.providerPaymentRef)}${
    l.querySuffix ? `?${escapeHtml(l.querySuffix.slice(1))}` : ''
  }`;
  const body = waiting
    ? `<h1>${escapeHtml(t('confirmTitle'))}</h1>
<p>${escapeHtml(text)}</p>
<form method="post" action="${action}">
<input type="hidden" name="outcome" value="pass">
<button type="submit">${escapeHtml(t('completeAuthentication'))}</button>
</form>
<form method="post" action="${action}">
<input type="hidden" name="outcome" value="fail">
<button type="submit" class="secondary">${escapeHtml(t('failAuthentication'))}</button>
</form>`
    : `<h1>${escapeHtml(t('authenticationFinished'))}</h1><p><a href="/checkout?_ptxn=${escapeHtml(attempt.transactionId)}${escapeHtml(l.querySuffix)}">${escapeHtml(t('backToCheckout'))}</a></p>`;
  return page(l, t('confirmTitle'), body, true);
}

/** The page for a checkout link whose return_url the account does not allow (ADR 1112). */
export function renderRefusedLinkPage(sandbox: boolean, l: CheckoutLocale): string {
  return page(
    l,
    l.t('refusedLinkTitle'),
    `<h1>${escapeHtml(l.t('refusedLinkTitle'))}</h1><p>${escapeHtml(l.t('refusedLinkText'))}</p>`,
    sandbox,
  );
}

/** The page for a link that names no transaction of this environment. */
export function renderNotFoundPage(sandbox: boolean, l: CheckoutLocale): string {
  return page(
    l,
    l.t('notFoundTitle'),
    `<h1>${escapeHtml(l.t('notFoundTitle'))}</h1><p>${escapeHtml(l.t('notFoundText'))}</p>`,
    sandbox,
  );
}
