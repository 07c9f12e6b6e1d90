#!/usr/bin/env node
/**
 * Renders the sample invoice shown in the README: a billed invoice from a seller with its
 * details and logo (ADR 1106) to a business buyer, with a discount, tax and payment instructions. Needs a build (`npm run build`); writes the PDF, then
 * `pdftoppm` (poppler-utils) makes the PNG:
 *
 *   node scripts/render-sample-invoice.mjs docs/images/sample-invoice.pdf
 *   pdftoppm -png -r 80 -singlefile docs/images/sample-invoice.pdf docs/images/sample-invoice
 */
import { writeFileSync } from 'node:fs';
import { buildInvoiceDocument, buildTransaction, DEFAULT_TAX_SETTINGS } from '@drawdown/billing-core';
import { PNG } from 'pngjs';
import { renderInvoicePdf } from '../apps/billing-service/dist/rendering/invoice-pdf.js';

const NOW = '2026-03-14T09:30:00.000Z';
let next = 0;
const ids = {
  newId(prefix) {
    next += 1;
    return `${prefix}_${String(next).padStart(26, '0')}`;
  },
};
const base = { customData: null, status: 'active', createdAt: NOW, updatedAt: NOW };

const account = {
  id: 'acc_01jq3v7k2m8x4n6p9r2t5w8y1z',
  name: 'Analytical Engines Ltd',
  earlyAccess: false,
  createdAt: NOW,
};
const customer = {
  ...base,
  id: 'ctm_01jq3v7k2m8x4n6p9r2t5w8y2a',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  marketingConsent: false,
  locale: 'en-GB',
};
const address = {
  ...base,
  id: 'add_01jq3v7k2m8x4n6p9r2t5w8y2b',
  customerId: customer.id,
  description: null,
  firstLine: '12 St James’s Square',
  secondLine: null,
  city: 'London',
  postalCode: 'SW1Y 4JH',
  region: null,
  countryCode: 'GB',
};
const business = {
  ...base,
  id: 'biz_01jq3v7k2m8x4n6p9r2t5w8y2c',
  customerId: customer.id,
  name: 'Difference Engines plc',
  companyNumber: '01234567',
  taxIdentifier: 'GB123456789',
  contacts: [],
  importMeta: null,
};

function item(name, description, amount, quantity) {
  const product = {
    ...base,
    id: ids.newId('pro'),
    name,
    description: null,
    type: 'standard',
    taxCategory: 'saas',
    imageUrl: null,
  };
  const price = {
    ...base,
    id: ids.newId('pri'),
    productId: product.id,
    name: null,
    description,
    type: 'standard',
    billingCycle: { interval: 'month', frequency: 1 },
    trialPeriod: null,
    taxMode: 'account_setting',
    unitPrice: { amount, currencyCode: 'GBP' },
    unitPriceOverrides: [],
    quantity: { minimum: 1, maximum: 1000 },
    allowances: [],
  };
  return { product, price, quantity };
}

const built = buildTransaction(
  {
    items: [item('Analytics', 'Team seat, monthly', '4900', 12), item('Priority support', 'Monthly', '25000', 1)],
    customer,
    address,
    business,
    collectionMode: 'manual',
    origin: 'api',
    billingPeriod: { startsAt: NOW, endsAt: '2026-04-14T09:30:00.000Z' },
    discount: {
      id: 'dsc_01jq3v7k2m8x4n6p9r2t5w8y2d',
      type: 'percentage',
      amount: '10',
      currencyCode: null,
      restrictTo: null,
    },
  },
  { ids, now: NOW, taxSettings: { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: 'GB', rate: '0.2' }] } },
);
const transaction = { ...built, status: 'billed', billedAt: NOW, invoiceNumber: '2026-00042' };

/** A small drawn logo: three rising bars and a baseline, 300 × 100 pixels. */
function logoPng() {
  const width = 300;
  const height = 100;
  const png = new PNG({ width, height });
  const bars = [
    { x: 20, top: 60, colour: [31, 119, 180] },
    { x: 70, top: 38, colour: [44, 160, 120] },
    { x: 120, top: 14, colour: [240, 140, 30] },
  ];
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const bar = bars.find((candidate) => x >= candidate.x && x < candidate.x + 40 && y >= candidate.top && y < 88);
      const baseline = y >= 90 && y < 94 && x >= 10 && x < 290;
      const [r, g, b] = bar ? bar.colour : baseline ? [60, 60, 60] : [255, 255, 255];
      png.data[at] = r;
      png.data[at + 1] = g;
      png.data[at + 2] = b;
      png.data[at + 3] = bar || baseline ? 255 : 0;
    }
  }
  return PNG.sync.write(png);
}
const logo = logoPng();
const seller = {
  id: 'seller',
  legalName: 'Analytical Engines Ltd',
  address: {
    firstLine: '1 Babbage Yard',
    secondLine: null,
    city: 'Cambridge',
    postalCode: 'CB2 1TN',
    region: null,
    countryCode: 'GB',
  },
  taxIdentifier: 'GB987654321',
  companyNumber: '09876543',
  email: 'billing@analytical-engines.example',
  logo: { contentType: 'image/png', width: 300, height: 100, sizeBytes: logo.length, data: logo.toString('base64') },
  updatedAt: NOW,
};
const pdf = await renderInvoicePdf(buildInvoiceDocument(transaction, { account, customer, address, business, seller }));
writeFileSync(process.argv[2] ?? 'sample-invoice.pdf', pdf);
