/**
 * @module
 * The page's stylesheet, served from the portal's own path (the Content-Security-Policy allows
 * styles from 'self' only, never inline). Colours keep text at 4.5:1 or better against its
 * background and bar parts at 3:1 or better; state is never told by colour alone (ADR 0803).
 */

export const PORTAL_CSS = `
:root {
  --ink: #111827; --ink-soft: #374151; --muted: #4b5563; --page: #f3f4f6; --card: #ffffff;
  --line: #d1d5db; --accent: #1d4ed8; --accent-ink: #ffffff; --focus: #b45309;
  --used: #1d4ed8; --remaining: #e5e7eb; --remaining-edge: #6b7280; --over: #b91c1c;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  color: var(--ink); background: var(--page); line-height: 1.5;
}
* { box-sizing: border-box; }
body { margin: 0; }
h1, h2, h3 { line-height: 1.25; margin: 0; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.25rem; margin-bottom: .25rem; }
h3 { font-size: 1rem; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip-link { position: absolute; left: .5rem; top: -3rem; background: var(--card); color: var(--accent); padding: .5rem 1rem;
  border: 2px solid var(--accent); z-index: 10; }
.skip-link:focus { top: .5rem; }
.top { background: var(--card); border-bottom: 1px solid var(--line); }
.top-inner, main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
.top-inner { display: flex; align-items: center; justify-content: space-between; gap: 1rem; }
.top form { margin: 0; }
.panel { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; margin-bottom: 1.25rem; }
.hint, .secondary, .empty { color: var(--muted); }
.hint { margin: 0 0 .75rem; font-size: .925rem; }
.secondary { display: block; font-size: .875rem; }
.button, button { font: inherit; cursor: pointer; border-radius: .375rem; border: 2px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); padding: .5rem 1rem; min-height: 2.75rem; text-decoration: none;
  display: inline-flex; align-items: center; justify-content: center; }
.button-quiet { background: var(--card); color: var(--accent); }
button[disabled], button[aria-busy="true"] { cursor: progress; opacity: .85; }
.invoice-form { margin: 0; }
.invoice-button { background: var(--card); color: var(--accent); padding: .25rem .75rem; min-height: 2.75rem; }
.more { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin-top: 1rem; }
.table-wrap { overflow-x: auto; }
table.history { width: 100%; border-collapse: collapse; }
.history th, .history td { text-align: left; padding: .625rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.history th { font-size: .875rem; color: var(--ink-soft); }
.history .amount-cell { text-align: right; }
.amount { font-variant-numeric: tabular-nums; font-weight: 600; display: block; }
.status { display: inline-block; border-radius: 999px; padding: .125rem .625rem; font-size: .875rem; font-weight: 600;
  border: 1px solid currentColor; }
.status-completed { background: #dcfce7; color: #14532d; }
.status-paid { background: #dbeafe; color: #1e3a8a; }
.status-billed { background: #fef3c7; color: #78350f; }
.status-past_due { background: #fee2e2; color: #7f1d1d; }
.status-canceled { background: #f3f4f6; color: #374151; }
.meters { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
.meter { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; }
.meter-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .25rem 1rem; align-items: baseline; }
.meter-figures { margin: 0; font-variant-numeric: tabular-nums; min-width: 0; overflow-wrap: anywhere; }
.meter-head > h3 { min-width: 0; }
.meter-bar { margin: .5rem 0; border: 1px solid var(--remaining-edge); border-radius: .25rem; overflow: hidden; height: 1.5rem; }
.meter-bar svg { display: block; width: 100%; height: 100%; }
.bar-track { fill: var(--remaining); }
.bar-used { fill: var(--used); }
.bar-overage { fill: var(--over); }
.meter-legend { display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; margin: 0; font-size: .925rem; }
.meter-legend div { display: flex; gap: .375rem; align-items: center; }
.meter-legend dt::before { content: ""; display: inline-block; width: .75rem; height: .75rem; margin-right: .375rem;
  border: 1px solid var(--remaining-edge); vertical-align: -.05rem; }
.legend-used dt::before { background: var(--used); }
.legend-remaining dt::before { background: var(--remaining); }
.legend-overage dt::before { background: var(--over); }
.meter-legend dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
.meter-over .legend-overage dd { color: var(--over); }
.meter-over .meter-figures { color: var(--over); font-weight: 600; }
.periods { margin-top: .75rem; }
.periods summary { cursor: pointer; font-weight: 600; color: var(--accent); min-height: 2.75rem; display: flex; align-items: center; }
.period-chart { display: block; width: 100%; max-width: 36rem; height: 7rem; margin: .5rem 0; }
.chart-base { stroke: var(--remaining-edge); stroke-width: 1; }
.chart-allowance { stroke: var(--ink); stroke-width: 2; stroke-dasharray: 6 4; }
.period-table-wrap { overflow-x: auto; }
.period-table { border-collapse: collapse; font-size: .875rem; font-variant-numeric: tabular-nums; }
.period-table th, .period-table td { text-align: right; padding: .25rem .5rem; border-bottom: 1px solid var(--line); }
.period-table th[scope="row"], .period-table thead th:first-child { text-align: left; }
.current-period th, .current-period td { font-weight: 700; }
.notice { background: #dcfce7; color: #14532d; border: 1px solid #14532d; border-radius: .375rem; padding: .5rem .75rem;
  margin: 0 0 1rem; }
.plans { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
.plan { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; }
.plan-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .25rem 1rem; align-items: center; }
.status-plan-active, .status-plan-trialing { background: #dcfce7; color: #14532d; }
.status-plan-paused { background: #f3f4f6; color: #374151; }
.status-plan-past_due { background: #fee2e2; color: #7f1d1d; }
.status-adjustment { background: #f3f4f6; color: #374151; }
.scheduled { margin: .5rem 0 0; font-weight: 600; color: #78350f; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .5rem 1rem; margin: .75rem 0; }
.facts div { margin: 0; }
.facts dt { font-size: .875rem; color: var(--ink-soft); }
.facts dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; }
.inline-form { margin: 0; display: inline; }
.balance-due { margin: 0; display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; font-size: 1.25rem; }
.balance-none { margin: 0; }
.pay-link { padding: .25rem .75rem; margin: 0 .5rem .25rem 0; }
.invoice-cell { white-space: nowrap; }
.details-form .field { margin-bottom: .75rem; }
.details-form label { display: block; font-weight: 600; margin-bottom: .25rem; }
.details-form input, .details-form select { font: inherit; width: 100%; max-width: 32rem; padding: .5rem;
  border: 1px solid var(--remaining-edge); border-radius: .375rem; min-height: 2.75rem; background: var(--card); color: var(--ink); }
.details-form input[aria-invalid="true"] { border: 2px solid #7f1d1d; }
.field-row { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; max-width: 33rem; }
.field-error { color: #7f1d1d; margin: .25rem 0 0; font-weight: 600; }
.subpage { max-width: 40rem; }
.subpage h1 { margin-bottom: 1rem; }
.site-name { margin: 0; font-weight: 700; }
.preview dd { font-size: 1.05rem; }
.statement { padding-left: 1.25rem; }
.statement li { margin: .25rem 0; font-weight: 600; }
.breakdown { width: 100%; border-collapse: collapse; margin: .5rem 0 1rem; }
.breakdown caption { text-align: left; font-weight: 600; padding-bottom: .25rem; }
.breakdown th, .breakdown td { padding: .375rem 0; border-bottom: 1px solid var(--line); vertical-align: top; }
.breakdown th { text-align: left; font-weight: 400; overflow-wrap: anywhere; }
.breakdown td.amount { text-align: right; white-space: nowrap; padding-left: .75rem; font-variant-numeric: tabular-nums; }
.line-period { display: block; font-size: .875rem; color: var(--ink-soft); }
.message { max-width: 36rem; margin: 3rem auto; background: var(--card); padding: 1.5rem; border-radius: .5rem; }
.login { max-width: 24rem; margin: 3rem auto; background: var(--card); padding: 1.5rem; border-radius: .5rem;
  border: 1px solid var(--line); }
.login label { display: block; font-weight: 600; margin-top: 1rem; }
.login input { font: inherit; width: 100%; padding: .5rem; border: 1px solid var(--remaining-edge); border-radius: .375rem;
  min-height: 2.75rem; }
.login button { margin-top: 1.25rem; width: 100%; }
.error { color: #7f1d1d; background: #fee2e2; border: 1px solid #7f1d1d; padding: .5rem .75rem; border-radius: .375rem; }
.seller { display: flex; align-items: center; gap: .5rem; margin: 0; font-weight: 700; min-width: 0; overflow-wrap: anywhere; }
.seller-logo { display: block; height: 2.5rem; width: auto; max-width: 10rem; object-fit: contain; }
.top-inner h1 { margin-right: auto; }
.meter-note { margin: .25rem 0 0; font-size: .925rem; color: var(--ink-soft); }
.card-panel { border-top: 1px solid var(--line); margin-top: 1rem; padding-top: .75rem; }
.card-on-file { margin: .25rem 0 .5rem; font-weight: 600; }
.plan-cards { list-style: none; margin: 0 0 1rem; padding: 0; display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr)); gap: .75rem; }
.plan-card { border: 1px solid var(--remaining-edge); border-radius: .5rem; padding: .75rem; display: flex;
  flex-direction: column; gap: .25rem; min-width: 0; overflow-wrap: anywhere; background: var(--card); }
.plan-card-single { margin-bottom: 1rem; }
.plan-card-name { font-weight: 700; font-size: 1.05rem; }
.plan-card-price { font-weight: 600; font-variant-numeric: tabular-nums; }
.plan-card .allowances { margin: .25rem 0 .5rem; padding-left: 1.25rem; color: var(--ink-soft); font-size: .925rem; }
.plan-card form { margin-top: auto; }
.plan-option { position: relative; padding-left: 2.75rem; }
.plan-option > input[type="radio"] { position: absolute; left: .75rem; top: 1rem; width: 1.25rem; height: 1.25rem; margin: 0;
  min-height: 0; }
.plan-option > label { display: block; font-weight: 700; cursor: pointer; }
.plan-option:has(input:checked) { border: 2px solid var(--accent); }
.badge { display: inline-block; font-size: .8rem; font-weight: 600; border: 1px solid currentColor; border-radius: 999px;
  padding: 0 .5rem; color: #14532d; background: #dcfce7; }
.choices { border: 0; margin: 0 0 1rem; padding: 0; min-width: 0; }
.choices legend { font-weight: 700; margin-bottom: .5rem; padding: 0; }
.choice { display: flex !important; align-items: center; gap: .5rem; min-height: 2.75rem; font-weight: 400 !important; }
.choice input { width: 1.25rem !important; height: 1.25rem; min-height: 0 !important; margin: 0; }
.details-form textarea { font: inherit; width: 100%; max-width: 32rem; padding: .5rem; border: 1px solid var(--remaining-edge);
  border-radius: .375rem; background: var(--card); color: var(--ink); }
.details-form select[aria-invalid="true"] { border: 2px solid #7f1d1d; }
[hidden] { display: none !important; }
@media (max-width: 40rem) {
  .top-inner, main { padding: .75rem; }
  .panel { padding: .75rem; }
  /* Rows become compact two-column cards: what and when on the left, how much and its state on the
     right, the invoice button below only where there is one (30 rows fit in about 3,000 px). */
  .history thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .history, .history tbody { display: block; width: 100%; }
  .history tr { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; align-items: center;
    grid-template-areas: "description description amount" "date status invoice";
    gap: .125rem .5rem; border-bottom: 1px solid var(--line); padding: .375rem 0; }
  .history td { display: block; border: 0; padding: 0; text-align: left; }
  .history .description-cell { grid-area: description; }
  .history .amount-cell { grid-area: amount; text-align: right; }
  .history .date-cell { grid-area: date; color: var(--ink-soft); font-size: .875rem; }
  .history .status-cell { grid-area: status; }
  .history .invoice-cell { grid-area: invoice; justify-self: end; display: flex; gap: .25rem; }
  .history tr.no-actions .invoice-cell { visibility: hidden; }
  .history .invoice-cell:empty { display: none; }
  .history .amount-cell .secondary { font-size: .8rem; white-space: nowrap; }
  .history .amount { white-space: nowrap; }
  .history .description-cell .secondary { display: inline; margin-left: .375rem; }
  /* A status never runs under the buttons beside it: it wraps within its column (ADR 0814), and a
     row with two buttons (pay and invoice) puts them on a line of their own. */
  .history .status-cell { min-width: 0; }
  .status { font-size: .8rem; padding: 0 .5rem; white-space: normal; overflow-wrap: anywhere; max-width: 100%; }
  .history tr:has(.pay-link) { grid-template-areas: "description description amount" "date status status"
    "invoice invoice invoice"; }
  .top-inner { flex-wrap: wrap; }
  .invoice-button, .pay-link { margin: 0; padding: .25rem .5rem; font-size: .875rem; }
}
@media (prefers-reduced-motion: no-preference) { .meter-bar rect { transition: width .3s ease, x .3s ease; } }
`;
