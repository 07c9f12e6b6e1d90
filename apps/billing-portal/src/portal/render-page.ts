/**
 * @module
 * The billing page as server-rendered HTML: the plan with its actions, the outstanding balance,
 * usage bars, the first page of the history, refunds and credits, and the billing details form,
 * so it reads complete and works before any script runs (every action is a form post); the page
 * script then adds "load more", on-demand invoice links, local dates and usage refreshes.
 * Semantic tables, labelled controls, a live region for updates, and a phone layout that turns
 * rows into compact cards (ADR 0803, 1441). All text comes from the viewer's language (ADR 1441).
 */
import { countryOptions, escapeHtml, htmlDocument } from '@drawdown/http-kit';
import type { HistoryPage, HistoryRow } from './billing-history.js';
import { type Language, type MessageKey, scriptMessagesOf, type Translate } from './messages.js';
import type {
  AdjustmentView,
  BalanceView,
  BillingDetails,
  CardView,
  DetailsField,
  PlanChoice,
  PlanView,
  PreviewView,
} from './self-service.js';
import type { UsageMeterView } from './usage-view.js';

export interface PageAssets {
  readonly scriptUrl: string;
  readonly styleUrl: string;
}

export interface PageText {
  readonly language: Language;
  readonly t: Translate;
}

export interface PageInput extends PageText {
  readonly basePath: string;
  readonly assets: PageAssets;
  /** The locale amounts and dates are formatted in. */
  readonly locale: string;
  readonly title: string;
  readonly history: HistoryPage;
  /** The cursor this page started after; null on the first page. */
  readonly after: string | null;
  readonly usage: readonly UsageMeterView[];
  readonly csrfToken: string | null;
  readonly signOutUrl: string | null;
  readonly hasCustomer: boolean;
  readonly pollMs: number;
  /** Null when the key may not read subscriptions (the section is left off). */
  readonly plans: readonly PlanView[] | null;
  readonly balance: BalanceView | null;
  readonly adjustments: readonly AdjustmentView[] | null;
  readonly details: BillingDetails | null;
  /** The card on file (ADR 0807); null when none is saved or the key may not read it. */
  readonly card: CardView | null;
  /** Plans a customer with no plan may subscribe to (ADR 0812); empty when none are offered. */
  readonly offers: readonly PlanChoice[];
  /** The seller's name and logo from seller details (ADR 0810); null when neither is set. */
  readonly seller: { readonly name: string | null; readonly logoUrl: string | null } | null;
  /** A message for what the last action did, announced on arrival. */
  readonly notice: string | null;
}

const BAR_WIDTH = 10_000;

function hiddenCsrf(token: string | null): string {
  return token === null ? '' : `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">`;
}

function attribute(value: string): string {
  return escapeHtml(value);
}

/** One history row; the page script builds the same markup for rows it loads later. */
export function renderRow(
  row: HistoryRow,
  basePath: string,
  locale: string,
  csrfToken: string | null,
  t: Translate,
): string {
  const invoiceNumber = row.invoiceNumber
    ? `<span class="secondary">${escapeHtml(t('invoiceNumber', { number: row.invoiceNumber }))}</span>`
    : '';
  const pay = row.payUrl
    ? `<a class="button pay-link" href="${attribute(row.payUrl)}" aria-label="${attribute(`${t('payNow')}, ${t('payLabel', { total: row.total, date: row.dateText })}`)}">${escapeHtml(t('payNow'))}</a>`
    : '';
  const invoice = row.hasInvoice
    ? `<form class="invoice-form" method="post" action="${attribute(`${basePath}/transactions/${row.id}/invoice`)}" data-transaction-id="${attribute(row.id)}">${hiddenCsrf(csrfToken)}<button type="submit" class="invoice-button" aria-label="${attribute(`${t('downloadPdf')}, ${t('downloadPdfLabel', { date: row.dateText, total: row.total })}`)}">${escapeHtml(t('downloadPdf'))}</button></form>`
    : pay === ''
      ? `<span class="secondary" aria-hidden="true">—</span><span class="visually-hidden">${escapeHtml(t('noInvoice'))}</span>`
      : '';
  return `<tr role="row" data-transaction-id="${attribute(row.id)}" data-status="${attribute(row.status)}" data-currency="${attribute(row.currencyCode)}"${row.hasInvoice || pay ? '' : ' class="no-actions"'}>
<td role="cell" data-label="${attribute(t('colDate'))}" class="date-cell"><time datetime="${attribute(row.date)}">${escapeHtml(row.dateText)}</time></td>
<td role="cell" data-label="${attribute(t('colDescription'))}" class="description-cell"><div class="value"><span>${escapeHtml(row.description)}</span>${invoiceNumber}</div></td>
<td role="cell" data-label="${attribute(t('colStatus'))}" class="status-cell"><span class="status status-${attribute(row.status)}">${escapeHtml(row.statusLabel)}</span></td>
<td role="cell" data-label="${attribute(t('colAmount'))}" class="amount-cell"><div class="value"><span class="amount" lang="${attribute(locale)}">${escapeHtml(row.total)}</span><span class="secondary">${escapeHtml(t('inclTax'))} <span lang="${attribute(locale)}">${escapeHtml(row.tax)}</span></span></div></td>
<td role="cell" data-label="${attribute(t('colInvoice'))}" class="invoice-cell">${pay}${invoice}</td>
</tr>`;
}

