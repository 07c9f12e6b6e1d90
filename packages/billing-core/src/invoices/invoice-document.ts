/**
 * @module
 * The invoice as a document model: every text an invoice shows, already formatted, in the
 * order it is laid out. Pure and deterministic, so it is snapshot-tested; the service only
 * draws it (pdfkit). Amounts are formatted exactly from lowest units with the currency's ISO
 * 4217 decimal places, in the customer's locale (en-US when the locale is malformed).
 */

import { friendlyFormatIBAN } from 'ibantools';
import { formatAddress } from 'localized-address-format';
import type { Address, Business, Customer } from '../catalogue/entities.js';
import { type CurrencyCode, isSupportedCurrency, minorUnitsOf } from '../money/currencies.js';
import { Decimal } from '../money/decimal.js';
import { formatMinorUnits, resolveLocale } from '../money/money-format.js';
import { divideRounded } from '../money/rounding.js';
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { Account } from '../shared/scope.js';
import { isReverseCharge } from '../tax/location-tax.js';
import { storedTaxIdCheck } from '../tax/tax-id-checks.js';
import { taxNameOf } from '../tax/tax-names.js';
import { TAX_RATE_DATASET } from '../tax/tax-rate-dataset.js';
import { invoiceDueAt } from '../transactions/due-dates.js';
import { withTaxDefaults } from '../transactions/tax-settings.js';
import type { Transaction } from '../transactions/transaction.js';
import { findRevision, revisedParties } from '../transactions/transaction-revision.js';
import type { LogoFormat, ReferenceRate, SellerAddress, SellerDetails } from './entities.js';
import { requireInvoice } from './invoice-availability.js';
import { type InvoiceLabels, labelsFor } from './invoice-labels.js';
import type { InvoiceSlice } from './repositories.js';
import { findSellerDetails } from './seller-details.js';

export interface InvoiceParty {
  readonly name: string;
  readonly lines: readonly string[];
}

/** The seller's logo as the document draws it: the image file (base64) and its text alternative. */
export interface InvoiceLogo {
  readonly contentType: LogoFormat;
  readonly data: string;
  readonly width: number;
  readonly height: number;
  readonly alt: string;
}

export interface InvoiceSeller extends InvoiceParty {
  readonly logo: InvoiceLogo | null;
}

/**
 * One line as printed. `amount` is the line before its discount (quantity × unit price), so the
 * amounts add up to the subtotal; `discount` is what the discount takes off it (empty when the
 * document has no line discounts), and `tax` is charged on amount less discount (ADR 1109).
 */
export interface InvoiceLine {
  readonly description: string;
  readonly quantity: string;
  readonly unitPrice: string;
  readonly discount: string;
  readonly taxRate: string;
  readonly tax: string;
  readonly amount: string;
}

/** How to pay a manual invoice (ADR 1110): a heading and the seller's bank details, one per line. */
export interface InvoicePaymentInstructions {
  readonly heading: string;
  readonly lines: readonly string[];
}

export interface InvoiceSummaryRow {
  readonly label: string;
  readonly amount: string;
  readonly emphasis: boolean;
}

/** The words the renderer prints around the document's own texts, in the document's language. */
export type InvoiceLayoutLabels = Pick<
  InvoiceLabels,
  | 'transaction'
  | 'from'
  | 'billTo'
  | 'description'
  | 'quantity'
  | 'unitPrice'
  | 'discount'
  | 'taxRate'
  | 'tax'
  | 'amount'
>;

export interface InvoiceDocument {
  readonly title: string;
  /** `Invoice number` or `Credit note number`, translated. */
  readonly numberLabel: string;
  readonly invoiceNumber: string;
  readonly transactionId: string;
  /** Translated: paid, due, past due, canceled (credited or refunded for a credit note). */
  readonly status: string;
  readonly labels: InvoiceLayoutLabels;
  readonly locale: string;
  readonly currencyCode: string;
  /** Label and formatted value, in order: issue date, due date, paid date, billing period. */
  readonly facts: readonly (readonly [string, string])[];
  readonly seller: InvoiceSeller;
  readonly customer: InvoiceParty;
  readonly lines: readonly InvoiceLine[];
  /** Whether the lines carry discounts: the table then has a discount column (ADR 1109). */
  readonly lineDiscounts: boolean;
  readonly summary: readonly InvoiceSummaryRow[];
  /** Printed on a manual invoice still to be paid, when the seller set payment instructions. */
  readonly paymentInstructions: InvoicePaymentInstructions | null;
  readonly notes: readonly string[];
}

