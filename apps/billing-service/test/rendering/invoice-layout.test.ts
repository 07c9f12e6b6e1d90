/**
 * The invoice layout, checked on the text a PDF reader extracts (PDF.js), not only that a PDF
 * came out: every supported language's labels and a Japanese name and yen amount render (the
 * Noto Sans JP subset), a huge amount stays whole on its line, a very long product name wraps
 * without pushing amounts apart, and a 200-line invoice keeps every line and its totals.
 */
import {
  type Account,
  type Address,
  buildInvoiceDocument,
  buildTransaction,
  type Customer,
  DEFAULT_TAX_SETTINGS,
  INVOICE_LABELS,
  type InvoiceLanguage,
  type Price,
  type Product,
  type SellerDetails,
  type Transaction,
} from '@drawdown/billing-core';
import { expectEvery } from '@drawdown/testkit';
import { describe, expect, it } from 'vitest';
import { renderInvoicePdf } from '../../src/rendering/invoice-pdf.js';
import { LOGO_PNG_BASE64 } from '../support/images.js';
import { pdfStructure, pdfText, rolesOf } from '../transactions/pdf-text.js';

const NOW = '2026-03-14T09:30:00.000Z';
let counter = 0;
/** A fresh 26-digit id body each call. */
function nextBody(): string {
  counter += 1;
  return String(counter).padStart(26, '0');
}
const ids = { newId: (prefix: string) => `${prefix}_${nextBody()}` };

const account: Account = {
  id: 'acc_00000000000000000000000001',
  name: 'Analytical Engines Ltd',
  earlyAccess: false,
  createdAt: NOW,
};

function customerOf(locale: string, name: string): Customer {
  return {
    id: 'ctm_00000000000000000000000001',
    name,
    email: 'buyer@example.com',
    marketingConsent: false,
    locale,
    customData: null,
    importMeta: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  };
}

const address: Address = {
  id: 'add_00000000000000000000000001',
  customerId: 'ctm_00000000000000000000000001',
  description: null,
  firstLine: '1 Analytical Way',
  secondLine: null,
  city: 'Tokyo',
  postalCode: '100-0001',
  region: null,
  countryCode: 'JP',
  customData: null,
  importMeta: null,
  status: 'active',
  createdAt: NOW,
  updatedAt: NOW,
};

function productOf(name: string): Product {
  return {
    id: `pro_${nextBody()}`,
    name,
    description: null,
    type: 'standard',
    taxCategory: 'saas',
    imageUrl: null,
    customData: null,
    importMeta: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  };
}

function priceOf(product: Product, amount: string, currencyCode: string): Price {
  return {
    id: `pri_${nextBody()}`,
    productId: product.id,
    name: null,
    description: 'Monthly',
    type: 'standard',
    billingCycle: null,
    trialPeriod: null,
    taxMode: 'account_setting',
    unitPrice: { amount, currencyCode },
    unitPriceOverrides: [],
    quantity: { minimum: 1, maximum: 999_999 },
    allowances: [],
    customData: null,
    importMeta: null,
    status: 'active',
    createdAt: NOW,
    updatedAt: NOW,
  };
}

function billed(
  lines: { name: string; amount: string; quantity: number }[],
  currency: string,
  customer: Customer,
): Transaction {
  const built = buildTransaction(
    {
      items: lines.map((line) => {
        const product = productOf(line.name);
        return { product, price: priceOf(product, line.amount, currency), quantity: line.quantity };
      }),
      customer,
      address,
      collectionMode: 'manual',
      origin: 'api',
    },
    { ids, now: NOW, taxSettings: { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: 'JP', rate: '0.1' }] } },
  );
  return { ...built, status: 'billed', billedAt: NOW, invoiceNumber: '2026-00077' };
}

async function rendered(transaction: Transaction, customer: Customer): Promise<{ pages: number; text: string }> {
  const pdf = await renderInvoicePdf(buildInvoiceDocument(transaction, { account, customer, address }));
  return pdfText(new Uint8Array(pdf));
}

