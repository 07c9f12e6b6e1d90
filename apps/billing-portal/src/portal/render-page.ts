/**
 * @module
 * The billing page as server-rendered HTML: usage bars and the first page of the history, so it
 * reads complete before any script runs; the page script then adds "load more", on-demand invoice
 * links, local dates and usage refreshes. Semantic table, labelled controls, a live region for
 * updates, and a layout that turns rows into cards on a phone (ADR 0803).
 */
import type { HistoryPage, HistoryRow } from './billing-history.js';
import { escapeHtml } from './html.js';
import type { UsageMeterView } from './usage-view.js';

export interface PageAssets {
  readonly scriptUrl: string;
  readonly styleUrl: string;
}

export interface PageInput {
  readonly basePath: string;
  readonly assets: PageAssets;
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
}

const BAR_WIDTH = 10_000;

function hiddenCsrf(token: string | null): string {
  return token === null ? '' : `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">`;
}

/** One history row; the page script builds the same markup for rows it loads later. */
export function renderRow(row: HistoryRow, basePath: string, locale: string, csrfToken: string | null): string {
  const invoiceNumber = row.invoiceNumber
    ? `<span class="secondary">Invoice ${escapeHtml(row.invoiceNumber)}</span>`
    : '';
  const invoice = row.hasInvoice
    ? `<form class="invoice-form" method="post" action="${escapeHtml(`${basePath}/transactions/${row.id}/invoice`)}" data-transaction-id="${escapeHtml(row.id)}">${hiddenCsrf(csrfToken)}<button type="submit" class="invoice-button" aria-label="Download PDF invoice of ${escapeHtml(row.dateText)}, ${escapeHtml(row.total)}">Download PDF</button></form>`
    : '<span class="secondary" aria-hidden="true">—</span><span class="visually-hidden">No invoice</span>';
  return `<tr role="row" data-transaction-id="${escapeHtml(row.id)}" data-status="${escapeHtml(row.status)}" data-currency="${escapeHtml(row.currencyCode)}">
<td role="cell" data-label="Date"><time datetime="${escapeHtml(row.date)}">${escapeHtml(row.dateText)}</time></td>
<td role="cell" data-label="Description"><div class="value"><span>${escapeHtml(row.description)}</span>${invoiceNumber}</div></td>
<td role="cell" data-label="Status"><span class="status status-${escapeHtml(row.status)}">${escapeHtml(row.statusLabel)}</span></td>
<td role="cell" data-label="Amount" class="amount-cell"><div class="value"><span class="amount" lang="${escapeHtml(locale)}">${escapeHtml(row.total)}</span><span class="secondary">incl. tax <span lang="${escapeHtml(locale)}">${escapeHtml(row.tax)}</span></span></div></td>
<td role="cell" data-label="Invoice">${invoice}</td>
</tr>`;
}

/** One usage bar; the page script updates these in place. */
export function renderMeter(view: UsageMeterView): string {
  const id = escapeHtml(view.balanceId);
  const usedWidth = Math.round((view.usedShare * BAR_WIDTH) / 10_000);
  const remainingWidth = Math.round((view.remainingShare * BAR_WIDTH) / 10_000);
  const overageWidth = Math.max(0, BAR_WIDTH - usedWidth - remainingWidth);
  const over = view.overage !== '0';
  return `<li class="meter${over ? ' meter-over' : ''}" data-balance-id="${id}" data-unit-id="${escapeHtml(view.unitId)}">
<div class="meter-head"><h3 id="meter-${id}-name">${escapeHtml(view.name)}</h3>
<p class="meter-figures" data-part="figures">${escapeHtml(view.usedText)} of ${escapeHtml(view.allowanceText)}${view.unitName ? ` ${escapeHtml(view.unitName)}` : ''} used</p></div>
<div class="meter-bar" role="meter" aria-labelledby="meter-${id}-name" aria-valuemin="0" aria-valuemax="${escapeHtml(view.allowance)}" aria-valuenow="${escapeHtml(view.used)}" aria-valuetext="${escapeHtml(view.summary)}">
<svg viewBox="0 0 ${BAR_WIDTH} 24" preserveAspectRatio="none" aria-hidden="true" focusable="false">
<rect class="bar-track" x="0" y="0" width="${BAR_WIDTH}" height="24"></rect>
<rect class="bar-used" data-part="used-bar" x="0" y="0" width="${usedWidth}" height="24"></rect>
<rect class="bar-overage" data-part="overage-bar" x="${BAR_WIDTH - overageWidth}" y="0" width="${over ? overageWidth : 0}" height="24"></rect>
</svg></div>
<dl class="meter-legend">
<div class="legend-used"><dt>Used</dt><dd data-part="used">${escapeHtml(view.usedText)}</dd></div>
<div class="legend-remaining"><dt>Left</dt><dd data-part="remaining">${escapeHtml(view.remainingText)}</dd></div>
<div class="legend-overage"><dt>Over allowance</dt><dd data-part="overage">${escapeHtml(view.overageText)}</dd></div>
</dl>
</li>`;
}