export interface InvoiceParties {
  readonly account: Account;
  readonly customer: Customer | null;
  readonly address: Address | null;
  /** The business bought for, if any: its name and tax identifier are shown. */
  readonly business?: Business | null | undefined;
  /** The transaction's VAT was reverse charged to the business (ADR 1430): the invoice says so. */
  readonly reverseCharge?: boolean | undefined;
  /** The seller details the account environment set (ADR 1106); without them, the account's name. */
  readonly seller?: SellerDetails | null | undefined;
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function formatDate(timestamp: string, locale: string): string {
  let formatter = dateFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    dateFormatters.set(locale, formatter);
  }
  return formatter.format(new Date(timestamp));
}

function percent(rate: string): string {
  return `${Decimal.parse(rate).multiply(Decimal.parse('100')).toString()}%`;
}

const regionNames = new Map<string, Intl.DisplayNames>();

/** A country's name in the document's language (Intl's region names); the code itself when Intl has none. */
export function countryName(countryCode: string, locale: string): string {
  let names = regionNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    regionNames.set(locale, names);
  }
  try {
    return names.of(countryCode) ?? countryCode;
  } catch {
    return countryCode;
  }
}

/**
 * An address laid out as its country's post writes it (ADR 1110): the order of lines, postcode
 * and town, state or prefecture from the postal formats of Google's address data (the
 * localized-address-format package), then the country's name in the document's language.
 */
export function postalLines(address: SellerAddress | null, locale: string): string[] {
  if (!address) return [];
  const streetLines = [address.firstLine, address.secondLine].filter(
    (line): line is string => typeof line === 'string' && line.trim() !== '',
  );
  const city = address.city?.trim() ?? '';
  const format = (street: string[]) =>
    formatAddress({
      postalCountry: address.countryCode,
      administrativeArea: address.region ?? '',
      locality: city,
      postalCode: address.postalCode ?? '',
      addressLines: street,
    }).filter((line) => line.trim() !== '');
  let lines = format(streetLines);
  // Where the post has no town line (Japan writes the ward or city before the street), the town
  // goes first among the street lines rather than being lost.
  if (city !== '' && !lines.some((line) => line.includes(city))) lines = format([city, ...streetLines]);
  return [...lines, countryName(address.countryCode, locale)];
}

/**
 * What a tax identifier is called (ADR 1110): a VAT number where the identifier (by its prefix, as
 * EU and UK VAT numbers carry one) or its holder's country levies VAT, a GST number in a GST
 * country, Japan's invoice registration number for a Japanese holder, else a tax ID.
 */
export function taxIdentifierLabel(
  identifier: string,
  countryCode: string | null | undefined,
  labels: InvoiceLabels,
): string {
  const prefix = /^([A-Z]{2})[0-9A-Z]/.exec(identifier.toUpperCase())?.[1];
  const prefixCountry = prefix === 'EL' ? 'GR' : prefix;
  if (prefixCountry && taxNameOf(prefixCountry) === 'vat') return labels.vatNumber;
  if (countryCode?.toUpperCase() === 'JP') return labels.registrationNumber;
  const name = taxNameOf(countryCode);
  return name === 'vat' ? labels.vatNumber : name === 'gst' ? labels.gstNumber : labels.taxId;
}

/** The local name of the tax charged to an address in this country, in the document's language. */
export function taxNameLabel(countryCode: string | null | undefined, labels: InvoiceLabels): string {
  switch (taxNameOf(countryCode)) {
    case 'vat':
      return labels.vat;
    case 'gst':
      return labels.gst;
    case 'sales_tax':
      return labels.salesTax;
    case 'consumption_tax':
      return labels.consumptionTax;
    default:
      return labels.tax;
  }
}

/** How a transaction's documents write money, dates and words: the customer's locale, the transaction's currency. */
export interface DocumentFormat {
  readonly locale: string;
  readonly labels: InvoiceLabels;
  money(amount: string | bigint): string;
  date(timestamp: string): string;
}

export function documentFormat(transaction: Transaction, customer: Customer | null): DocumentFormat {
  const locale = resolveLocale(customer?.locale);
  const currency: CurrencyCode = isSupportedCurrency(transaction.currencyCode) ? transaction.currencyCode : 'USD';
  return {
    locale,
    labels: labelsFor(locale),
    money: (amount) => formatMinorUnits(BigInt(amount), currency, locale),
    date: (timestamp) => formatDate(timestamp, locale),
  };
}

export function layoutLabels(labels: InvoiceLabels): InvoiceLayoutLabels {
  const { transaction, from, billTo, description, quantity, unitPrice, discount, taxRate, tax, amount } = labels;
  return { transaction, from, billTo, description, quantity, unitPrice, discount, taxRate, tax, amount };
}