describe('invoice layout', () => {
  const languages: [InvoiceLanguage, string][] = [
    ['en', 'en-GB'],
    ['de', 'de-DE'],
    ['fr', 'fr-FR'],
    ['es', 'es-ES'],
    ['ja', 'ja-JP'],
  ];
  for (const [language, locale] of languages) {
    it(`prints the labels of ${locale}`, async () => {
      const customer = customerOf(locale, language === 'ja' ? '山田太郎' : 'Ada Lovelace');
      const { text } = await rendered(
        billed([{ name: 'Analytics', amount: '2500', quantity: 2 }], 'EUR', customer),
        customer,
      );
      const labels = INVOICE_LABELS[language];
      // Party headings are set in capitals.
      for (const label of [
        labels.invoice,
        labels.invoiceNumber,
        labels.billTo.toLocaleUpperCase(locale),
        labels.subtotal,
        labels.amountDue,
        labels.unitPrice,
      ]) {
        expect(text, `${locale}: ${label}`).toContain(label);
      }
    });
  }

  it('draws a Japanese name and a yen amount', async () => {
    const customer = customerOf('ja-JP', '山田太郎');
    const { text } = await rendered(
      billed([{ name: '分析プラン', amount: '12345', quantity: 1 }], 'JPY', customer),
      customer,
    );
    expect(text).toContain('山田太郎');
    expect(text).toContain('分析プラン');
    expect(text).toContain('￥12,345');
    expect(text).toContain('請求書');
  });

  it('keeps a huge amount whole on its line and wraps a long name', async () => {
    const customer = customerOf('en-US', 'Ada Lovelace');
    const longName = `Enterprise analytics ${'with every optional module '.repeat(8)}`.trim();
    const { text } = await rendered(
      billed([{ name: longName, amount: '1234567890', quantity: 999 }], 'USD', customer),
      customer,
    );
    // 999 × $12,345,678.90, taxed at 10%: each amount must come out of the reader in one piece.
    expect(text).toContain('$12,345,678.90');
    expect(text).toContain('$12,333,333,221.10');
    expect(text).toContain('$13,566,666,543.21');
    expect(text).toContain('with every optional module');
  });

  it('lays out a 200-line invoice over several pages with every line and the totals', async () => {
    const customer = customerOf('en-GB', 'Ada Lovelace');
    const lines = Array.from({ length: 200 }, (_, index) => ({
      name: `Line item ${index + 1}`,
      amount: '100',
      quantity: 1,
    }));
    const { pages, text } = await rendered(billed(lines, 'GBP', customer), customer);
    expect(pages).toBeGreaterThan(3);
    for (const index of [1, 57, 120, 199, 200]) expect(text).toContain(`Line item ${index} `);
    // 200 × £1.00 plus 10% tax.
    expect(text).toContain('£200.00');
    expect(text).toContain('£220.00');
  });

  const seller: SellerDetails = {
    id: 'seller',
    legalName: 'Analytical Engines Ltd',
    address: {
      firstLine: '12 St James’s Square',
      secondLine: null,
      city: 'London',
      postalCode: 'SW1Y 4JH',
      region: null,
      countryCode: 'GB',
    },
    taxIdentifier: 'GB123456789',
    companyNumber: '01234567',
    email: 'billing@engines.example',
    logo: { contentType: 'image/png', width: 240, height: 80, sizeBytes: 1, data: LOGO_PNG_BASE64 },
    paymentInstructions: null,
    taxCurrency: null,
    referenceRates: [],
    termsUrl: null,
    privacyUrl: null,
    refundPolicyUrl: null,
    contactUrl: null,
    updatedAt: NOW,
  };

  for (const [language, locale] of languages) {
    it(`prints the seller's details and tags the document in ${locale}`, async () => {
      const customer = customerOf(locale, language === 'ja' ? '山田太郎' : 'Ada Lovelace');
      const transaction = billed([{ name: 'Analytics', amount: '2500', quantity: 2 }], 'EUR', customer);
      const pdf = new Uint8Array(
        await renderInvoicePdf(buildInvoiceDocument(transaction, { account, customer, address, seller })),
      );
      const { text } = await pdfText(pdf);
      const labels = INVOICE_LABELS[language];
      // A British address as the Royal Mail writes it, the country named in the document's language.
      const unitedKingdom = new Intl.DisplayNames([locale], { type: 'region' }).of('GB') ?? 'GB';
      for (const expected of [
        'Analytical Engines Ltd',
        '12 St James’s Square',
        'London',
        'SW1Y 4JH',
        unitedKingdom,
        `${labels.vatNumber} GB123456789`,
        `${labels.companyNumber} 01234567`,
        `${labels.email} billing@engines.example`,
      ]) {
        expect(text, `${locale}: ${expected}`).toContain(expected);
      }
      expect(text).not.toContain('Account acc_');

      const structure = await pdfStructure(pdf);
      expect(structure.marked).toBe(true);
      expect(structure.info.Language).toBe(locale);
      expect(structure.info.Title).toBe(`${labels.invoice} 2026-00077`);
      expect(structure.metadataXml).toContain('<pdfuaid:part>1</pdfuaid:part>');
      const tree = structure.trees[0] ?? null;
      const roles = rolesOf(tree);
      // Reading order: the logo, the title, the facts, seller then buyer, the lines, the summary.
      expect(roles.slice(0, 4)).toEqual(['Root', 'Document', 'Figure', 'H1']);
      expect(roles.filter((role) => role === 'Sect')).toHaveLength(2);
      expect(roles.filter((role) => role === 'H2')).toHaveLength(2);
      expect(roles.filter((role) => role === 'Table')).toHaveLength(2);
      // The line table: a header row of six column headers, then one row of six cells.
      expect(roles.filter((role) => role === 'TH')).toHaveLength(6 + 4);
      expect(roles.filter((role) => role === 'TD')).toHaveLength(6 + 4);
      const logo = tree?.children?.[0]?.children?.[0];
      expect(logo?.role).toBe('Figure');
      expect(logo?.alt).toBe(labels.logoAlt.replace('{name}', 'Analytical Engines Ltd'));
    });
  }

  it('names the account alone when no seller details are set, and tags every page of a long invoice', async () => {
    const customer = customerOf('en-GB', 'Ada Lovelace');
    const lines = Array.from({ length: 120 }, (_, index) => ({
      name: `Line ${index + 1}`,
      amount: '100',
      quantity: 1,
    }));
    const pdf = new Uint8Array(
      await renderInvoicePdf(buildInvoiceDocument(billed(lines, 'GBP', customer), { account, customer, address })),
    );
    const { text } = await pdfText(pdf);
    expect(text).toContain(account.name);
    // No internal id is ever printed.
    expect(text).not.toContain('acc_');
    const structure = await pdfStructure(pdf);
    expect(structure.trees.length).toBeGreaterThan(1);
    // Rows on later pages belong to the same table element as the first page's.
    const rowsPerPage = structure.trees.map((tree) => rolesOf(tree).filter((role) => role === 'TR').length);
    expectEvery(rowsPerPage, (rows) => rows > 0, { what: 'pages', atLeast: 2 });
    const allRoles = structure.trees.flatMap((tree) => rolesOf(tree));
    expect(allRoles).not.toContain('Figure');
    expect(allRoles.filter((role) => role === 'TD').length).toBeGreaterThanOrEqual(120 * 6);
  });

  it('shows each line’s discount in its own column, so amount less discount is what the tax is on', async () => {
    const customer = customerOf('en-GB', 'Ada Lovelace');
    const product = productOf('Analytics');
    const built = buildTransaction(
      {
        items: [{ product, price: priceOf(product, '4900', 'GBP'), quantity: 12 }],
        customer,
        address,
        collectionMode: 'manual',
        origin: 'api',
        discount: {
          id: 'dsc_01aaaaaaaaaaaaaaaaaaaaaaaa',
          type: 'percentage',
          amount: '10',
          currencyCode: null,
          restrictTo: null,
        },
      },
      { ids, now: NOW, taxSettings: { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: 'JP', rate: '0.2' }] } },
    );
    const transaction: Transaction = { ...built, status: 'billed', billedAt: NOW, invoiceNumber: '2026-00078' };
    const document = buildInvoiceDocument(transaction, { account, customer, address });
    expect(document.lineDiscounts).toBe(true);
    const pdf = new Uint8Array(await renderInvoicePdf(document));
    const { text } = await pdfText(pdf);
    // 12 × £49.00 = £588.00 before the discount; 10% off is £58.80; 20% tax on £529.20 is £105.84.
    expect(text).toMatch(/Unit price\s+Discount\s+Tax rate\s+Tax\s+Amount/);
    expect(text).toMatch(/£49\.00\s+-£58\.80\s+20%\s+£105\.84\s+£588\.00/);
    const roles = rolesOf((await pdfStructure(pdf)).trees[0] ?? null);
    // Seven column headers; one line of seven cells.
    expect(roles.filter((role) => role === 'TD').length).toBeGreaterThanOrEqual(7);
    expect(roles.filter((role) => role === 'TH').length).toBeGreaterThanOrEqual(7);
  });
});

