/**
 * @module
 * The page script: dependency-free, served from the portal's own path (the Content-Security-Policy
 * allows scripts from 'self' only). It enhances the server-rendered page: "load more" appends the
 * next 30 rows, an invoice button fetches its link only when pressed and then downloads the PDF,
 * dates are shown in the viewer's time zone, and the usage bars refresh every few seconds, when
 * the tab comes back into view and when the window regains focus. Every change is announced in
 * the page's live region. Text reaches the DOM only through `textContent` (ADR 0803).
 */

export const PORTAL_SCRIPT = String.raw`(function () {
  'use strict';
  var root = document.getElementById('portal');
  if (!root) return;
  var base = root.getAttribute('data-base') || '';
  var locale = root.getAttribute('data-locale') || 'en-US';
  var csrf = root.getAttribute('data-csrf') || '';
  var pollMs = Math.max(1000, Number(root.getAttribute('data-poll-ms')) || 5000);
  var statusRegion = document.getElementById('portal-status');
  // The page's text in the viewer's language, from the server (ADR 1441).
  var messages = {};
  try { messages = JSON.parse(root.getAttribute('data-messages') || '{}') || {}; } catch (error) { messages = {}; }
  function t(key, values) {
    var text = typeof messages[key] === 'string' ? messages[key] : key;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && values[name] !== undefined ? String(values[name]) : whole;
    });
  }
  var BAR = 10000;

  function announce(message) {
    if (!statusRegion) return;
    statusRegion.textContent = '';
    window.setTimeout(function () { statusRegion.textContent = message; }, 60);
  }

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function svgEl(tag, attributes) {
    var node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    return node;
  }

  async function readJson(response) {
    try { return await response.json(); } catch (error) { return null; }
  }

  function failureText(body, fallback) {
    return body && body.error && body.error.detail ? body.error.detail : fallback;
  }

  // Dates: the server writes them in UTC; show them in the viewer's own time zone.
  var dateFormat;
  try { dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }); } catch (error) { dateFormat = null; }
  function localiseDates(scope) {
    if (!dateFormat) return;
    scope.querySelectorAll('time[datetime]').forEach(function (time) {
      var date = new Date(time.getAttribute('datetime'));
      if (!isNaN(date.getTime())) time.textContent = dateFormat.format(date);
    });
  }
  localiseDates(root);

  // History rows loaded later get the server's markup.
  function invoiceCell(row) {
    var cell = [];
    if (row.payUrl) {
      cell.push(el('a', { class: 'button pay-link', href: row.payUrl, 'aria-label': t('payNow') + ', ' + t('payLabel', { total: row.total, date: row.dateText }) }, [t('payNow')]));
    }
    if (!row.hasInvoice) {
      if (cell.length === 0) cell.push(el('span', { class: 'secondary', 'aria-hidden': 'true' }, ['\u2014']), el('span', { class: 'visually-hidden' }, [t('noInvoice')]));
      return cell;
    }
    cell.push(el('form', { class: 'invoice-form', method: 'post', action: base + '/transactions/' + encodeURIComponent(row.id) + '/invoice', 'data-transaction-id': row.id }, [
      el('input', { type: 'hidden', name: 'csrf_token', value: csrf }),
      el('button', { type: 'submit', class: 'invoice-button', 'aria-label': t('downloadPdf') + ', ' + t('downloadPdfLabel', { date: row.dateText, total: row.total }) }, [t('downloadPdf')])
    ]));
    return cell;
  }

  function historyRow(row) {
    var description = [el('span', {}, [row.description])];
    if (row.invoiceNumber) description.push(el('span', { class: 'secondary' }, [t('invoiceNumber', { number: row.invoiceNumber })]));
    var attributes = { role: 'row', 'data-transaction-id': row.id, 'data-status': row.status, 'data-currency': row.currencyCode };
    if (!row.hasInvoice && !row.payUrl) attributes.class = 'no-actions';
    return el('tr', attributes, [
      el('td', { role: 'cell', 'data-label': t('colDate'), class: 'date-cell' }, [el('time', { datetime: row.date }, [row.dateText])]),
      el('td', { role: 'cell', 'data-label': t('colDescription'), class: 'description-cell' }, [el('div', { class: 'value' }, description)]),
      el('td', { role: 'cell', 'data-label': t('colStatus'), class: 'status-cell' }, [el('span', { class: 'status status-' + row.status }, [row.statusLabel])]),
      el('td', { role: 'cell', 'data-label': t('colAmount'), class: 'amount-cell' }, [el('div', { class: 'value' }, [
        el('span', { class: 'amount', lang: locale }, [row.total]),
        el('span', { class: 'secondary' }, [t('inclTax') + ' ', el('span', { lang: locale }, [row.tax])])
      ])]),
      el('td', { role: 'cell', 'data-label': t('colInvoice'), class: 'invoice-cell' }, invoiceCell(row))
    ]);
  }

  var more = document.getElementById('load-more');
  var rowsBody = document.getElementById('history-rows');
  if (more && rowsBody) {
    more.setAttribute('role', 'button');
    more.addEventListener('keydown', function (event) {
      if (event.key === ' ') { event.preventDefault(); more.click(); }
    });
    more.addEventListener('click', async function (event) {
      event.preventDefault();
      var next = more.getAttribute('data-next');
      if (!next || more.getAttribute('aria-busy') === 'true') return;
      more.setAttribute('aria-busy', 'true');
      more.textContent = t('loading');
      try {
        var response = await fetch(base + '/api/transactions?after=' + encodeURIComponent(next), {
          headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store'
        });
        var body = await readJson(response);
        if (!response.ok || !body) throw new Error(failureText(body, t('loadFailed')));
        var first = null;
        body.data.forEach(function (row) {
          var node = historyRow(row);
          if (!first) first = node;
          rowsBody.appendChild(node);
        });
        localiseDates(rowsBody);
        if (body.hasMore && body.next) {
          more.setAttribute('data-next', body.next);
          more.setAttribute('href', base + '/?after=' + encodeURIComponent(body.next));
          more.textContent = t('loadMore');
          announce(t('loadedMore', { count: body.data.length }));
        } else {
          more.remove();
          more = null;
          announce(t('loadedAll', { count: body.data.length }));
        }
        // Keep keyboard users where the new rows start.
        var target = first && first.querySelector('button, time');
        if (target && target.tagName === 'TIME') { target.setAttribute('tabindex', '-1'); }
        if (target) target.focus();
      } catch (error) {
        if (more) more.textContent = t('loadMore');
        announce(error.message || t('loadFailed'));
      } finally {
        if (more) more.removeAttribute('aria-busy');
      }
    });
  }

  // Invoices: the link costs a call and expires in an hour, so it is fetched only on a press.
  document.addEventListener('submit', async function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    var creditNote = form.classList.contains('credit-note-form');
    if (!creditNote && !form.classList.contains('invoice-form')) return;
    event.preventDefault();
    var button = form.querySelector('button');
    if (!button || button.getAttribute('aria-busy') === 'true') return;
    var id = form.getAttribute(creditNote ? 'data-adjustment-id' : 'data-transaction-id');
    var endpoint = creditNote
      ? base + '/api/adjustments/' + encodeURIComponent(id) + '/credit-note'
      : base + '/api/transactions/' + encodeURIComponent(id) + '/invoice';
    button.setAttribute('aria-busy', 'true');
    var label = button.textContent;
    button.textContent = t('preparing');
    announce(t('preparingInvoice'));
    try {
      var response = await fetch(endpoint, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'x-csrf-token': csrf },
        credentials: 'same-origin',
        body: JSON.stringify({ disposition: 'attachment' })
      });
      var body = await readJson(response);
      if (!response.ok || !body || !body.data || !body.data.url) throw new Error(failureText(body, t('invoiceUnavailable')));
      announce(t('invoiceStarted'));
      window.location.assign(body.data.url);
    } catch (error) {
      announce(error.message || t('invoiceUnavailable'));
    } finally {
      button.textContent = label;
      button.removeAttribute('aria-busy');
    }
  });

  // Usage: refreshed without a reload.
  var usageList = document.getElementById('usage-list');
  var usageEmpty = document.getElementById('usage-empty');
  function widths(view) {
    var used = Math.round(view.usedShare * BAR / 10000);
    var remaining = Math.round(view.remainingShare * BAR / 10000);
    var overage = view.overage !== '0' ? Math.max(0, BAR - used - remaining) : 0;
    return { used: used, overage: overage };
  }
  function figures(view) {
    return view.figures;
  }
  function meterNode(view) {
    var id = view.balanceId;
    var w = widths(view);
    var svg = svgEl('svg', { viewBox: '0 0 ' + BAR + ' 24', preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' });
    svg.appendChild(svgEl('rect', { class: 'bar-track', x: '0', y: '0', width: String(BAR), height: '24' }));
    svg.appendChild(svgEl('rect', { class: 'bar-used', 'data-part': 'used-bar', x: '0', y: '0', width: String(w.used), height: '24' }));
    svg.appendChild(svgEl('rect', { class: 'bar-overage', 'data-part': 'overage-bar', x: String(BAR - w.overage), y: '0', width: String(w.overage), height: '24' }));
    function legend(kind, term, value) {
      return el('div', { class: 'legend-' + kind }, [el('dt', {}, [term]), el('dd', { 'data-part': kind }, [value])]);
    }
    return el('li', { class: 'meter' + (view.overage !== '0' ? ' meter-over' : ''), 'data-balance-id': id, 'data-unit-id': view.unitId }, [
      el('div', { class: 'meter-head' }, [
        el('h3', { id: 'meter-' + id + '-name' }, [view.name]),
        el('p', { class: 'meter-figures', 'data-part': 'figures' }, [figures(view)])
      ]),
      el('div', { class: 'meter-bar', role: 'meter', 'aria-labelledby': 'meter-' + id + '-name', 'aria-valuemin': '0',
        'aria-valuemax': view.allowance, 'aria-valuenow': view.used, 'aria-valuetext': view.summary }, [svg]),
      el('dl', { class: 'meter-legend' }, [
        legend('used', t('legendUsed'), view.usedText), legend('remaining', t('legendLeft'), view.remainingText), legend('overage', t('legendOver'), view.overageText)
      ])
    ]);
  }
  function updateMeter(node, view) {
    var bar = node.querySelector('[role="meter"]');
    if (bar.getAttribute('aria-valuetext') === view.summary && bar.getAttribute('aria-valuemax') === view.allowance) return false;
    var w = widths(view);
    bar.setAttribute('aria-valuemax', view.allowance);
    bar.setAttribute('aria-valuenow', view.used);
    bar.setAttribute('aria-valuetext', view.summary);
    node.querySelector('[data-part="used-bar"]').setAttribute('width', String(w.used));
    var over = node.querySelector('[data-part="overage-bar"]');
    over.setAttribute('x', String(BAR - w.overage));
    over.setAttribute('width', String(w.overage));
    node.querySelector('[data-part="figures"]').textContent = figures(view);
    node.querySelector('[data-part="used"]').textContent = view.usedText;
    node.querySelector('[data-part="remaining"]').textContent = view.remainingText;
    node.querySelector('[data-part="overage"]').textContent = view.overageText;
    node.classList.toggle('meter-over', view.overage !== '0');
    return true;
  }

  var refreshing = false;
  var timer = null;
  async function refreshUsage() {
    if (!usageList || refreshing || document.visibilityState === 'hidden') return;
    refreshing = true;
    try {
      var response = await fetch(base + '/api/usage', { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok) return;
      var body = await readJson(response);
      if (!body || !Array.isArray(body.data)) return;
      var changed = [];
      var seen = {};
      body.data.forEach(function (view) {
        seen[view.balanceId] = true;
        var node = usageList.querySelector('[data-balance-id="' + CSS.escape(view.balanceId) + '"]');
        if (!node) { usageList.appendChild(meterNode(view)); changed.push(view); }
        else if (updateMeter(node, view)) changed.push(view);
      });
      usageList.querySelectorAll('[data-balance-id]').forEach(function (node) {
        if (!seen[node.getAttribute('data-balance-id')]) node.remove();
      });
      usageList.hidden = body.data.length === 0;
      if (usageEmpty) usageEmpty.hidden = body.data.length > 0;
      if (changed.length > 0) {
        announce(t('usageUpdated', { list: changed.map(function (view) { return view.name + ', ' + view.summary; }).join('; ') }));
      }
    } catch (error) {
      // A failed refresh keeps the last figures; the next one tries again.
    } finally {
      refreshing = false;
    }
  }
  function schedule() {
    if (timer !== null) window.clearInterval(timer);
    timer = window.setInterval(refreshUsage, pollMs);
  }
  if (usageList) {
    schedule();
    document.addEventListener('visibilitychange', function () { if (document.visibilityState === 'visible') refreshUsage(); });
    window.addEventListener('focus', refreshUsage);
  }
})();
`;