/** One usage bar; the page script updates these in place. */
export function renderMeter(view: UsageMeterView, t: Translate): string {
  const id = escapeHtml(view.balanceId);
  const usedWidth = Math.round((view.usedShare * BAR_WIDTH) / 10_000);
  const remainingWidth = Math.round((view.remainingShare * BAR_WIDTH) / 10_000);
  const overageWidth = Math.max(0, BAR_WIDTH - usedWidth - remainingWidth);
  const over = view.overage !== '0';
  return `<li class="meter${over ? ' meter-over' : ''}" data-balance-id="${id}" data-unit-id="${attribute(view.unitId)}">
<div class="meter-head"><h3 id="meter-${id}-name">${escapeHtml(view.name)}</h3>
<p class="meter-figures" data-part="figures">${escapeHtml(view.figures)}</p></div>
${view.overageNote ? `<p class="meter-note" data-part="overage-note">${escapeHtml(view.overageNote)}</p>` : ''}
<div class="meter-bar" role="meter" aria-labelledby="meter-${id}-name" aria-valuemin="0" aria-valuemax="${attribute(view.allowance)}" aria-valuenow="${attribute(view.used)}" aria-valuetext="${attribute(view.summary)}">
<svg viewBox="0 0 ${BAR_WIDTH} 24" preserveAspectRatio="none" aria-hidden="true" focusable="false">
<rect class="bar-track" x="0" y="0" width="${BAR_WIDTH}" height="24"></rect>
<rect class="bar-used" data-part="used-bar" x="0" y="0" width="${usedWidth}" height="24"></rect>
<rect class="bar-overage" data-part="overage-bar" x="${BAR_WIDTH - overageWidth}" y="0" width="${over ? overageWidth : 0}" height="24"></rect>
</svg></div>
<dl class="meter-legend">
<div class="legend-used"><dt>${escapeHtml(t('legendUsed'))}</dt><dd data-part="used">${escapeHtml(view.usedText)}</dd></div>
<div class="legend-remaining"><dt>${escapeHtml(t('legendLeft'))}</dt><dd data-part="remaining">${escapeHtml(view.remainingText)}</dd></div>
<div class="legend-overage"><dt>${escapeHtml(t('legendOver'))}</dt><dd data-part="overage">${escapeHtml(view.overageText)}</dd></div>
</dl>
${renderPeriods(view, t)}
</li>`;
}

const CHART_HEIGHT = 100;
const CHART_BAR = 60;
const CHART_STEP = 100;

/**
 * Usage per billing period: an SVG column chart (used within the allowance, the overage on top
 * in red, a line at the allowance) for the eye, and the same figures in a table for everyone;
 * the chart is hidden from assistive technology since the table says it all. Collapsed by
 * default, so the phone page stays short (ADR 1442).
 */