function renderUsage(input: PageInput): string {
  const meters = input.usage.map(renderMeter).join('\n');
  const empty = input.usage.length === 0;
  return `<section class="panel" id="usage" aria-labelledby="usage-heading">
<h2 id="usage-heading">Usage</h2>
<p class="hint">What your plan includes this billing period. Updates by itself every few seconds.</p>
<ul class="meters" id="usage-list"${empty ? ' hidden' : ''}>${meters}</ul>
<p class="empty" id="usage-empty"${empty ? '' : ' hidden'}>Your plan has no usage allowances.</p>
</section>`;
}

function renderHistory(input: PageInput): string {
  const { history, basePath, locale, csrfToken } = input;
  const rows = history.rows.map((row) => renderRow(row, basePath, locale, csrfToken)).join('\n');
  const empty = history.rows.length === 0;
  const more =
    history.hasMore && history.next !== null
      ? `<a class="button" id="load-more" href="${escapeHtml(`${basePath}/?after=${encodeURIComponent(history.next)}`)}" data-next="${escapeHtml(history.next)}">Load more transactions</a>`
      : '';
  const back =
    input.after === null ? '' : `<a class="link" href="${escapeHtml(`${basePath}/`)}">Back to the newest</a>`;
  return `<section class="panel" id="history" aria-labelledby="history-heading">
<h2 id="history-heading">Billing history</h2>
<div class="table-wrap"${empty ? ' hidden' : ''}>
<table class="history" role="table">
<caption class="visually-hidden">Your transactions, newest first</caption>
<thead role="rowgroup"><tr role="row"><th role="columnheader" scope="col">Date</th><th role="columnheader" scope="col">Description</th><th role="columnheader" scope="col">Status</th><th role="columnheader" scope="col" class="amount-cell">Amount</th><th role="columnheader" scope="col">Invoice</th></tr></thead>
<tbody role="rowgroup" id="history-rows">
${rows}
</tbody>
</table>
</div>
<p class="empty"${empty ? '' : ' hidden'}>${input.hasCustomer ? 'No transactions yet.' : 'There is no billing account for you yet, so there is nothing to show.'}</p>
<div class="more">${more}${back}</div>
</section>`;
}

function renderSignOut(input: PageInput): string {
  if (input.signOutUrl === null) return '';
  return `<form method="post" action="${escapeHtml(input.signOutUrl)}">${hiddenCsrf(input.csrfToken)}<button type="submit" class="button button-quiet">Sign out</button></form>`;
}

/** The whole page. */
export function renderPage(input: PageInput): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<link rel="stylesheet" href="${escapeHtml(input.assets.styleUrl)}">
<script src="${escapeHtml(input.assets.scriptUrl)}" defer></script>
</head>
<body>
<a class="skip-link" href="#history">Skip to billing history</a>
<header class="top"><div class="top-inner"><h1>${escapeHtml(input.title)}</h1>${renderSignOut(input)}</div></header>
<main id="portal" data-base="${escapeHtml(input.basePath)}" data-locale="${escapeHtml(input.locale)}" data-poll-ms="${input.pollMs}" data-csrf="${escapeHtml(input.csrfToken ?? '')}">
${renderUsage(input)}
${renderHistory(input)}
<p id="portal-status" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></p>
</main>
</body>
</html>`;
}

/** A short page for a refusal or failure of an HTML route. */
export function renderMessagePage(
  title: string,
  message: string,
  assets: PageAssets,
  link: { href: string; text: string } | null,
): string {
  const action = link ? `<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(assets.styleUrl)}">
</head>
<body>
<main class="message"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${action}</main>
</body>
</html>`;
}
