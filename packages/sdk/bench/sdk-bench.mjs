// Micro-benchmarks of the SDK's local work (no network): amount formatting with and without the
// formatter cache, webhook verification, and event parsing. Reports operations per second and the
// ratios that matter; absolute figures swing with machine load. Run after `npm run build`.
import { clearFormatterCache, formatAmount, parseEvent, signWebhookPayload, verifyWebhook } from '../dist/index.js';

function measure(name, operation, minimumMs = 1_000) {
  for (let index = 0; index < 200; index += 1) operation(index);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < minimumMs) {
    for (let index = 0; index < 100; index += 1) operation(count + index);
    count += 100;
  }
  const perSecond = Math.round((count / (performance.now() - start)) * 1000);
  console.log(`${name.padEnd(52)} ${perSecond.toLocaleString('en-US').padStart(12)} ops/s`);
  return perSecond;
}

async function measureAsync(name, operation, minimumMs = 1_000) {
  for (let index = 0; index < 50; index += 1) await operation(index);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < minimumMs) {
    await operation(count);
    count += 1;
  }
  const perSecond = Math.round((count / (performance.now() - start)) * 1000);
  console.log(`${name.padEnd(52)} ${perSecond.toLocaleString('en-US').padStart(12)} ops/s`);
  return perSecond;
}

const locales = ['en-US', 'de-DE', 'fr-CH;q=0.9, en;q=0.5', 'ja-JP', 'ar-EG'];
const cached = measure('formatAmount, cached formatters', (index) =>
  formatAmount(String(123_456_789 + index), 'EUR', locales[index % locales.length]),
);
const huge = measure('formatAmount, 40-digit amounts, cached', (index) =>
  formatAmount(`1234567890123456789012345678901234567${index % 1000}`, 'USD', locales[index % locales.length]),
);
const uncached = measure('formatAmount, cache cleared before each call', (index) => {
  clearFormatterCache();
  formatAmount(String(123_456_789 + index), 'EUR', locales[index % locales.length]);
});
const intlPerCall = measure('Intl.NumberFormat built per call (inexact Number)', (index) =>
  new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format((123_456_789 + index) / 100),
);

const secret = 'pdl_ntfset_01hv8x2acma2bq5h3wfeknfbxe_3t9nFvDdLk0CfRq3e0m2sQkP8qW5uZ1A';
const body = JSON.stringify({
  event_id: 'evt_01hv8x2acma2bq5h3wfeknfbxe',
  event_type: 'usage_balance.depleted',
  occurred_at: '2026-05-01T10:00:00.000Z',
  data: { id: 'ubl_1', customer_id: 'ctm_1', usage_balance_unit_id: 'ubu_1', balance: { remaining: { total: '0' } } },
});
const header = await signWebhookPayload(body, secret);
const verify = await measureAsync('verifyWebhook (Web Crypto HMAC-SHA256)', () =>
  verifyWebhook(body, secret, header, { toleranceSeconds: 3_600 }),
);
const parse = measure('parseEvent', () => parseEvent(body));

console.log('');
console.log(`cached / uncached formatAmount: ${(cached / uncached).toFixed(1)}x`);
console.log(`cached formatAmount / Intl built per call: ${(cached / intlPerCall).toFixed(1)}x`);
console.log(`40-digit / 9-digit amounts: ${(huge / cached).toFixed(2)}x`);
console.log(`verify / parse: ${(verify / parse).toFixed(3)}x`);
