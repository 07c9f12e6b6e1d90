/**
 * @module
 * The hosted checkout page (ADR 1411): server-rendered HTML with no script at all, styled by one
 * stylesheet from the page's own path, so the Content-Security-Policy allows nothing inline.
 * Every text reaches the page through `escape`. Two forms: the customer's details (email and
 * address, which decide the tax) and the payment: the sandbox's test-card fields, or, for a live
 * account paying through Stripe, Stripe.js's Payment Element driven by one script from the page's
 * own path (ADR 1424), under a CSP that adds Stripe's documented origins and nothing else.
 */
import {
  type CheckoutView,
  type CurrencyCode,
  formatMinorUnits,
  type PaymentAttempt,
  type Transaction,
} from '@drawdown/billing-core';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

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
input[type=text], input[type=email] { box-sizing: border-box; width: 100%; min-height: 44px; font-size: 1rem; padding: .5rem; border: 1px solid #6b7280; border-radius: .25rem; }
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
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;

function money(amount: string, currencyCode: string): string {
  return formatMinorUnits(BigInt(amount), currencyCode as CurrencyCode, 'en');
}

function page(title: string, body: string, sandbox: boolean, scripts: readonly string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/checkout/assets/checkout.css">
</head>
<body>
<a class="skip" href="#main">Skip to the checkout</a>
<main id="main">
${sandbox ? '<p><span class="badge">Test mode: sandbox, no real payment</span></p>' : ''}
${body}
</main>
${scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`).join('\n')}
</body>
</html>`;
}

function cycleText(transaction: Transaction, index: number): string {
  const cycle = transaction.items[index]?.price.billingCycle;
  if (!cycle) return '';
  const unit = cycle.frequency === 1 ? cycle.interval : `${cycle.frequency} ${cycle.interval}s`;
  return ` (renews every ${unit})`;
}

function itemsTable(transaction: Transaction): string {
  const { totals, lineItems } = transaction.details;
  const currency = transaction.currencyCode;
  const rows = lineItems
    .map(
      (line, index) => `<tr>
<th scope="row">${escapeHtml(line.product.name)}${escapeHtml(cycleText(transaction, index))}</th>
<td class="amount">${line.quantity}</td>
<td class="amount">${escapeHtml(money(line.totals.subtotal, currency))}</td>
</tr>`,
    )
    .join('\n');
  const discount =
    BigInt(totals.discount) > 0n
      ? `<tr><th scope="row" colspan="2">Discount</th><td class="amount">−${escapeHtml(money(totals.discount, currency))}</td></tr>`
      : '';
  const credit =
    BigInt(totals.credit) > 0n
      ? `<tr><th scope="row" colspan="2">Credit applied</th><td class="amount">−${escapeHtml(money(totals.credit, currency))}</td></tr>`
      : '';
  return `<table>
<caption>Your order</caption>
<thead><tr><th scope="col">Item</th><th scope="col" class="amount">Quantity</th><th scope="col" class="amount">Amount</th></tr></thead>
<tbody>
${rows}
</tbody>
<tfoot>
<tr><th scope="row" colspan="2">Subtotal</th><td class="amount" id="subtotal">${escapeHtml(money(totals.subtotal, currency))}</td></tr>
${discount}
<tr><th scope="row" colspan="2">Tax</th><td class="amount" id="tax">${escapeHtml(money(totals.tax, currency))}</td></tr>
${credit}
${
  transaction.status === 'completed' || transaction.status === 'paid'
    ? `<tr><th scope="row" colspan="2">Paid</th><td class="amount" id="paid">${escapeHtml(money(totals.grandTotal, currency))}</td></tr>`
    : `<tr><th scope="row" colspan="2">Due today</th><td class="amount" id="due">${escapeHtml(money(totals.balance, currency))}</td></tr>`
}
</tfoot>
</table>`;
}

/** Messages for the page: a failed form (400/409) or the newest attempt's outcome. */
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
}

function field(
  name: string,
  label: string,
  options: {
    readonly value?: string | undefined;
    readonly type?: 'text' | 'email';
    readonly autocomplete?: string;
    readonly required?: boolean;
    readonly hint?: string;
    readonly error?: string | undefined;
    readonly readonly?: boolean;
    readonly inputmode?: string;
    readonly maxlength?: number;
  },
): string {
  const id = `field-${name}`;
  const described = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return `<div class="field">
<label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" name="${name}" type="${options.type ?? 'text'}"${options.value ? ` value="${escapeHtml(options.value)}"` : ''}${
    options.autocomplete ? ` autocomplete="${options.autocomplete}"` : ''
  }${options.required ? ' required' : ''}${options.readonly ? ' readonly' : ''}${
    options.inputmode ? ` inputmode="${options.inputmode}"` : ''
  }${options.maxlength ? ` maxlength="${options.maxlength}"` : ''}${described ? ` aria-describedby="${described}"` : ''}${
    options.error ? ' aria-invalid="true"' : ''
  }>
${options.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(options.hint)}</p>` : ''}
${options.error ? `<p class="field-error" id="${id}-error">${escapeHtml(options.error)}</p>` : ''}
</div>`;
}

function messageBox(message: PageMessage | undefined): string {
  if (!message) return '';
  const role = message.kind === 'error' ? 'alert' : 'status';
  const id = message.kind === 'error' ? 'checkout-error' : 'checkout-message';
  return `<div class="${message.kind}" role="${role}" id="${id}"><p>${escapeHtml(message.text)}</p></div>`;
}

/** What the newest attempt says to the customer, when nothing else does. */
export function attemptMessage(attempt: PaymentAttempt | null, transaction: Transaction): PageMessage | undefined {
  if (!attempt) return undefined;
  if (attempt.status === 'declined' && transaction.status !== 'completed') {
    const reason =
      attempt.errorCode === 'authentication_failed'
        ? 'The card’s authentication was not completed.'
        : 'Your card was declined.';
    return { kind: 'error', text: `${reason} Nothing was charged. Try again or use another card.` };
  }
  if (attempt.status === 'requires_action') {
    return { kind: 'notice', text: 'Your bank asks you to confirm this payment. Continue to authentication.' };
  }
  if (attempt.status === 'processing') {
    return { kind: 'notice', text: 'Your payment is being processed. Reload this page in a moment.' };
  }
  return undefined;
}

export interface CheckoutPageInput {
  readonly view: CheckoutView;
  readonly sandbox: boolean;
  /** `?_ptxn=` of this checkout, for the forms' actions. */
  readonly query: string;
  readonly submissionKey: string;
  readonly message?: PageMessage | undefined;
  readonly values?: FormValues | undefined;
  /** For a provider whose browser library takes the card (Stripe.js): where it loads from and where it returns to. */
  readonly browser?: { readonly scriptUrl: string; readonly returnUrl: string } | undefined;
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

function completedPanel(view: CheckoutView): string {
  const { transaction } = view;
  const captured = [...transaction.payments].reverse().find((payment) => payment.status === 'captured');
  const card = captured?.methodDetails.card;
  const brand = card ? (CARD_BRANDS[card.type] ?? card.type) : '';
  const paidWith = card ? ` with ${brand} ending ${card.last4}` : '';
  const zero = BigInt(transaction.details.totals.grandTotal) === 0n;
  const text =
    transaction.origin === 'subscription_payment_method_change'
      ? `Your payment method was updated${paidWith}.`
      : zero
        ? 'Your order is complete; nothing was charged.'
        : `Payment received: ${money(transaction.details.totals.grandTotal, transaction.currencyCode)}${paidWith}. Thank you.`;
  const subscription =
    transaction.subscriptionId && transaction.origin !== 'subscription_payment_method_change'
      ? ' Your subscription is active.'
      : '';
  return `<div class="success" role="status" id="checkout-message"><p>${escapeHtml(text + subscription)}</p></div>`;
}

export function renderCheckoutPage(input: CheckoutPageInput): string {
  const { view, sandbox, query } = input;
  const { transaction, customer, address } = view;
  const title = `Checkout: ${view.merchantName}`;
  const header = `<h1>Checkout</h1><p class="merchant">Paying ${escapeHtml(view.merchantName)}</p>`;
  const order = itemsTable(transaction);
  const refusal = input.message?.kind === 'error' ? messageBox(input.message) : '';
  if (transaction.status === 'completed' || transaction.status === 'paid') {
    return page(title, `${header}${refusal}${completedPanel(view)}${order}`, sandbox);
  }
  if (transaction.status === 'canceled') {
    return page(
      title,
      `${header}${refusal}<div class="notice" role="status" id="checkout-message"><p>This checkout is no longer available: the transaction was canceled. Nothing was charged.</p></div>${order}`,
      sandbox,
    );
  }
  // No provider, or Stripe without the publishable key Stripe.js needs: no card can be taken here.
  if (!view.takesCards) {
    return page(
      title,
      `${header}${refusal}<div class="notice" role="status" id="checkout-message"><p>This checkout cannot take card payments. Contact ${escapeHtml(view.merchantName)} to pay.</p></div>${order}`,
      sandbox,
    );
  }
  const message = input.message ?? attemptMessage(view.attempt, transaction);
  const errors = input.message?.fields ?? {};
  const values = input.values ?? {};
  const takesDetails =
    (transaction.status === 'draft' || transaction.status === 'ready') &&
    !transaction.payments.some((payment) => payment.status === 'captured');
  const locked = customer !== null && transaction.customerId !== null;
  const details = takesDetails
    ? `<form method="post" action="/checkout/details${query}" aria-labelledby="details-heading" novalidate>
<h2 id="details-heading">1. Your details</h2>
<p class="hint">Tax is worked out for your address before you pay.</p>
${field('email', 'Email', {
  type: 'email',
  value: values.email ?? customer?.email,
  autocomplete: 'email',
  required: true,
  readonly: locked,
  error: errors.email,
  maxlength: 320,
})}
${field('country_code', 'Country code', {
  value: values.country_code ?? address?.countryCode,
  autocomplete: 'country',
  required: true,
  hint: 'Two letters, for example GB, DE or US.',
  error: errors.country_code,
  maxlength: 2,
})}
<div class="row">
${field('postal_code', 'Postal code', { value: values.postal_code ?? address?.postalCode ?? undefined, autocomplete: 'postal-code', error: errors.postal_code, maxlength: 100 })}
${field('region', 'Region or state', { value: values.region ?? address?.region ?? undefined, autocomplete: 'address-level1', error: errors.region, maxlength: 100 })}
</div>
${field('city', 'City', { value: values.city ?? address?.city ?? undefined, autocomplete: 'address-level2', error: errors.city, maxlength: 200 })}
${field('first_line', 'Address', { value: values.first_line ?? address?.firstLine ?? undefined, autocomplete: 'address-line1', error: errors.first_line, maxlength: 300 })}
<button type="submit" class="secondary">${transaction.status === 'ready' ? 'Update details and tax' : 'Continue'}</button>
</form>`
    : `<h2>1. Your details</h2><p>${escapeHtml(customer?.email ?? '')}${address ? ` · ${escapeHtml(address.countryCode)}` : ''}</p>`;
  const payable = ['ready', 'billed', 'past_due'].includes(transaction.status) && transaction.addressId !== null;
  const balance = transaction.details.totals.balance;
  const zero = BigInt(balance) <= 0n;
  const recurring = transaction.items.some((item) => item.price.billingCycle !== null);
  const action =
    view.attempt?.status === 'requires_action' && view.attempt.actionUrl
      ? `<p><a class="button" href="${escapeHtml(view.attempt.actionUrl)}">Continue to authentication</a></p>`
      : '';
  const browser = input.browser && view.browserKey !== null ? input.browser : undefined;
  const waiting = view.attempt?.status === 'requires_action' || view.attempt?.status === 'processing';
  if (browser && payable && !(view.attempt?.status === 'requires_action' && view.attempt.actionUrl)) {
    // Stripe.js keeps the card: an unconfirmed PaymentIntent in flight is confirmed again, not refused.
    const notice = waiting && !input.message ? undefined : message;
    const form = browserPaymentForm(input, browser, { balance, zero, recurring });
    return page(title, `${header}${messageBox(notice)}${order}${details}${form}`, sandbox, [
      browser.scriptUrl,
      STRIPE_CHECKOUT_SCRIPT_PATH,
    ]);
  }
  const payment =
    payable && !waiting
      ? `<form method="post" action="/checkout/pay${query}" aria-labelledby="payment-heading" novalidate>
<h2 id="payment-heading">2. Payment</h2>
<input type="hidden" name="submission_key" value="${escapeHtml(input.submissionKey)}">
<input type="hidden" name="expected_amount" value="${escapeHtml(zero ? '0' : balance)}">
${
  sandbox
    ? `<p class="hint" id="test-cards">Sandbox test cards, with any name, any future expiry and any security code:</p>
<ul class="cards" aria-describedby="test-cards">
<li>4242 4242 4242 4242: payment succeeds</li>
<li>4000 0038 0000 0446: asks for 3-D Secure authentication</li>
<li>4000 0000 0000 0002: declined</li>
</ul>`
    : ''
}
${field('cardholder_name', 'Name on card', { value: values.cardholder_name, autocomplete: 'cc-name', required: true, error: errors.cardholder_name, maxlength: 200 })}
${field('card_number', 'Card number', { autocomplete: 'cc-number', inputmode: 'numeric', required: true, error: errors.card_number, maxlength: 32 })}
<div class="row">
${field('card_expiry', 'Expiry (MM/YY)', { autocomplete: 'cc-exp', required: true, error: errors.card_expiry, maxlength: 7 })}
${field('card_cvc', 'Security code', { autocomplete: 'cc-csc', inputmode: 'numeric', required: true, error: errors.card_cvc, maxlength: 4 })}
</div>
${
  recurring || zero
    ? `<p class="hint">Your card is saved for this subscription’s future payments.</p>`
    : `<div class="field check"><input id="field-save_method" type="checkbox" name="save_method" value="on"> <label for="field-save_method">Save this card for future purchases</label></div>`
}
<button type="submit" id="pay-button">${zero ? 'Save card' : `Pay ${escapeHtml(money(balance, transaction.currencyCode))}`}</button>
</form>`
      : '';
  return page(title, `${header}${messageBox(message)}${action}${order}${details}${payment}`, sandbox);
}

function browserPaymentForm(
  input: CheckoutPageInput,
  browser: { readonly scriptUrl: string; readonly returnUrl: string },
  due: { readonly balance: string; readonly zero: boolean; readonly recurring: boolean },
): string {
  const { transaction } = input.view;
  const amount = due.zero ? '0' : due.balance;
  const keeps = due.recurring || due.zero;
  return `<form id="stripe-payment" method="post" action="/checkout/pay${input.query}" aria-labelledby="payment-heading" novalidate
 data-publishable-key="${escapeHtml(input.view.browserKey ?? '')}"
 data-mode="${due.zero ? 'setup' : 'payment'}"
 data-amount="${escapeHtml(amount)}"
 data-currency="${escapeHtml(transaction.currencyCode.toLowerCase())}"
 data-future-usage="${keeps ? 'off_session' : ''}"
 data-intent-url="/checkout/intent${input.query}"
 data-return-url="${escapeHtml(browser.returnUrl)}">
<h2 id="payment-heading">2. Payment</h2>
<input type="hidden" name="submission_key" value="${escapeHtml(input.submissionKey)}">
<input type="hidden" name="expected_amount" value="${escapeHtml(amount)}">
<p class="hint" id="card-hint">Your card details go to Stripe, our payment processor, never to this site.</p>
<div id="payment-element" aria-describedby="card-hint"></div>
<div class="error" role="alert" id="payment-error" tabindex="-1" hidden></div>
<noscript><p class="notice">Paying by card needs JavaScript: the card form is Stripe’s.</p></noscript>
${
  keeps
    ? `<p class="hint">Your card is saved for this subscription’s future payments.</p>`
    : `<div class="field check"><input id="field-save_method" type="checkbox" name="save_method" value="on"> <label for="field-save_method">Save this card for future purchases</label></div>`
}
<button type="submit" id="pay-button">${due.zero ? 'Save card' : `Pay ${escapeHtml(money(due.balance, transaction.currencyCode))}`}</button>
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
  var data = form.dataset;
  var stripe = window.Stripe(data.publishableKey);
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
          if (!response.ok) return showError(answer.error ? answer.error.detail : 'The payment could not be started.');
          var confirm = answer.data.kind === 'setup' ? stripe.confirmSetup : stripe.confirmPayment;
          return confirm.call(stripe, {
            elements: elements,
            clientSecret: answer.data.client_secret,
            confirmParams: { return_url: data.returnUrl },
          }).then(function (result) {
            // Only a failure comes back: on success Stripe.js has gone to the return URL.
            if (result.error && result.error.type === 'card_error') return window.location.assign(data.returnUrl);
            showError(result.error ? result.error.message : 'The payment could not be confirmed.');
          });
        });
      });
    }).catch(function () {
      showError('The payment could not be started. Check your connection and try again.');
    });
  });
})();
`;

export function renderChallengePage(input: {
  readonly attempt: PaymentAttempt;
  readonly providerPaymentRef: string;
}): string {
  const { attempt } = input;
  const amount =
    BigInt(attempt.amount) > 0n ? money(attempt.amount, attempt.currencyCode) : 'no charge (saving the card)';
  const waiting = attempt.status === 'requires_action';
  const body = waiting
    ? `<h1>Confirm this payment</h1>
<p>Your bank asks you to confirm a payment of ${escapeHtml(amount)}. This page stands in for the bank’s 3-D Secure check.</p>
<form method="post" action="/checkout/sandbox-authentication/${escapeHtml(input.providerPaymentRef)}">
<input type="hidden" name="outcome" value="pass">
<button type="submit">Complete authentication</button>
</form>
<form method="post" action="/checkout/sandbox-authentication/${escapeHtml(input.providerPaymentRef)}">
<input type="hidden" name="outcome" value="fail">
<button type="submit" class="secondary">Fail authentication</button>
</form>`
    : `<h1>Authentication finished</h1><p><a href="/checkout?_ptxn=${escapeHtml(attempt.transactionId)}">Back to the checkout</a></p>`;
  return page('Confirm this payment', body, true);
}

/** The page for a link that names no transaction of this environment. */
export function renderNotFoundPage(sandbox: boolean): string {
  return page(
    'Checkout not found',
    '<h1>Checkout not found</h1><p>This checkout link is not valid. Ask the seller for a new link.</p>',
    sandbox,
  );
}