function renderPeriods(view: UsageMeterView, t: Translate): string {
  if (view.periods.length === 0) return '';
  const width = view.periods.length * CHART_STEP;
  const columns = view.periods
    .map((period, index) => {
      const x = index * CHART_STEP + (CHART_STEP - CHART_BAR) / 2;
      const within = Math.round((period.withinShare * CHART_HEIGHT) / 10_000);
      const over = Math.round((period.overShare * CHART_HEIGHT) / 10_000);
      const allowance = CHART_HEIGHT - Math.round((period.allowanceShare * CHART_HEIGHT) / 10_000);
      return `<rect class="bar-used" x="${x}" y="${CHART_HEIGHT - within}" width="${CHART_BAR}" height="${within}"></rect>
<rect class="bar-overage" x="${x}" y="${CHART_HEIGHT - within - over}" width="${CHART_BAR}" height="${over}"></rect>
<line class="chart-allowance" x1="${x - 8}" x2="${x + CHART_BAR + 8}" y1="${allowance}" y2="${allowance}"></line>`;
    })
    .join('\n');
  const rows = view.periods
    .map(
      (period) =>
        `<tr${period.current ? ' class="current-period"' : ''}><th scope="row">${escapeHtml(period.label)}</th><td>${escapeHtml(period.allowanceText)}</td><td>${escapeHtml(period.usedText)}</td><td>${escapeHtml(period.overageText)}</td></tr>`,
    )
    .join('');
  return `<details class="periods" data-part="periods">
<summary>${escapeHtml(t('pastPeriods'))}</summary>
<svg class="period-chart" viewBox="0 -4 ${width} ${CHART_HEIGHT + 8}" aria-hidden="true" focusable="false">
<line class="chart-base" x1="0" x2="${width}" y1="${CHART_HEIGHT}" y2="${CHART_HEIGHT}"></line>
${columns}
</svg>
<div class="period-table-wrap" tabindex="0" role="region" aria-label="${attribute(t('periodsCaption'))}">
<table class="period-table">
<caption class="visually-hidden">${escapeHtml(t('periodsCaption'))}</caption>
<thead><tr><th scope="col">${escapeHtml(t('colPeriod'))}</th><th scope="col">${escapeHtml(t('colAllowance'))}</th><th scope="col">${escapeHtml(t('colUsed'))}</th><th scope="col">${escapeHtml(t('colOver'))}</th></tr></thead>
<tbody>${rows}</tbody>
</table>
</div>
</details>`;
}

function postButton(action: string, csrf: string | null, text: string, quiet = true, extra = ''): string {
  return `<form method="post" action="${attribute(action)}" class="inline-form">${hiddenCsrf(csrf)}${extra}<button type="submit" class="button${quiet ? ' button-quiet' : ''}">${escapeHtml(text)}</button></form>`;
}

function renderPlan(plan: PlanView, input: PageInput): string {
  const { t, basePath, csrfToken } = input;
  const base = `${basePath}/subscriptions/${plan.id}`;
  const actions: string[] = [];
  if (plan.actions.change) {
    actions.push(
      `<a class="button button-quiet" href="${attribute(`${base}/change`)}">${escapeHtml(t('changePlan'))}</a>`,
    );
  }
  if (plan.actions.keep) actions.push(postButton(`${base}/keep`, csrfToken, t('keepPlan'), false));
  if (plan.actions.keepRunning) actions.push(postButton(`${base}/keep-running`, csrfToken, t('keepRunning'), false));
  if (plan.actions.resume) {
    // Resuming charges a new period: a page states the charge first (ADR 1449).
    actions.push(`<a class="button" href="${attribute(`${base}/resume`)}">${escapeHtml(t('resumePlan'))}</a>`);
  }
  if (plan.actions.pause) actions.push(postButton(`${base}/pause`, csrfToken, t('pausePlan')));
  if (plan.actions.cancel) {
    actions.push(
      `<a class="button button-quiet" href="${attribute(`${base}/cancel`)}">${escapeHtml(t('cancelPlan'))}</a>`,
    );
  }
  const row = (term: MessageKey, value: string, part: string) =>
    `<div><dt>${escapeHtml(t(term))}</dt><dd data-part="${part}">${escapeHtml(value)}</dd></div>`;
  return `<li class="plan" id="subscription-${attribute(plan.id)}" data-subscription-id="${attribute(plan.id)}" data-status="${attribute(plan.status)}">
<div class="plan-head"><h3>${escapeHtml(plan.name)}</h3><span class="status status-plan-${attribute(plan.status)}">${escapeHtml(plan.statusLabel)}</span></div>
${plan.scheduledText ? `<p class="scheduled" data-part="scheduled" data-action="${attribute(plan.scheduledAction ?? '')}">${escapeHtml(plan.scheduledText)}</p>` : ''}
${plan.cancellationReasonText ? `<p class="hint" data-part="cancellation-reason">${escapeHtml(plan.cancellationReasonText)}</p>` : ''}
<dl class="facts">
${row('planChoice', plan.priceText, 'price')}
${row('quantity', String(plan.quantity), 'quantity')}
${plan.periodText ? row('currentPeriod', plan.periodText, 'period') : ''}
${row('nextCharge', plan.nextChargeText, 'next-charge')}
</dl>
<div class="actions">${actions.join('')}</div>
</li>`;
}

