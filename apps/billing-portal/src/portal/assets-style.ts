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
.meters { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem; }
.meter { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; }
.meter-head { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .25rem 1rem; align-items: baseline; }
.meter-figures { margin: 0; font-variant-numeric: tabular-nums; }
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
.meter-over .meter-figures::after { content: " · over allowance"; color: var(--over); font-weight: 600; }
.message { max-width: 36rem; margin: 3rem auto; background: var(--card); padding: 1.5rem; border-radius: .5rem; }
.login { max-width: 24rem; margin: 3rem auto; background: var(--card); padding: 1.5rem; border-radius: .5rem;
  border: 1px solid var(--line); }
.login label { display: block; font-weight: 600; margin-top: 1rem; }
.login input { font: inherit; width: 100%; padding: .5rem; border: 1px solid var(--remaining-edge); border-radius: .375rem;
  min-height: 2.75rem; }
.login button { margin-top: 1.25rem; width: 100%; }
.error { color: #7f1d1d; background: #fee2e2; border: 1px solid #7f1d1d; padding: .5rem .75rem; border-radius: .375rem; }
[hidden] { display: none !important; }
@media (max-width: 40rem) {
  .top-inner, main { padding: .75rem; }
  .history thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .history, .history tbody, .history tr, .history td { display: block; width: 100%; }
  .history tr { border: 1px solid var(--line); border-radius: .5rem; margin-bottom: .75rem; padding: .25rem .5rem; }
  .history td { border: 0; display: flex; justify-content: space-between; gap: 1rem; text-align: right; padding: .375rem 0; }
  .history td::before { content: attr(data-label); font-weight: 600; color: var(--ink-soft); text-align: left; }
  .history td::before { flex: none; }
  .history td > .value, .history td > form { text-align: right; }
  .history .amount-cell { text-align: right; }
}
@media (prefers-reduced-motion: no-preference) { .meter-bar rect { transition: width .3s ease, x .3s ease; } }
`;
