/**
 * A storage-backed property, on both engines, over the real HTTP API: random sequences of
 * credit grants (credit adjustments on completed automatic transactions), manual invoices with
 * or without a discount (percentage, flat, each with a usage limit), payments, cancellations
 * and credit adjustments on unpaid invoices. After every step:
 * - each transaction's totals add up to the unit: lines sum to the totals, total = subtotal −
 *   discount + tax, grand total = total − credit, balance = grand total − paid, nothing negative;
 * - a discount is taken exactly as its terms say, once per transaction that holds it, and its
 *   `times_used` is the number of live transactions holding it, never above its limit;
 * - credit is conserved and never applied twice: the credit balance's available, reserved and
 *   used are never negative, reserved is what billed invoices drew, used what completed ones
 *   drew, and available is everything granted less what was drawn.
 * The pure arithmetic has its own property in `transaction-totals.property.test.ts`.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { fc } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { type Buyer, createBuyer, createOneOffPrice } from '../transactions/transaction-fixtures.js';

type Step =
  | { readonly kind: 'grant'; readonly amount: number }
  | { readonly kind: 'bill'; readonly quantity: number; readonly discount: 'none' | 'percentage' | 'flat' }
  | { readonly kind: 'pay'; readonly pick: number }
  | { readonly kind: 'cancel'; readonly pick: number }
  | { readonly kind: 'creditInvoice'; readonly pick: number; readonly amount: number };

const aStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), amount: fc.integer({ min: 1, max: 4_000 }) }),
  fc.record({
    kind: fc.constant('bill' as const),
    quantity: fc.integer({ min: 1, max: 3 }),
    discount: fc.constantFrom('none' as const, 'percentage' as const, 'flat' as const),
  }),
  fc.record({ kind: fc.constant('pay' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('creditInvoice' as const),
    pick: fc.nat(),
    amount: fc.integer({ min: 1, max: 3_000 }),
  }),
);

const PRICE = 1_999n; // GBP, plus 20% tax
const PERCENT = 15n;
const FLAT = 700n;
const LIMIT = 2;

interface Totals {
  readonly subtotal: string;
  readonly discount: string;
  readonly tax: string;
  readonly total: string;
  readonly credit: string;
  readonly balance: string;
  readonly grand_total: string;
}

function totalsOf(transaction: WireObject): Totals {
  return (transaction.details as { totals: Totals }).totals;
}

/** Half to even, as the builder rounds a percentage discount. */
function halfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

