/**
 * The invoice document model, snapshot-tested: what the PDF shows, formatted, for a completed
 * EUR transaction with exclusive tax and for a billed manual invoice with a credit.
 */
import { describe, expect, it } from 'vitest';
import { aCustomer, anAddress, aPrice, aProduct, BUILT_AT } from '../../test/entities.js';
import { countingIds } from '../../test/memory-store.js';
import type { Account } from '../shared/scope.js';
import { buildTransaction } from '../transactions/build-transaction.js';
import { DEFAULT_TAX_SETTINGS } from '../transactions/tax-settings.js';
import type { Transaction } from '../transactions/transaction.js';
import { composeDetails, decompose } from '../transactions/transaction-totals.js';
import { invoiceUnavailableReason } from './invoice-availability.js';
import { buildInvoiceDocument } from './invoice-document.js';

const NOW = BUILT_AT;

const account: Account = {
  id: 'acc_00000000000000000000000001',
  name: 'Analytical Engines Ltd',
  earlyAccess: false,
  createdAt: NOW,
};
const customer = aCustomer();
const address = anAddress();
const product = aProduct();
const price = aPrice();

function transaction(collectionMode: 'automatic' | 'manual'): Transaction {
  return buildTransaction(
    {
      items: [{ price, product, quantity: 3 }],
      customer,
      address,
      collectionMode,
      origin: 'subscription_recurring',
      subscriptionId: 'sub_00000000000000000000000001',
      billingPeriod: { startsAt: NOW, endsAt: '2026-04-14T09:30:00.000Z' },
    },
    {
      ids: countingIds(),
      now: NOW,
      taxSettings: { ...DEFAULT_TAX_SETTINGS, countryRates: [{ countryCode: 'DE', rate: '0.19' }] },
    },
  );
}

describe('buildInvoiceDocument', () => {
  it('lays out a completed automatic transaction', () => {
    const built = transaction('automatic');
    const paid: Transaction = {
      ...built,
      status: 'completed',
      invoiceNumber: '2026-00042',
      payments: [
        {
          paymentAttemptId: 'payatt_1',
          storedPaymentMethodId: null,
          paymentMethodId: null,
          amount: built.details.totals.total,
          status: 'captured',
          errorCode: null,
          methodDetails: { type: 'card', card: null, underlyingDetails: null },
          providerReference: 'sandbox',
          createdAt: NOW,
          capturedAt: NOW,
        },
      ],
    };
    const { lines, settlement } = decompose(paid);
    const completed = { ...paid, details: composeDetails(lines, { ...settlement, completed: true }, 'EUR') };
    expect(invoiceUnavailableReason(completed)).toBeNull();
    expect(buildInvoiceDocument(completed, { account, customer, address })).toMatchSnapshot();
  });

  it('lays out a billed manual invoice with its due date and a credit', () => {
    const built = transaction('manual');
    const billed: Transaction = { ...built, status: 'billed', billedAt: NOW, invoiceNumber: '2026-00043' };
    const { lines, settlement } = decompose(billed);
    const credited = {
      ...billed,
      details: composeDetails(lines, { ...settlement, creditTotal: 1190n, creditTax: 190n }, 'EUR'),
    };
    expect(
      buildInvoiceDocument(credited, { account, customer: { ...customer, locale: 'de-DE' }, address }),
    ).toMatchSnapshot();
  });

  it('has no invoice for an unbilled manual, an uncompleted automatic or a zero-value transaction', () => {
    expect(invoiceUnavailableReason(transaction('manual'))).toBe('not_billed');
    expect(invoiceUnavailableReason(transaction('automatic'))).toBe('not_completed');
    const free = buildTransaction(
      {
        items: [{ price: { ...price, unitPrice: { amount: '0', currencyCode: 'EUR' } }, product, quantity: 1 }],
        customer,
        address,
        collectionMode: 'automatic',
        origin: 'web',
      },
      { ids: countingIds(), now: NOW, taxSettings: DEFAULT_TAX_SETTINGS },
    );
    expect(invoiceUnavailableReason({ ...free, status: 'completed' })).toBe('zero_value');
  });
});