/** The buyer block: the business (with its tax identifier) when there is one, then the person and address. */
function buyerOf(parties: InvoiceParties, labels: InvoiceLabels, locale: string): InvoiceParty {
  const { customer, address, business } = parties;
  const person = customer?.name ?? customer?.email ?? 'Customer';
  const contact = customer?.name ? [customer.email] : [];
  if (business) {
    const numbers = [
      ...(business.taxIdentifier
        ? [`${taxIdentifierLabel(business.taxIdentifier, address?.countryCode, labels)} ${business.taxIdentifier}`]
        : []),
      ...(business.companyNumber ? [`${labels.companyNumber} ${business.companyNumber}`] : []),
    ];
    return {
      name: business.name,
      lines: [`${labels.attention} ${person}`, ...contact, ...postalLines(address, locale), ...numbers],
    };
  }
  return { name: person, lines: [...contact, ...postalLines(address, locale)] };
}

/**
 * The seller block: the legal name, address, tax identifier, company number and email the account
 * set; without seller details, the account's name alone (never an internal id).
 */
export function sellerOf(parties: InvoiceParties, labels: InvoiceLabels, locale: string): InvoiceSeller {
  const details = parties.seller;
  if (!details) return { name: parties.account.name, lines: [], logo: null };
  const name = details.legalName ?? parties.account.name;
  const lines = [
    ...postalLines(details.address, locale),
    ...(details.taxIdentifier
      ? [`${taxIdentifierLabel(details.taxIdentifier, details.address?.countryCode, labels)} ${details.taxIdentifier}`]
      : []),
    ...(details.companyNumber ? [`${labels.companyNumber} ${details.companyNumber}`] : []),
    ...(details.email ? [`${labels.email} ${details.email}`] : []),
  ];
  const logo = details.logo
    ? {
        contentType: details.logo.contentType,
        data: details.logo.data,
        width: details.logo.width,
        height: details.logo.height,
        alt: labels.logoAlt.replace('{name}', name),
      }
    : null;
  return { name, lines, logo };
}

/** Builds the document of a transaction's invoice. */
export function buildInvoiceDocument(transaction: Transaction, parties: InvoiceParties): InvoiceDocument {
  const format = documentFormat(transaction, parties.customer);
  const { labels, locale } = format;
  const money = format.money;
  const { totals } = transaction.details;
  const paid = transaction.payments.filter((payment) => payment.status === 'captured');
  const paidAmount = paid.reduce((sum, payment) => sum + BigInt(payment.amount), 0n);
  const issuedAt = transaction.billedAt ?? transaction.updatedAt;
  const dueAt = invoiceDueAt(transaction);
  const paidAt = transaction.status === 'completed' ? (paid.at(-1)?.capturedAt ?? transaction.updatedAt) : null;

  const facts: [string, string][] = [[labels.invoiceDate, format.date(issuedAt)]];
  if (dueAt !== null) facts.push([labels.dueDate, format.date(dueAt)]);
  if (paidAt !== null) facts.push([labels.paidOn, format.date(paidAt)]);
  if (transaction.billingPeriod) {
    facts.push([
      labels.billingPeriod,
      `${format.date(transaction.billingPeriod.startsAt)} – ${format.date(transaction.billingPeriod.endsAt)}`,
    ]);
  } else {
    // Without a period, the date of supply is the tax point: the day the invoice was issued (ADR 1110).
    facts.push([labels.supplyDate, format.date(issuedAt)]);
  }
  if (transaction.billingDetails?.purchaseOrderNumber) {
    facts.push([labels.purchaseOrder, transaction.billingDetails.purchaseOrderNumber]);
  }

  const lineDiscounts = transaction.details.lineItems.some((line) => BigInt(line.totals.discount) !== 0n);
  const lines = transaction.details.lineItems.map((line, index): InvoiceLine => {
    const price = transaction.items[index]?.price;
    const description = price?.description ? `${line.product.name} — ${price.description}` : line.product.name;
    const discount = BigInt(line.totals.discount);
    return {
      description,
      quantity: String(line.quantity),
      unitPrice: money(line.unitTotals.subtotal),
      discount: lineDiscounts ? money(-discount) : '',
      taxRate: percent(line.taxRate),
      tax: money(line.totals.tax),
      amount: money(line.totals.subtotal),
    };
  });

  const taxName = taxNameLabel(parties.address?.countryCode, labels);
  const summary: InvoiceSummaryRow[] = [
    { label: labels.subtotal, amount: money(totals.subtotal), emphasis: false },
    ...(BigInt(totals.discount) === 0n
      ? []
      : [{ label: labels.discount, amount: money(-BigInt(totals.discount)), emphasis: false }]),
    ...taxRows(transaction, taxName, labels, money),
    { label: labels.total, amount: money(totals.total), emphasis: true },
  ];
  const inTaxCurrency = taxInSellerCurrency(transaction, parties.seller ?? null, issuedAt, format, taxName);
  if (inTaxCurrency) summary.push(inTaxCurrency.row);
  if (BigInt(totals.credit) !== 0n) {
    summary.push({ label: labels.creditApplied, amount: money(-BigInt(totals.credit)), emphasis: false });
    summary.push({ label: labels.grandTotal, amount: money(totals.grandTotal), emphasis: true });
  }
  if (paidAmount > 0n) summary.push({ label: labels.amountPaid, amount: money(paidAmount), emphasis: false });
  summary.push({ label: labels.amountDue, amount: money(totals.balance), emphasis: true });

  const status =
    transaction.status === 'completed' || transaction.status === 'paid'
      ? labels.paid
      : transaction.status === 'past_due'
        ? labels.pastDue
        : transaction.status === 'canceled'
          ? labels.canceled
          : labels.due;
  const owing = BigInt(totals.balance) > 0n && (transaction.status === 'billed' || transaction.status === 'past_due');
  const notes = [
    ...(owing && dueAt !== null
      ? [labels.payBy.replace('{amount}', money(totals.balance)).replace('{date}', format.date(dueAt))]
      : []),
    ...(parties.reverseCharge ? [labels.reverseCharge] : []),
    ...(inTaxCurrency ? [inTaxCurrency.note] : []),
    ...[transaction.billingDetails?.additionalInformation].filter(
      (note): note is string => typeof note === 'string' && note !== '',
    ),
  ];
  return {
    title: labels.invoice,
    numberLabel: labels.invoiceNumber,
    invoiceNumber: transaction.invoiceNumber ?? transaction.id,
    transactionId: transaction.id,
    status,
    labels: layoutLabels(labels),
    locale,
    currencyCode: isSupportedCurrency(transaction.currencyCode) ? transaction.currencyCode : 'USD',
    facts,
    seller: sellerOf(parties, labels, locale),
    customer: buyerOf(parties, labels, locale),
    lines,
    lineDiscounts,
    summary,
    paymentInstructions: owingManually(transaction) ? paymentInstructionsOf(parties.seller ?? null, labels) : null,
    notes,
  };
}

