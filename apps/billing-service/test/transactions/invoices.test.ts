/**
 * Invoice PDFs over HTTP on both engines: where invoices exist (the seed's rules), a real PDF
 * with the invoice number and the formatted total, links that refuse any tampering and stop
 * working after one hour of the account's sandbox clock.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  expectError,
  expectInvalidField,
  harnessClients,
  type WireObject,
} from '../support/api-client.js';
import { pdfText } from './pdf-text.js';
import { type Buyer, createBuyer, createOneOffPrice, readyTransaction } from './transaction-fixtures.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

async function invoiceUrl(api: ApiClient, id: unknown, disposition = 'attachment'): Promise<string> {
  const response = await api.get(`/transactions/${id}/invoice?disposition=${disposition}`);
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('expires')).toMatch(/GMT$/);
  return String(response.entity.url);
}

async function errorCode(response: Response): Promise<{ status: number; code: string }> {
  const body = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, code: String(body.error?.code) };
}

describe.each(ENGINES)('%s: invoice PDFs', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let live: ApiClient;
  let buyer: Buyer;
  let priceId: string;

  async function completed(body: WireObject = {}): Promise<WireObject> {
    const ready = await readyTransaction(sandbox, buyer, priceId, body);
    const paid = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.entity.status).toBe('completed');
    return paid.entity;
  }

  async function billed(): Promise<WireObject> {
    return readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual', status: 'billed' });
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox, live } = harnessClients(harness));
    await sandbox.patch('/tax-settings', { default_rate: '0.19' });
    buyer = await createBuyer(sandbox, 'DE');
    priceId = await createOneOffPrice(sandbox, '1000', 'EUR');
  });
  afterAll(() => harness.close());

  describe('where invoices exist', () => {
    it('has one for a completed automatically collected transaction', async () => {
      expect(await invoiceUrl(sandbox, (await completed()).id)).toMatch(/^http/);
    });

    it('has none for an automatically collected transaction before it completes', async () => {
      const ready = await readyTransaction(sandbox, buyer, priceId);
      expectError(await sandbox.get(`/transactions/${ready.id}/invoice`), 409, 'transaction_invoice_not_available');
      await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'failure' });
      expectError(await sandbox.get(`/transactions/${ready.id}/invoice`), 409, 'transaction_invoice_not_available');
    });

    it('has one for a billed manual transaction, and keeps it once completed', async () => {
      const invoice = await billed();
      expect(await invoiceUrl(sandbox, invoice.id)).toMatch(/^http/);
      await sandbox.post(`/transactions/${invoice.id}/payments`, {
        method_type: 'bank_transfer',
        provider_reference: 'w1',
      });
      expect(await invoiceUrl(sandbox, invoice.id)).toMatch(/^http/);
    });

    it('has none for a manual transaction not yet billed, or canceled', async () => {
      const ready = await readyTransaction(sandbox, buyer, priceId, { collection_mode: 'manual' });
      expectError(await sandbox.get(`/transactions/${ready.id}/invoice`), 409, 'transaction_invoice_not_available');
      const invoice = await billed();
      await sandbox.patch(`/transactions/${invoice.id}`, { status: 'canceled' });
      expectError(await sandbox.get(`/transactions/${invoice.id}/invoice`), 409, 'transaction_invoice_not_available');
    });

    it('never has one for a zero-value transaction', async () => {
      const free = await createOneOffPrice(sandbox, '0', 'EUR');
      const ready = await readyTransaction(sandbox, buyer, free);
      const done = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
      expect(done.entity.status).toBe('completed');
      expectError(await sandbox.get(`/transactions/${ready.id}/invoice`), 409, 'transaction_invoice_not_available');
    });

    it('answers not_found for another account’s or environment’s transaction', async () => {
      const invoice = await completed();
      expectError(await live.get(`/transactions/${invoice.id}/invoice`), 404, 'not_found');
      const other = await harness.createAccount({ earlyAccess: false });
      const key = await harness.createKey({
        environment: 'sandbox',
        permissions: ['transaction.read'],
        accountId: other,
      });
      const response = await fetch(`${harness.sandboxUrl}/transactions/${invoice.id}/invoice`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(await errorCode(response)).toEqual({ status: 404, code: 'not_found' });
    });

    it('refuses an unknown disposition', async () => {
      const invoice = await completed();
      expectInvalidField(await sandbox.get(`/transactions/${invoice.id}/invoice?disposition=download`), 'disposition');
    });
  });

  it('serves a real PDF with the invoice number and the formatted total, as asked to dispose it', async () => {
    const invoice = await completed();
    for (const disposition of ['attachment', 'inline']) {
      const response = await fetch(await invoiceUrl(sandbox, invoice.id, disposition));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(
        `${disposition}; filename="invoice-${invoice.invoice_number}.pdf"`,
      );
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      const { pages, text } = await pdfText(bytes);
      expect(pages).toBe(1);
      expect(text).toContain(String(invoice.invoice_number));
      expect(text).toContain('€23.80');
      expect(text).toContain('Ada Lovelace');
    }
  });

  it('refuses a link with any parameter changed, and a link of the other environment', async () => {
    const invoice = await completed();
    const url = new URL(await invoiceUrl(sandbox, invoice.id));
    const variants: URL[] = [];
    const change = (name: string, value: string) => {
      const copy = new URL(url);
      copy.searchParams.set(name, value);
      variants.push(copy);
    };
    change('account', 'acc_00000000000000000000000000');
    change('disposition', 'inline');
    change('expires', String(Number(url.searchParams.get('expires')) + 3_600_000));
    const signature = String(url.searchParams.get('signature'));
    const middle = Math.floor(signature.length / 2);
    const flipped = signature[middle] === 'A' ? 'B' : 'A';
    change('signature', `${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`);
    // The last character carries two unused bits: a spelling that decodes to the same bytes is
    // still not the signature this service issued.
    const last = signature.at(-1) ?? 'A';
    const sameBytes = BASE64URL[(BASE64URL.indexOf(last) & ~3) | ((BASE64URL.indexOf(last) + 1) & 3)] ?? 'A';
    expect(Buffer.from(`${signature.slice(0, -1)}${sameBytes}`, 'base64url')).toEqual(
      Buffer.from(signature, 'base64url'),
    );
    change('signature', `${signature.slice(0, -1)}${sameBytes}`);
    change('signature', 'not-a-signature');
    const other = await completed();
    const moved = new URL(url);
    moved.pathname = `/invoices/${other.id}/pdf`;
    variants.push(moved);
    const withoutSignature = new URL(url);
    withoutSignature.searchParams.delete('signature');
    variants.push(withoutSignature);
    const onLive = new URL(`${harness.liveUrl}${url.pathname}${url.search}`);
    variants.push(onLive);
    for (const variant of variants) {
      expect(await errorCode(await fetch(variant)), variant.toString()).toEqual({
        status: 404,
        code: 'invoice_link_invalid',
      });
    }
    expect((await fetch(url)).status).toBe(200);
  });

  it('stops serving a link after exactly one hour of the account’s sandbox clock', async () => {
    const invoice = await completed();
    const url = await invoiceUrl(sandbox, invoice.id);
    const advance = await sandbox.post('/sandbox-clock/advance', { seconds: 3_599 });
    expect(advance.status, advance.text).toBe(200);
    expect((await fetch(url)).status).toBe(200);
    await sandbox.post('/sandbox-clock/advance', { seconds: 1 });
    expect(await errorCode(await fetch(url))).toEqual({ status: 410, code: 'invoice_link_expired' });
    expect((await fetch(await invoiceUrl(sandbox, invoice.id))).status).toBe(200);
  });
});
