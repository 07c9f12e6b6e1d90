#!/usr/bin/env node
/**
 * Renders the sample invoices shown in the README and docs (ADRs 1106, 1110), each a PDF made by
 * the service's own renderer, then a PNG by `pdftoppm` (Debian's poppler-utils):
 *
 * - `sample-invoice`: a manual invoice from a UK seller with its logo to a business buyer, with a
 *   discount, VAT and the seller's bank details (how to pay by transfer);
 * - `invoice-usd-uk-seller`: a UK seller's invoice in US dollars, its VAT also stated in sterling
 *   at the seller's dated reference rate;
 * - `invoice-german-one-off`: a German one-off invoice with its date of supply;
 * - `invoice-japanese`: a Japanese invoice with consumption tax and the invoice registration number.
 *
 * Needs a build (`npm run build`) and pdftoppm:
 *
 *   node scripts/render-sample-invoice.mjs docs/images
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function item(
  name,
  description,
  amount,
  quantity,
  currencyCode = 'GBP',
  billingCycle = { interval: 'month', frequency: 1 },
) {
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
    billingCycle,
    trialPeriod: null,
    taxMode: 'account_setting',
    unitPrice: { amount, currencyCode },
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
const sampleInvoice = { ...built, status: 'billed', billedAt: NOW, invoiceNumber: '2026-00042' };

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
  paymentInstructions: {
    accountName: 'Analytical Engines Ltd',
    iban: 'GB82WEST12345698765432',
    bic: 'NWBKGB2L',
    accountNumber: '98765432',
    sortCode: '12-34-56',
    text: 'Please quote the invoice number as the payment reference.',
  },
  taxCurrency: 'GBP',
  referenceRates: [{ currencyCode: 'USD', rate: '0.7931', date: '2026-03-13', source: 'Bank of England' }],
  updatedAt: NOW,
};

/** A billed manual invoice of these items, taxed at `rate` in the address's country. */
function billedInvoice({ items, buyer, place, rate, number, billingPeriod = null }) {
  const built = buildTransaction(
    { items, customer: buyer, address: place, collectionMode: 'manual', origin: 'api', billingPeriod },
    {
      ids,
      now: NOW,
      taxSettings: { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: place.countryCode, rate }] },
    },
  );
  return { ...built, status: 'billed', billedAt: NOW, invoiceNumber: number };
}

const usdInvoice = billedInvoice({
  items: [item('Analytics', 'Team seat, monthly', '4900', 10, 'USD')],
  buyer: customer,
  place: address,
  rate: '0.2',
  number: '2026-00043',
  billingPeriod: { startsAt: NOW, endsAt: '2026-04-14T09:30:00.000Z' },
});

const german = { ...customer, id: 'ctm_01jq3v7k2m8x4n6p9r2t5w8y3a', name: 'Erika Mustermann', locale: 'de-DE' };
const munich = {
  ...address,
  id: 'add_01jq3v7k2m8x4n6p9r2t5w8y3b',
  customerId: german.id,
  firstLine: 'Hauptstraße 5',
  city: 'München',
  postalCode: '80331',
  countryCode: 'DE',
};
const berlinSeller = {
  ...seller,
  legalName: 'Analytische Maschinen GmbH',
  address: {
    firstLine: 'Friedrichstraße 10',
    secondLine: null,
    city: 'Berlin',
    postalCode: '10117',
    region: null,
    countryCode: 'DE',
  },
  taxIdentifier: 'DE123456789',
  companyNumber: 'HRB 987654',
  email: 'rechnung@analytische-maschinen.example',
  paymentInstructions: {
    accountName: 'Analytische Maschinen GmbH',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    accountNumber: null,
    sortCode: null,
    text: null,
  },
  taxCurrency: 'EUR',
  referenceRates: [],
};
const germanOneOff = billedInvoice({
  items: [item('Einrichtung', 'Einmalig', '150000', 1, 'EUR', null)],
  buyer: german,
  place: munich,
  rate: '0.19',
  number: '2026-00044',
});

const japanese = { ...customer, id: 'ctm_01jq3v7k2m8x4n6p9r2t5w8y4a', name: '山田太郎', locale: 'ja-JP' };
const tokyo = {
  ...address,
  id: 'add_01jq3v7k2m8x4n6p9r2t5w8y4b',
  customerId: japanese.id,
  firstLine: '千代田1-1',
  city: '千代田区',
  region: '東京都',
  postalCode: '100-0001',
  countryCode: 'JP',
};
const tokyoSeller = {
  ...seller,
  legalName: '分析エンジン株式会社',
  address: {
    firstLine: '丸の内2-7-2',
    secondLine: null,
    city: '千代田区',
    postalCode: '100-7090',
    region: '東京都',
    countryCode: 'JP',
  },
  taxIdentifier: 'T1234567890123',
  companyNumber: '0100-01-123456',
  email: 'billing@bunseki.example',
  paymentInstructions: null,
  taxCurrency: 'JPY',
  referenceRates: [],
};
const japaneseInvoice = billedInvoice({
  items: [item('分析プラン', '月額', '12000', 1, 'JPY')],
  buyer: japanese,
  place: tokyo,
  rate: '0.1',
  number: '2026-00045',
  billingPeriod: { startsAt: NOW, endsAt: '2026-04-14T09:30:00.000Z' },
});

const samples = [
  ['sample-invoice', sampleInvoice, { account, customer, address, business, seller }],
  ['invoice-usd-uk-seller', usdInvoice, { account, customer, address, seller }],
  ['invoice-german-one-off', germanOneOff, { account, customer: german, address: munich, seller: berlinSeller }],
  ['invoice-japanese', japaneseInvoice, { account, customer: japanese, address: tokyo, seller: tokyoSeller }],
];
const out = process.argv[2] ?? '.';
const work = mkdtempSync(join(tmpdir(), 'drawdown-invoices-'));
try {
  for (const [name, transaction, parties] of samples) {
    const pdfPath = join(work, `${name}.pdf`);
    writeFileSync(pdfPath, await renderInvoicePdf(buildInvoiceDocument(transaction, parties)));
    const made = spawnSync('pdftoppm', ['-png', '-r', '80', '-singlefile', pdfPath, join(out, name)], {
      stdio: 'inherit',
    });
    if (made.error || made.status !== 0) throw new Error(`pdftoppm failed for ${name}: install poppler-utils`);
    process.stdout.write(`${join(out, `${name}.png`)}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