/**
 * The tax rows of the summary: one per rate charged, named as the buyer's country names its tax
 * with the rate ("VAT 20%"), and their total when there are several; one row with the name alone
 * when no rate above zero applied.
 */
function taxRows(
  transaction: Transaction,
  taxName: string,
  labels: InvoiceLabels,
  money: (amount: string | bigint) => string,
): InvoiceSummaryRow[] {
  const total = money(transaction.details.totals.tax);
  const charged = transaction.details.taxRatesUsed.filter((used) => !Decimal.parse(used.taxRate).isZero());
  if (charged.length === 0) return [{ label: taxName, amount: total, emphasis: false }];
  const rows = charged.map((used) => ({
    label: `${taxName} ${percent(used.taxRate)}`,
    amount: money(used.totals.tax),
    emphasis: false,
  }));
  // Several rates: each one's tax, then their total.
  return rows.length === 1
    ? rows
    : [...rows, { label: labels.taxTotal.replace('{name}', taxName), amount: total, emphasis: false }];
}

/** A manual invoice the customer still has to pay: the one that says how (ADR 1110). */
function owingManually(transaction: Transaction): boolean {
  return (
    transaction.collectionMode === 'manual' &&
    transaction.status !== 'completed' &&
    transaction.status !== 'paid' &&
    transaction.status !== 'canceled'
  );
}

function paymentInstructionsOf(seller: SellerDetails | null, labels: InvoiceLabels): InvoicePaymentInstructions | null {
  const instructions = seller?.paymentInstructions;
  if (!instructions) return null;
  const lines = [
    ...(instructions.accountName ? [`${labels.accountName}: ${instructions.accountName}`] : []),
    ...(instructions.iban ? [`IBAN: ${friendlyFormatIBAN(instructions.iban) ?? instructions.iban}`] : []),
    ...(instructions.bic ? [`BIC: ${instructions.bic}`] : []),
    ...(instructions.accountNumber ? [`${labels.accountNumber}: ${instructions.accountNumber}`] : []),
    ...(instructions.sortCode ? [`${labels.sortCode}: ${instructions.sortCode}`] : []),
    ...(instructions.text ? [instructions.text] : []),
  ];
  return { heading: labels.howToPay, lines };
}