/**
 * Documents fit to send (ADR 1110), each checked on the text PDF.js extracts: a UK seller's
 * dollar invoice states its VAT in sterling at the seller's dated reference rate; a manual
 * invoice says how to pay by bank transfer until it is paid; a German one-off invoice has its
 * date of supply and German address layout; a Japanese invoice names consumption tax, the
 * seller's invoice registration number, and a British VAT number as a VAT number.
 */
describe('documents fit to send', () => {
  const londonSeller: SellerDetails = {
    id: 'seller',
    legalName: 'Analytical Engines Ltd',
    address: {
      firstLine: '12 St James’s Square',
      secondLine: null,
      city: 'London',
      postalCode: 'SW1Y 4JH',
      region: null,
      countryCode: 'GB',
    },
    taxIdentifier: 'GB123456789',
    companyNumber: '01234567',
    email: 'billing@engines.example',
    logo: null,
    paymentInstructions: null,
    taxCurrency: 'GBP',
    referenceRates: [
      { currencyCode: 'USD', rate: '0.7931', date: '2026-03-13', source: 'Bank of England' },
      // Dated after the invoice: never used for it.
      { currencyCode: 'USD', rate: '0.9000', date: '2026-03-15', source: 'Bank of England' },
      { currencyCode: 'USD', rate: '0.7500', date: '2026-03-01', source: 'Bank of England' },
    ],
    termsUrl: null,
    privacyUrl: null,
    refundPolicyUrl: null,
    contactUrl: null,
    updatedAt: NOW,
  };

  function placeOf(countryCode: string, fields: Partial<Address>): Address {
    return { ...address, city: null, postalCode: null, region: null, secondLine: null, ...fields, countryCode };
  }

  function invoiceFor(input: {
    customer: Customer;
    address: Address;
    currency: string;
    rate: string;
    lines: { name: string; amount: string; quantity: number }[];
  }): Transaction {
    const built = buildTransaction(
      {
        items: input.lines.map((line) => {
          const product = productOf(line.name);
          return { product, price: priceOf(product, line.amount, input.currency), quantity: line.quantity };
        }),
        customer: input.customer,
        address: input.address,
        collectionMode: 'manual',
        origin: 'api',
      },
      {
        ids,
        now: NOW,
        taxSettings: {
          ...DEFAULT_TAX_SETTINGS,
          countryRates: [{ countryCode: input.address.countryCode, rate: input.rate }],
        },
      },
    );
    return { ...built, status: 'billed', billedAt: NOW, invoiceNumber: '2026-00100' };
  }

  it('states a UK seller’s VAT on a dollar invoice also in sterling, at the latest rate dated by the day of issue', async () => {
    const customer = customerOf('en-GB', 'Ada Lovelace');
    const buyerAddress = placeOf('GB', { firstLine: '1 Byron Road', city: 'Harrow', postalCode: 'HA1 1AA' });
    // 3 × $333.33 = $999.99; VAT 20% = $200.00 (199.998 rounded); at 0.7931, £158.62 (158.62 exactly: 20000 × 0.7931).
    const transaction = invoiceFor({
      customer,
      address: buyerAddress,
      currency: 'USD',
      rate: '0.2',
      lines: [{ name: 'Analytics', amount: '33333', quantity: 3 }],
    });
    expect(transaction.details.totals.tax).toBe('20000');
    const document = buildInvoiceDocument(transaction, {
      account,
      customer,
      address: buyerAddress,
      seller: londonSeller,
    });
    expect(document.summary).toContainEqual({ label: 'VAT 20%', amount: 'US$200.00', emphasis: false });
    expect(document.summary).toContainEqual({ label: 'VAT in GBP', amount: '£158.62', emphasis: false });
    const { text } = await pdfText(new Uint8Array(await renderInvoicePdf(document)));
    for (const expected of [
      'VAT 20%',
      'VAT in GBP',
      '£158.62',
      'VAT converted at 1 USD = 0.7931 GBP (Bank of England, 13 March 2026).',
      'VAT no. GB123456789',
      'Harrow',
      'HA1 1AA',
      'United Kingdom',
    ]) {
      expect(text).toContain(expected);
    }
    // Without a rate dated on or before the day of issue, no sterling figure is invented.
    const early = buildInvoiceDocument(transaction, {
      account,
      customer,
      address: buyerAddress,
      seller: {
        ...londonSeller,
        referenceRates: londonSeller.referenceRates.filter((rate) => rate.date > '2026-03-14'),
      },
    });
    expect(early.summary.map((row) => row.label)).not.toContain('VAT in GBP');
    expect(early.notes.join(' ')).not.toContain('converted');
  });

  it('prints the seller’s bank details on a manual invoice until it is paid', async () => {
    const customer = customerOf('en-GB', 'Ada Lovelace');
    const buyerAddress = placeOf('GB', { firstLine: '1 Byron Road', city: 'Harrow', postalCode: 'HA1 1AA' });
    const seller: SellerDetails = {
      ...londonSeller,
      paymentInstructions: {
        accountName: 'Analytical Engines Ltd',
        iban: 'GB82WEST12345698765432',
        bic: 'NWBKGB2L',
        accountNumber: '98765432',
        sortCode: '12-34-56',
        text: 'Quote the invoice number as the payment reference.',
      },
    };
    const transaction = invoiceFor({
      customer,
      address: buyerAddress,
      currency: 'GBP',
      rate: '0.2',
      lines: [{ name: 'Analytics', amount: '4900', quantity: 1 }],
    });
    const pdf = await renderInvoicePdf(
      buildInvoiceDocument(transaction, { account, customer, address: buyerAddress, seller }),
    );
    const { text } = await pdfText(new Uint8Array(pdf));
    for (const expected of [
      'How to pay',
      'Account name: Analytical Engines Ltd',
      'IBAN: GB82 WEST 1234 5698 7654 32',
      'BIC: NWBKGB2L',
      'Account number: 98765432',
      'Sort code: 12-34-56',
      'Quote the invoice number as the payment reference.',
      'Please pay £58.80 by',
    ]) {
      expect(text).toContain(expected);
    }
    // An invoice in its own currency states no second tax figure.
    expect(text).not.toContain('VAT in GBP');
    const roles = rolesOf((await pdfStructure(new Uint8Array(pdf))).trees[0] ?? null);
    expect(roles.filter((role) => role === 'H2')).toHaveLength(3);
    const paid = buildInvoiceDocument(
      { ...transaction, status: 'completed' },
      { account, customer, address: buyerAddress, seller },
    );
    expect(paid.paymentInstructions).toBeNull();
  });

  it('gives a German one-off invoice its date of supply, German address layout and USt. line', async () => {
    const customer = customerOf('de-DE', 'Erika Mustermann');
    const buyerAddress = placeOf('DE', { firstLine: 'Hauptstraße 5', city: 'München', postalCode: '80331' });
    const seller: SellerDetails = {
      ...londonSeller,
      legalName: 'Analytical Engines GmbH',
      address: {
        firstLine: 'Friedrichstraße 10',
        secondLine: null,
        city: 'Berlin',
        postalCode: '10117',
        region: null,
        countryCode: 'DE',
      },
      taxIdentifier: 'DE123456789',
      taxCurrency: 'EUR',
    };
    const transaction = invoiceFor({
      customer,
      address: buyerAddress,
      currency: 'EUR',
      rate: '0.19',
      lines: [{ name: 'Einrichtung', amount: '10000', quantity: 1 }],
    });
    expect(transaction.billingPeriod).toBeNull();
    const document = buildInvoiceDocument(transaction, { account, customer, address: buyerAddress, seller });
    expect(document.facts).toContainEqual(['Leistungsdatum', '14. März 2026']);
    const { text } = await pdfText(new Uint8Array(await renderInvoicePdf(document)));
    for (const expected of [
      'Leistungsdatum',
      '14. März 2026',
      'Hauptstraße 5',
      '80331 München',
      '10117 Berlin',
      'Deutschland',
      'USt-IdNr. DE123456789',
      'USt. 19%',
      '19,00',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('names Japan’s consumption tax and registration number, and a British VAT number as such, on a Japanese invoice', async () => {
    const customer = customerOf('ja-JP', '山田太郎');
    const buyerAddress = placeOf('JP', {
      firstLine: '千代田1-1',
      city: '千代田区',
      region: '東京都',
      postalCode: '100-0001',
    });
    const tokyoSeller: SellerDetails = {
      ...londonSeller,
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
      taxCurrency: 'JPY',
      referenceRates: [],
    };
    const transaction = invoiceFor({
      customer,
      address: buyerAddress,
      currency: 'JPY',
      rate: '0.1',
      lines: [{ name: '分析プラン', amount: '12000', quantity: 1 }],
    });
    const { text } = await pdfText(
      new Uint8Array(
        await renderInvoicePdf(
          buildInvoiceDocument(transaction, { account, customer, address: buyerAddress, seller: tokyoSeller }),
        ),
      ),
    );
    for (const expected of [
      '登録番号 T1234567890123',
      '消費税 10%',
      '￥1,200',
      '〒100-0001',
      '東京都',
      // Japan's post has no town line: the ward comes first among the street lines, never dropped.
      '千代田区',
      '千代田1-1',
      '日本',
      '取引年月日',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('付加価値税');
    // The same invoice from the London seller: its GB VAT number is a VAT number, not Japan's registration number.
    const fromLondon = await pdfText(
      new Uint8Array(
        await renderInvoicePdf(
          buildInvoiceDocument(transaction, { account, customer, address: buyerAddress, seller: londonSeller }),
        ),
      ),
    );
    expect(fromLondon.text).toContain('VAT番号 GB123456789');
    expect(fromLondon.text).not.toContain('登録番号');
    expect(fromLondon.text).toContain('イギリス');
  });
});
