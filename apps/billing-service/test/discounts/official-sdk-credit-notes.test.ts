/**
 * `adjustments.getCreditNotePDF` through the official SDK, on both engines: a refund of an
 * invoiced transaction has a credit note, a real PDF behind a signed link that lives an hour of
 * the environment's clock, with the adjustment's lines and totals; links are tamper-proof, and
 * adjustments of transactions without an invoice are refused with a specific code.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { ApiError, type Paddle } from '@paddle/paddle-node-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { officialSdk } from '../support/official-sdk.js';
import { pdfText } from '../transactions/pdf-text.js';
import { type Buyer, createBuyer, createOneOffPrice } from '../transactions/transaction-fixtures.js';

describe.each(ENGINES)('%s: credit notes through the official SDK', (engine) => {
  let harness: BillingHarness;
  let paddle: Paddle;
  let sandbox: ApiClient;
  let buyer: Buyer;
  let priceId: string;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox } = harnessClients(harness));
    paddle = officialSdk(harness.sandboxKey, harness.sandboxUrl);
    await sandbox.patch('/tax-settings', { country_rates: [{ country_code: 'GB', rate: '0.2' }] });
    buyer = await createBuyer(sandbox, 'GB');
    priceId = await createOneOffPrice(sandbox, '5000', 'GBP');
  });
  afterAll(() => harness.close());

  async function refundedTransaction(): Promise<{
    transactionId: string;
    invoiceNumber: string;
    adjustmentId: string;
  }> {
    const ready = await paddle.transactions.create({
      items: [{ priceId, quantity: 2 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
    });
    const paid = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.status, paid.text).toBe(200);
    const adjustment = await paddle.adjustments.create({
      action: 'refund',
      transactionId: ready.id,
      reason: 'Ordered one too many',
      type: 'partial',
      items: [{ itemId: String(ready.details?.lineItems[0]?.id), type: 'partial', amount: '6000' }],
    });
    return { transactionId: ready.id, invoiceNumber: String(paid.entity.invoice_number), adjustmentId: adjustment.id };
  }

  it('serves a credit note PDF with the refund’s lines and totals', async () => {
    const { invoiceNumber, adjustmentId } = await refundedTransaction();
    const link = await paddle.adjustments.getCreditNotePDF(adjustmentId, { disposition: 'inline' });
    expect(link.url).toContain(`/credit-notes/${adjustmentId}/pdf?`);
    const response = await fetch(link.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="credit-note-${invoiceNumber}-CN1.pdf"`);
    const { text } = await pdfText(new Uint8Array(await response.arrayBuffer()));
    // 60.00 refunded with tax inside at 20%: 50.00 net and 10.00 tax.
    for (const expected of [
      'Credit note',
      `${invoiceNumber}-CN1`,
      invoiceNumber,
      '£50.00',
      '£10.00',
      '£60.00',
      'Ordered one too many',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('refuses a tampered link, an expired one, and an adjustment without an invoice', async () => {
    const { adjustmentId } = await refundedTransaction();
    const { url } = await paddle.adjustments.getCreditNotePDF(adjustmentId);
    const tampered = new URL(url);
    tampered.searchParams.set('disposition', 'inline');
    expect((await fetch(tampered)).status).toBe(404);
    const asInvoice = new URL(url.replace('/credit-notes/', '/invoices/'));
    expect((await fetch(asInvoice)).status).toBe(404);

    await sandbox.post('/sandbox-clock/advance', { seconds: 3_601 });
    const expired = await fetch(url);
    expect(expired.status).toBe(410);

    try {
      await paddle.adjustments.getCreditNotePDF('adj_01aaaaaaaaaaaaaaaaaaaaaaaa');
      expect.unreachable();
    } catch (error) {
      expect(error instanceof ApiError && error.code).toBe('not_found');
    }
  });

  it('answers adjustment_credit_note_not_available once the transaction has no invoice', async () => {
    const invoice = await paddle.transactions.create({
      items: [{ priceId, quantity: 1 }],
      customerId: buyer.customerId,
      addressId: buyer.addressId,
      collectionMode: 'manual',
      status: 'billed',
    });
    const credit = await paddle.adjustments.create({
      action: 'credit',
      transactionId: invoice.id,
      reason: 'Goodwill',
      type: 'partial',
      items: [{ itemId: String(invoice.details?.lineItems[0]?.id), type: 'partial', amount: '100' }],
    });
    // A billed manual invoice has an invoice, so its credit has a credit note.
    expect((await paddle.adjustments.getCreditNotePDF(credit.id)).url).toContain('/credit-notes/');
    await sandbox.patch(`/transactions/${invoice.id}`, { status: 'canceled' });
    const refused = await sandbox.get(`/adjustments/${credit.id}/credit-note`);
    expect(refused.status).toBe(409);
    expect(refused.body.error?.code).toBe('adjustment_credit_note_not_available');
  });
});