describe.each(ENGINES)('%s: discount, credit and adjustment sequences', (engine) => {
  let harness: BillingHarness;
  let api: ApiClient;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    api = harnessClients(harness).sandbox;
    await api.patch('/tax-settings', { country_rates: [{ country_code: 'GB', rate: '0.2' }] });
    priceId = await createOneOffPrice(api, PRICE.toString(), 'GBP');
  });
  afterAll(() => harness.close());

  /** One sequence, on a customer and discounts of its own. */
  async function run(steps: readonly Step[]): Promise<void> {
    const buyer: Buyer = await createBuyer(api, 'GB');
    const discounts = {
      percentage: (
        await api.post('/discounts', {
          description: 'Fifteen off',
          type: 'percentage',
          amount: PERCENT.toString(),
          usage_limit: LIMIT,
          enabled_for_checkout: false,
        })
      ).id,
      flat: (
        await api.post('/discounts', {
          description: 'Seven pounds off',
          type: 'flat',
          amount: FLAT.toString(),
          currency_code: 'GBP',
          usage_limit: LIMIT,
          enabled_for_checkout: false,
        })
      ).id,
    };
    let granted = 0n;
    /** Credit adjustments on unpaid invoices, by transaction: part of its `credit`, not drawn from the balance. */
    const invoiceCredits = new Map<string, bigint>();
    const invoices: string[] = [];

    const fetchAll = async (): Promise<readonly WireObject[]> => {
      const page = await api.get(`/transactions?customer_id=${buyer.customerId}&per_page=200`);
      expect(page.status, page.text).toBe(200);
      return page.list;
    };
    const billedInvoices = async () =>
      (await fetchAll()).filter(
        (transaction) => transaction.status === 'billed' && invoices.includes(String(transaction.id)),
      );

    for (const step of steps) {
      switch (step.kind) {
        case 'grant': {
          // A completed automatic transaction, then a credit adjustment on it: the credit balance grows.
          const ready = await api.post('/transactions', {
            items: [{ price_id: priceId, quantity: 3 }],
            customer_id: buyer.customerId,
            address_id: buyer.addressId,
          });
          expect(ready.status, ready.text).toBe(201);
          const paid = await api.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
          expect(paid.status, paid.text).toBe(200);
          const line = (paid.entity.details as { line_items: { id: string; totals: Totals }[] }).line_items[0];
          const amount = BigInt(Math.min(step.amount, Number(line?.totals.total ?? 0)));
          const adjustment = await api.post('/adjustments', {
            action: 'credit',
            transaction_id: ready.id,
            reason: 'Goodwill',
            type: 'partial',
            items: [{ item_id: line?.id, type: 'partial', amount: amount.toString() }],
          });
          expect(adjustment.status, adjustment.text).toBe(201);
          granted += amount;
          break;
        }
        case 'bill': {
          const discountId = step.discount === 'none' ? undefined : discounts[step.discount];
          const before = discountId ? await api.get(`/discounts/${discountId}`) : undefined;
          const created = await api.post('/transactions', {
            items: [{ price_id: priceId, quantity: step.quantity }],
            customer_id: buyer.customerId,
            address_id: buyer.addressId,
            collection_mode: 'manual',
            status: 'billed',
            ...(discountId ? { discount_id: discountId } : {}),
          });
          if (before && before.entity.times_used === LIMIT) {
            // Used up: refused, and nothing was written.
            expect(created.body.error?.code, created.text).toBe('discount_usage_limit_exceeded');
            break;
          }
          expect(created.status, created.text).toBe(201);
          invoices.push(created.id);
          const totals = totalsOf(created.entity);
          const gross = PRICE * BigInt(step.quantity);
          const expected =
            step.discount === 'percentage'
              ? halfEven(gross * PERCENT, 100n)
              : step.discount === 'flat'
                ? gross < FLAT
                  ? gross
                  : FLAT
                : 0n;
          expect(BigInt(totals.subtotal)).toBe(gross);
          expect(BigInt(totals.discount)).toBe(expected);
          break;
        }
        case 'pay': {
          const payable = (await billedInvoices()).filter((invoice) => BigInt(totalsOf(invoice).balance) > 0n);
          const invoice = payable[step.pick % Math.max(payable.length, 1)];
          if (!invoice) break;
          const paid = await api.post(`/transactions/${invoice.id}/payments`, {
            method_type: 'bank_transfer',
            provider_reference: `wire-${String(invoice.id)}`,
          });
          expect(paid.status, paid.text).toBe(201);
          expect(paid.entity.status).toBe('completed');
          break;
        }
        case 'cancel': {
          // Invoices carrying a credit adjustment stay: their credit is the adjustment's record.
          const cancelable = (await billedInvoices()).filter((invoice) => !invoiceCredits.has(String(invoice.id)));
          const invoice = cancelable[step.pick % Math.max(cancelable.length, 1)];
          if (!invoice) break;
          const canceled = await api.patch(`/transactions/${invoice.id}`, { status: 'canceled' });
          expect(canceled.status, canceled.text).toBe(200);
          break;
        }
        case 'creditInvoice': {
          const open = (await billedInvoices()).filter((invoice) => BigInt(totalsOf(invoice).balance) > 0n);
          const invoice = open[step.pick % Math.max(open.length, 1)];
          if (!invoice) break;
          const line = (invoice.details as { line_items: { id: string }[] }).line_items[0];
          const amount = BigInt(Math.min(step.amount, Number(totalsOf(invoice).balance)));
          const adjustment = await api.post('/adjustments', {
            action: 'credit',
            transaction_id: invoice.id,
            reason: 'Partial credit',
            type: 'partial',
            items: [{ item_id: line?.id, type: 'partial', amount: amount.toString() }],
          });
          expect(adjustment.status, adjustment.text).toBe(201);
          invoiceCredits.set(String(invoice.id), (invoiceCredits.get(String(invoice.id)) ?? 0n) + amount);
          break;
        }
      }
      await checkInvariants();
    }

    async function checkInvariants(): Promise<void> {
      const transactions = await fetchAll();
      let reserved = 0n;
      let used = 0n;
      for (const transaction of transactions) {
        const totals = totalsOf(transaction);
        const amount = (key: keyof Totals) => BigInt(totals[key]);
        const lines = (transaction.details as { line_items: { totals: Record<string, string> }[] }).line_items;
        for (const key of ['subtotal', 'discount', 'tax', 'total'] as const) {
          expect(
            lines.reduce((sum, line) => sum + BigInt(line.totals[key] ?? '0'), 0n),
            key,
          ).toBe(amount(key));
        }
        expect(amount('total')).toBe(amount('subtotal') - amount('discount') + amount('tax'));
        expect(amount('grand_total')).toBe(amount('total') - amount('credit'));
        const payments = (transaction.payments as { status: string; amount: string }[]).filter(
          (payment) => payment.status === 'captured',
        );
        const paid = payments.reduce((sum, payment) => sum + BigInt(payment.amount), 0n);
        if (transaction.status !== 'canceled') expect(amount('balance')).toBe(amount('grand_total') - paid);
        for (const key of ['subtotal', 'discount', 'tax', 'total', 'credit', 'balance', 'grand_total'] as const) {
          expect(amount(key), key).toBeGreaterThanOrEqual(0n);
        }
        expect(amount('discount')).toBeLessThanOrEqual(amount('subtotal'));
        // What this transaction drew from the credit balance: its credit less the adjustments' part.
        const drawn = amount('credit') - (invoiceCredits.get(String(transaction.id)) ?? 0n);
        expect(drawn, `credit drawn by ${String(transaction.id)}`).toBeGreaterThanOrEqual(0n);
        if (transaction.status === 'billed') reserved += drawn;
        if (transaction.status === 'completed') used += drawn;
      }
      const balances = await api.get(`/customers/${buyer.customerId}/credit-balances`);
      expect(balances.status, balances.text).toBe(200);
      const balance = (balances.list[0]?.balance as Record<string, string> | undefined) ?? {
        available: '0',
        reserved: '0',
        used: '0',
      };
      expect({
        available: BigInt(balance.available ?? '0'),
        reserved: BigInt(balance.reserved ?? '0'),
        used: BigInt(balance.used ?? '0'),
      }).toEqual({ available: granted - reserved - used, reserved, used });
      expect(granted - reserved - used).toBeGreaterThanOrEqual(0n);

      for (const id of [discounts.percentage, discounts.flat]) {
        const holding = transactions.filter(
          (transaction) => transaction.discount_id === id && transaction.status !== 'canceled',
        ).length;
        const discount = await api.get(`/discounts/${id}`);
        expect(discount.entity.times_used, `times_used of ${id}`).toBe(holding);
        expect(holding).toBeLessThanOrEqual(LIMIT);
      }
    }
  }

  it('keeps totals exact, discounts single and credit conserved over random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(aStep, { minLength: 4, maxLength: 10 }), (steps) => run(steps)),
      { numRuns: 6, endOnFailure: true },
    );
  }, 240_000);
});