/**
 * The tax total in the seller's tax currency when the invoice is in another (ADR 1110), as a UK
 * VAT invoice in dollars must state the VAT in sterling: converted exactly, half up to the tax
 * currency's minor unit, at the latest reference rate the seller set dated on or before the day
 * of issue, and a note naming the rate, its source and its date. None without such a rate.
 */
function taxInSellerCurrency(
  transaction: Transaction,
  seller: SellerDetails | null,
  issuedAt: string,
  format: DocumentFormat,
  taxName: string,
): { readonly row: InvoiceSummaryRow; readonly note: string } | undefined {
  const to = seller?.taxCurrency;
  const from = transaction.currencyCode;
  if (!seller || !to || to === from || !isSupportedCurrency(to) || !isSupportedCurrency(from)) return undefined;
  const day = issuedAt.slice(0, 10);
  const rate = seller.referenceRates
    .filter((candidate) => candidate.currencyCode === from && candidate.date <= day)
    .reduce<ReferenceRate | undefined>(
      (latest, candidate) => (latest && latest.date >= candidate.date ? latest : candidate),
      undefined,
    );
  if (!rate) return undefined;
  const factor = Decimal.parse(rate.rate);
  const converted = divideRounded(
    BigInt(transaction.details.totals.tax) * factor.coefficient * 10n ** BigInt(minorUnitsOf(to)),
    10n ** BigInt(minorUnitsOf(from) + factor.scale),
    'half-up',
  );
  const { labels } = format;
  return {
    row: {
      label: labels.taxInCurrency.replace('{name}', taxName).replace('{currency}', to),
      amount: formatMinorUnits(converted, to, format.locale),
      emphasis: false,
    },
    note: labels.convertedAt
      .replace('{name}', taxName)
      .replace('{from}', from)
      .replace('{rate}', rate.rate)
      .replace('{to}', to)
      .replace('{source}', rate.source)
      .replace('{date}', format.date(`${rate.date}T00:00:00.000Z`)),
  };
}

/** The invoice document of a transaction of the context's scope, if it has an invoice. */
export async function getInvoiceDocument(
  context: Context<InvoiceSlice>,
  transactionId: string,
): Promise<InvoiceDocument> {
  const transaction = await context.store.transactions.findById(context.scope, transactionId);
  if (!transaction) throw BillingError.notFound('Transaction', transactionId);
  requireInvoice(transaction);
  const customer =
    transaction.customerId === null
      ? null
      : await context.store.customers.findById(context.scope, transaction.customerId);
  const address =
    transaction.addressId === null
      ? null
      : await context.store.addresses.findById(context.scope, transaction.addressId);
  const business =
    transaction.businessId === null
      ? null
      : await context.store.businesses.findById(context.scope, transaction.businessId);
  // A revised transaction's invoice shows the revised details (ADR 1102).
  const parties = revisedParties(
    { customer: customer ?? null, address: address ?? null, business: business ?? null },
    await findRevision(context, transaction),
  );
  const reverseCharge = await wasReverseCharged(context, transaction, parties);
  const seller = (await findSellerDetails(context)) ?? null;
  return buildInvoiceDocument(transaction, { account: context.account, ...parties, reverseCharge, seller });
}

/**
 * Whether the invoice must say the VAT was reverse charged: no tax was charged, location tax
 * priced the lines, and the business qualifies for the reverse charge (ADR 1430). Read when
 * the document is made, with the tax settings of that moment.
 */
export async function wasReverseCharged(
  context: Context<InvoiceSlice>,
  transaction: Transaction,
  parties: Pick<InvoiceParties, 'address' | 'business'>,
): Promise<boolean> {
  const { address, business } = parties;
  if (!address || !business?.taxIdentifier) return false;
  if (transaction.details.taxRatesUsed.some((used) => used.taxRate !== '0')) return false;
  const settings = withTaxDefaults(await context.store.billingSettings.findTaxSettings(context.scope));
  const located =
    settings.rateSource === 'location' ||
    transaction.items.some((item) =>
      item.price.taxMode === 'account_setting'
        ? settings.defaultTaxMode === 'location'
        : item.price.taxMode === 'location',
    );
  return (
    located &&
    isReverseCharge(
      TAX_RATE_DATASET,
      address.countryCode,
      business.taxIdentifier,
      settings.sellerCountryCode,
      // The VIES verdict stored when the transaction was priced (ADR 1437).
      await storedTaxIdCheck(context, context.store, business, address.countryCode),
    )
  );
}