/** One plan as a card: its name, price per period and allowances (ADR 0808). */
function planCardBody(choice: PlanChoice, headingLevel: 'h3' | 'span'): string {
  const allowances =
    choice.allowances.length === 0
      ? ''
      : `<ul class="allowances">${choice.allowances.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
  return `<${headingLevel} class="plan-card-name">${escapeHtml(choice.name)}</${headingLevel}>
<span class="plan-card-price" data-part="card-price">${escapeHtml(choice.priceText)}</span>
${allowances}`;
}

/** The plans a customer with no plan may pick, each paid through the hosted checkout (ADR 0812). */
function renderOffers(input: PageInput): string {
  const { t, basePath, csrfToken } = input;
  const cards = input.offers
    .map(
      (choice) => `<li class="plan-card" data-price-id="${attribute(choice.priceId)}">
${planCardBody(choice, 'h3')}
<form method="post" action="${attribute(`${basePath}/subscribe`)}" class="inline-form">${hiddenCsrf(csrfToken)}<input type="hidden" name="price_id" value="${attribute(choice.priceId)}"><button type="submit" class="button">${escapeHtml(t('subscribeTo', { plan: choice.name }))}</button></form>
</li>`,
    )
    .join('\n');
  return `<h3 class="offers-heading">${escapeHtml(t('choosePlanHeading'))}</h3>
<p class="hint">${escapeHtml(t('choosePlanIntro'))}</p>
<ul class="plan-cards" data-part="offers">${cards}</ul>`;
}

function renderCard(input: PageInput): string {
  const { t, card, basePath } = input;
  const automatic = (input.plans ?? []).find((plan) => plan.collectionMode === 'automatic' && plan.status !== 'paused');
  if (card === null && !automatic) return '';
  const update = automatic
    ? `<a class="button button-quiet" href="${attribute(`${basePath}/subscriptions/${automatic.id}/payment-method`)}">${escapeHtml(t('updateCard'))}</a>`
    : '';
  const body = card
    ? `<p class="card-on-file" data-part="card"><span>${escapeHtml(card.text)}</span><span class="secondary" data-part="card-expiry">${escapeHtml(card.expiresText)}</span></p>`
    : `<p class="empty" data-part="card">${escapeHtml(t('cardNone'))}</p>`;
  return `<div class="card-panel" id="card" aria-labelledby="card-heading">
<h3 id="card-heading">${escapeHtml(t('cardHeading'))}</h3>
${body}
<div class="actions">${update}</div>
</div>`;
}

function renderPlans(input: PageInput): string {
  if (input.plans === null || !input.hasCustomer) return '';
  const { t } = input;
  const body =
    input.plans.length === 0
      ? input.offers.length > 0
        ? renderOffers(input)
        : `<p class="empty">${escapeHtml(t('noPlan'))}</p>`
      : `<ul class="plans">${input.plans.map((plan) => renderPlan(plan, input)).join('\n')}</ul>`;
  return `<section class="panel" id="plan" aria-labelledby="plan-heading">
<h2 id="plan-heading">${escapeHtml(t('planHeading'))}</h2>
${body}
${renderCard(input)}
</section>`;
}

function renderBalance(input: PageInput): string {
  if (input.balance === null || !input.hasCustomer) return '';
  const { t, balance } = input;
  const body =
    balance.count === 0
      ? `<p class="balance-none" data-part="balance">${escapeHtml(t('balanceNone'))}</p>`
      : `<p class="balance-due" data-part="balance">${balance.lines.map((line) => `<span class="amount" lang="${attribute(input.locale)}">${escapeHtml(line)}</span>`).join('')}</p>
<p class="hint">${escapeHtml(t('balanceCount', { count: balance.count }))}${balance.pastDue > 0 ? ` · ${escapeHtml(t('balancePastDue', { count: balance.pastDue }))}` : ''}</p>`;
  return `<section class="panel" id="balance" aria-labelledby="balance-heading">
<h2 id="balance-heading">${escapeHtml(t('balanceHeading'))}</h2>
${body}
</section>`;
}

function renderUsage(input: PageInput): string {
  const { t } = input;
  const meters = input.usage.map((view) => renderMeter(view, t)).join('\n');
  const empty = input.usage.length === 0;
  return `<section class="panel" id="usage" aria-labelledby="usage-heading">
<h2 id="usage-heading">${escapeHtml(t('usageHeading'))}</h2>
<p class="hint">${escapeHtml(t('usageHint'))}</p>
<ul class="meters" id="usage-list"${empty ? ' hidden' : ''}>${meters}</ul>
<p class="empty" id="usage-empty"${empty ? '' : ' hidden'}>${escapeHtml(t('usageEmpty'))}</p>
</section>`;
}

function renderHistory(input: PageInput): string {
  const { history, basePath, locale, csrfToken, t } = input;
  const rows = history.rows.map((row) => renderRow(row, basePath, locale, csrfToken, t)).join('\n');
  const empty = history.rows.length === 0;
  const more =
    history.hasMore && history.next !== null
      ? `<a class="button" id="load-more" href="${attribute(`${basePath}/?after=${encodeURIComponent(history.next)}#history`)}" data-next="${attribute(history.next)}">${escapeHtml(t('loadMore'))}</a>`
      : '';
  const back =
    input.after === null
      ? ''
      : `<a class="link" href="${attribute(`${basePath}/`)}">${escapeHtml(t('backToNewest'))}</a>`;
  const header = (key: MessageKey, extra = '') =>
    `<th role="columnheader" scope="col"${extra}>${escapeHtml(t(key))}</th>`;
  return `<section class="panel" id="history" aria-labelledby="history-heading">
<h2 id="history-heading">${escapeHtml(t('historyHeading'))}</h2>
<div class="table-wrap"${empty ? ' hidden' : ''}>
<table class="history" role="table">
<caption class="visually-hidden">${escapeHtml(t('historyCaption'))}</caption>
<thead role="rowgroup"><tr role="row">${header('colDate')}${header('colDescription')}${header('colStatus')}${header('colAmount', ' class="amount-cell"')}${header('colInvoice')}</tr></thead>
<tbody role="rowgroup" id="history-rows">
${rows}
</tbody>
</table>
</div>
<p class="empty"${empty ? '' : ' hidden'}>${escapeHtml(input.hasCustomer ? t('noTransactions') : t('noAccount'))}</p>
<div class="more">${more}${back}</div>
</section>`;
}

function renderAdjustments(input: PageInput): string {
  if (input.adjustments === null || !input.hasCustomer) return '';
  const { t, adjustments, basePath, csrfToken, locale } = input;
  if (adjustments.length === 0) {
    return `<section class="panel" id="adjustments" aria-labelledby="adjustments-heading">
<h2 id="adjustments-heading">${escapeHtml(t('adjustmentsHeading'))}</h2>
<p class="empty">${escapeHtml(t('adjustmentsNone'))}</p>
</section>`;
  }
  const rows = adjustments
    .map((adjustment) => {
      const note = adjustment.hasCreditNote
        ? `<form class="credit-note-form" method="post" action="${attribute(`${basePath}/adjustments/${adjustment.id}/credit-note`)}" data-adjustment-id="${attribute(adjustment.id)}">${hiddenCsrf(csrfToken)}<button type="submit" class="invoice-button" aria-label="${attribute(`${t('creditNotePdf')}, ${t('creditNoteLabel', { date: adjustment.dateText, total: adjustment.total })}`)}">${escapeHtml(t('creditNotePdf'))}</button></form>`
        : `<span class="secondary" aria-hidden="true">—</span>`;
      return `<tr role="row" data-adjustment-id="${attribute(adjustment.id)}" data-action="${attribute(adjustment.action)}">
<td role="cell" data-label="${attribute(t('colDate'))}" class="date-cell"><time datetime="${attribute(adjustment.date)}">${escapeHtml(adjustment.dateText)}</time></td>
<td role="cell" data-label="${attribute(t('colKind'))}" class="description-cell"><div class="value"><span>${escapeHtml(adjustment.kindText)}</span>${adjustment.forText ? `<span class="secondary">${escapeHtml(adjustment.forText)}</span>` : ''}</div></td>
<td role="cell" data-label="${attribute(t('colStatus'))}" class="status-cell"><span class="status status-adjustment">${escapeHtml(adjustment.statusText)}</span></td>
<td role="cell" data-label="${attribute(t('colAmount'))}" class="amount-cell"><span class="amount" lang="${attribute(locale)}">${escapeHtml(adjustment.total)}</span></td>
<td role="cell" data-label="${attribute(t('colCreditNote'))}" class="invoice-cell">${note}</td>
</tr>`;
    })
    .join('\n');
  const header = (key: MessageKey, extra = '') =>
    `<th role="columnheader" scope="col"${extra}>${escapeHtml(t(key))}</th>`;
  return `<section class="panel" id="adjustments" aria-labelledby="adjustments-heading">
<h2 id="adjustments-heading">${escapeHtml(t('adjustmentsHeading'))}</h2>
<div class="table-wrap">
<table class="history adjustments" role="table">
<caption class="visually-hidden">${escapeHtml(t('adjustmentsCaption'))}</caption>
<thead role="rowgroup"><tr role="row">${header('colDate')}${header('colKind')}${header('colStatus')}${header('colAmount', ' class="amount-cell"')}${header('colCreditNote')}</tr></thead>
<tbody role="rowgroup">
${rows}
</tbody>
</table>
</div>
</section>`;
}

export interface DetailsFormInput {
  readonly t: Translate;
  /** The locale the country names are written and sorted in. */
  readonly locale: string;
  readonly basePath: string;
  readonly csrfToken: string | null;
  readonly details: Omit<BillingDetails, 'addressId' | 'businessId'>;
  readonly errors: Partial<Record<DetailsField, MessageKey>>;
}

/** The billing details form (address, business, tax id); with errors, each is tied to its field. */
export function renderDetailsForm(input: DetailsFormInput): string {
  const { t, details, errors } = input;
  const field = (
    name: string,
    key: keyof typeof details,
    label: MessageKey,
    autocomplete: string,
    errorField?: DetailsField,
    type = 'text',
  ) => {
    const error = errorField ? errors[errorField] : undefined;
    const errorId = `error-${name}`;
    return `<div class="field">
<label for="field-${name}">${escapeHtml(t(label))}</label>
<input id="field-${name}" name="${name}" type="${type}" value="${attribute(details[key])}" autocomplete="${autocomplete}"${error ? ` aria-invalid="true" aria-describedby="${errorId}"` : ''}>
${error ? `<p class="field-error" id="${errorId}">${escapeHtml(t(error))}</p>` : ''}
</div>`;
  };
  const country = () => {
    const error = errors.countryCode;
    const options = countryOptions(input.locale)
      .map(
        (option) =>
          `<option value="${attribute(option.code)}"${option.code === details.countryCode ? ' selected' : ''}>${escapeHtml(option.name)}</option>`,
      )
      .join('');
    return `<div class="field">
<label for="field-country_code">${escapeHtml(t('country'))}</label>
<select id="field-country_code" name="country_code" autocomplete="country"${error ? ' aria-invalid="true" aria-describedby="error-country_code"' : ''}><option value=""${details.countryCode === '' ? ' selected' : ''}>${escapeHtml(t('chooseCountry'))}</option>${options}</select>
${error ? `<p class="field-error" id="error-country_code">${escapeHtml(t(error))}</p>` : ''}
</div>`;
  };
  const invalid = Object.keys(errors).length > 0;
  return `<section class="panel" id="details" aria-labelledby="details-heading">
<h2 id="details-heading">${escapeHtml(t('detailsHeading'))}</h2>
<p class="hint">${escapeHtml(t('detailsHint'))}</p>
${invalid ? `<p class="error" role="alert">${escapeHtml(t('detailsInvalid'))}</p>` : ''}
<form method="post" action="${attribute(`${input.basePath}/billing-details`)}" class="details-form" novalidate>
${hiddenCsrf(input.csrfToken)}
<div class="field-row">
${field('name', 'name', 'customerName', 'name')}
${field('email', 'email', 'customerEmail', 'email', 'email', 'email')}
</div>
${field('first_line', 'firstLine', 'addressLine1', 'address-line1', 'firstLine')}
${field('second_line', 'secondLine', 'addressLine2', 'address-line2')}
<div class="field-row">
${field('postal_code', 'postalCode', 'postalCode', 'postal-code', 'postalCode')}
${field('city', 'city', 'city', 'address-level2', 'city')}
</div>
<div class="field-row">
${field('region', 'region', 'region', 'address-level1')}
${country()}
</div>
${field('business_name', 'businessName', 'businessName', 'organization', 'businessName')}
${field('tax_identifier', 'taxIdentifier', 'taxId', 'off')}
<button type="submit">${escapeHtml(t('saveDetails'))}</button>
</form>
</section>`;
}

/** The seller's logo and name (ADR 0810): the logo is decorative beside the name, or named by it alone. */
function renderSeller(input: PageInput): string {
  const seller = input.seller;
  if (seller === null) return '';
  const name = seller.name ?? '';
  const logo = seller.logoUrl
    ? `<img class="seller-logo" src="${attribute(seller.logoUrl)}" alt="${name === '' ? '' : attribute(name)}" height="40">`
    : '';
  const text =
    name === '' ? '' : `<span class="seller-name" aria-hidden="${logo ? 'true' : 'false'}">${escapeHtml(name)}</span>`;
  return `<p class="seller" data-part="seller">${logo}${text}</p>`;
}

function renderSignOut(input: PageInput): string {
  if (input.signOutUrl === null) return '';
  return `<form method="post" action="${attribute(input.signOutUrl)}">${hiddenCsrf(input.csrfToken)}<button type="submit" class="button button-quiet">${escapeHtml(input.t('signOut'))}</button></form>`;
}

/** A portal page: its stylesheet, and its script only where the page has something for it to do. */
function portalDocument(
  language: Language,
  title: string,
  assets: PageAssets,
  withScript: boolean,
  body: string,
): string {
  return htmlDocument({
    language,
    title,
    stylesheet: assets.styleUrl,
    deferredScripts: withScript ? [assets.scriptUrl] : [],
    body,
  });
}

/** The whole page. */
export function renderPage(input: PageInput): string {
  const { t } = input;
  const details =
    input.details !== null && input.hasCustomer
      ? renderDetailsForm({
          t,
          locale: input.locale,
          basePath: input.basePath,
          csrfToken: input.csrfToken,
          details: input.details,
          errors: {},
        })
      : '';
  return portalDocument(
    input.language,
    input.title,
    input.assets,
    true,
    `<a class="skip-link" href="#history">${escapeHtml(t('skipToHistory'))}</a>
<header class="top"><div class="top-inner">${renderSeller(input)}<h1>${escapeHtml(input.title)}</h1>${renderSignOut(input)}</div></header>
<main id="portal" data-base="${attribute(input.basePath)}" data-locale="${attribute(input.locale)}" data-poll-ms="${input.pollMs}" data-csrf="${attribute(input.csrfToken ?? '')}" data-messages="${attribute(JSON.stringify(scriptMessagesOf(input.language)))}">
${input.notice ? `<p class="notice" id="notice" role="status">${escapeHtml(input.notice)}</p>` : ''}
${renderPlans(input)}
${renderBalance(input)}
${renderUsage(input)}
${renderHistory(input)}
${renderAdjustments(input)}
${details}
<p id="portal-status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></p>
</main>`,
  );
}

export interface SubPageInput extends PageText {
  readonly assets: PageAssets;
  readonly basePath: string;
  readonly title: string;
}

/** A page of its own (a confirmation, a preview, a form with errors) with a way back. */
export function renderSubPage(input: SubPageInput, heading: string, body: string, status = ''): string {
  return portalDocument(
    input.language,
    `${heading} · ${input.title}`,
    input.assets,
    false,
    `<header class="top"><div class="top-inner"><p class="site-name">${escapeHtml(input.title)}</p></div></header>
<main class="subpage">
<h1>${escapeHtml(heading)}</h1>
${status}
${body}
<p><a class="link" href="${attribute(`${input.basePath}/`)}">${escapeHtml(input.t('back'))}</a></p>
</main>`,
  );
}

/** The confirmation before cancelling at the end of the period. */
export function renderCancelConfirm(
  input: SubPageInput,
  csrf: string | null,
  subscriptionId: string,
  planName: string,
  endDateText: string,
  reasons: readonly { readonly value: string; readonly label: string }[],
): string {
  const { t } = input;
  const options = reasons
    .map(
      (reason) =>
        `<label class="choice"><input type="radio" name="reason" value="${attribute(reason.value)}"><span>${escapeHtml(reason.label)}</span></label>`,
    )
    .join('\n');
  return renderSubPage(
    input,
    t('cancelHeading'),
    `<p><strong>${escapeHtml(planName)}</strong></p>
<p>${escapeHtml(t('cancelExplain', { date: endDateText }))}</p>
<form method="post" action="${attribute(`${input.basePath}/subscriptions/${subscriptionId}/cancel`)}" class="details-form cancel-form">
${hiddenCsrf(csrf)}
<fieldset class="choices"><legend>${escapeHtml(t('cancelReasonLegend'))}</legend>
${options}
</fieldset>
<div class="field"><label for="field-comment">${escapeHtml(t('cancelComment'))}</label>
<textarea id="field-comment" name="comment" rows="3" maxlength="500"></textarea></div>
<button type="submit" class="button">${escapeHtml(t('confirmCancel'))}</button>
</form>`,
  );
}

/** After a plan is picked: what it costs, and the way to the hosted checkout that leads back here (ADR 0812). */
export function renderSubscribeContinue(input: SubPageInput, choice: PlanChoice | null, checkoutUrl: string): string {
  const { t } = input;
  const card = choice ? `<div class="plan-card plan-card-single">${planCardBody(choice, 'span')}</div>` : '';
  return renderSubPage(
    input,
    t('choosePlanHeading'),
    `${card}
<p>${escapeHtml(t('checkoutExplain'))}</p>
<p><a class="button" data-part="checkout-link" href="${attribute(checkoutUrl)}">${escapeHtml(t('continueToCheckout'))}</a></p>`,
  );
}

/** The change form: plan and quantity, answered by the preview page. */
export function renderChangeForm(
  input: SubPageInput,
  subscriptionId: string,
  choices: readonly PlanChoice[],
  current: { priceId: string; quantity: number },
): string {
  const { t } = input;
  // Each plan a card (ADR 0808): a radio button whose label holds the name, price and allowances.
  const cards = choices
    .map((choice, index) => {
      const id = `plan-${index}`;
      const checked = choice.priceId === current.priceId;
      return `<li class="plan-card plan-option" data-price-id="${attribute(choice.priceId)}"><input type="radio" id="${id}" name="price_id" value="${attribute(choice.priceId)}"${checked ? ' checked' : ''} aria-describedby="${id}-details">
<label for="${id}"><span class="plan-card-name">${escapeHtml(choice.name)}</span>${checked ? ` <span class="badge">${escapeHtml(t('currentPlan'))}</span>` : ''}</label>
<div id="${id}-details" class="plan-card-details"><span class="plan-card-price" data-part="card-price">${escapeHtml(choice.priceText)}</span>${choice.allowances.length === 0 ? '' : `<ul class="allowances">${choice.allowances.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`}</div></li>`;
    })
    .join('\n');
  const maximum = Math.max(...choices.map((choice) => choice.maximum), current.quantity);
  return renderSubPage(
    input,
    t('changeHeading'),
    `<form method="get" action="${attribute(`${input.basePath}/subscriptions/${subscriptionId}/change/preview`)}" class="details-form">
<fieldset class="choices"><legend>${escapeHtml(t('planChoice'))}</legend>
<ul class="plan-cards">${cards}</ul></fieldset>
<div class="field"><label for="field-quantity">${escapeHtml(t('quantity'))}</label>
<input id="field-quantity" name="quantity" type="number" inputmode="numeric" min="1" max="${maximum}" step="1" value="${current.quantity}" required></div>
<button type="submit">${escapeHtml(t('previewChange'))}</button>
</form>`,
  );
}

/** The preview of a change, with the confirmation that makes it: every figure from the service's preview (ADR 1448). */
export function renderChangePreview(
  input: SubPageInput,
  csrf: string | null,
  subscriptionId: string,
  change: { priceId: string; quantity: number; label: string },
  preview: PreviewView,
): string {
  const { t } = input;
  const hidden = `<input type="hidden" name="price_id" value="${attribute(change.priceId)}"><input type="hidden" name="quantity" value="${change.quantity}">`;
  const statements = preview.statements
    .map((statement) => `<li data-part="${attribute(statement.part)}">${escapeHtml(statement.text)}</li>`)
    .join('');
  const rows = preview.lines
    .map(
      (line) =>
        `<tr data-kind="${attribute(line.kind)}"><th scope="row">${escapeHtml(line.label)}${line.periodText ? `<span class="line-period">${escapeHtml(line.periodText)}</span>` : ''}</th><td class="amount">${escapeHtml(line.amount)}</td></tr>`,
    )
    .join('');
  const breakdown =
    rows === ''
      ? ''
      : `<table class="breakdown" data-part="breakdown"><caption>${escapeHtml(t('breakdownCaption'))}</caption><tbody>${rows}</tbody></table>`;
  return renderSubPage(
    input,
    t('previewHeading'),
    `<p>${escapeHtml(t('previewIntro'))}</p>
<dl class="facts preview">
<div><dt>${escapeHtml(t('afterChange'))}</dt><dd data-part="plan">${escapeHtml(change.label)} × ${change.quantity}</dd></div>
</dl>
<p data-part="mode">${escapeHtml(preview.modeText)}</p>
<ul class="statement" data-part="statement">${statements}</ul>
${breakdown}
<dl class="facts preview">
<div><dt>${escapeHtml(t('nextChargeAfter'))}</dt><dd data-part="next">${escapeHtml(preview.nextText)}</dd></div>
</dl>
${postButton(`${input.basePath}/subscriptions/${subscriptionId}/change`, csrf, t('confirmChange'), false, hidden)}`,
  );
}

/** The confirmation before resuming a paused plan, stating what resuming charges. */
export function renderResumeConfirm(
  input: SubPageInput,
  csrf: string | null,
  subscriptionId: string,
  chargeText: string,
): string {
  const { t } = input;
  return renderSubPage(
    input,
    t('resumeHeading'),
    `<p>${escapeHtml(t('resumeExplain'))}</p>
<p data-part="resume-charge"><strong>${escapeHtml(chargeText)}</strong></p>
${postButton(`${input.basePath}/subscriptions/${subscriptionId}/resume`, csrf, t('confirmResume'), false)}`,
  );
}

/** A short page for a refusal or failure of an HTML route. */
export function renderMessagePage(
  title: string,
  message: string,
  assets: PageAssets,
  link: { href: string; text: string } | null,
  language: Language = 'en',
): string {
  const action = link ? `<p><a class="button" href="${attribute(link.href)}">${escapeHtml(link.text)}</a></p>` : '';
  return portalDocument(
    language,
    title,
    assets,
    false,
    `<main class="message"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${action}</main>`,
  );
}
