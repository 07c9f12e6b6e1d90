/**
 * The document pool (ADR 1491) on real worker threads: an invoice rendered there is the same
 * PDF the renderer makes on the calling thread (only the creation date differs), the queue is
 * bounded (`documents_busy`), closing lets queued renders finish, and a logo whose image data
 * inflates past what its header declares is refused by the thread's bounded inflate (ADR 1490).
 */
import { threadId } from 'node:worker_threads';
import { BillingError, INVOICE_LABELS, type InvoiceDocument } from '@drawdown/billing-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentPool, type DocumentPool } from '../../src/rendering/document-pool.js';
import { renderInvoicePdf } from '../../src/rendering/invoice-pdf.js';
import { inflationBombPng } from '../support/image-bombs.js';
import { LOGO_PNG_BASE64, pngFile } from '../support/images.js';

const DOCUMENT: InvoiceDocument = {
  title: 'Invoice',
  numberLabel: 'Invoice number',
  invoiceNumber: '2026-00077',
  transactionId: 'txn_00000000000000000000000001',
  status: 'paid',
  labels: INVOICE_LABELS.en,
  locale: 'en-GB',
  currencyCode: 'EUR',
  facts: [['Issue date', '14 March 2026']],
  seller: {
    name: 'Analytical Engines Ltd',
    lines: ['12 St James’s Square', 'SW1Y 4JH London'],
    logo: { contentType: 'image/png', data: LOGO_PNG_BASE64, width: 240, height: 80, alt: 'Analytical Engines logo' },
  },
  customer: { name: '山田太郎', lines: ['1 Analytical Way'] },
  lines: Array.from({ length: 40 }, (_, index) => ({
    description: `Analytics, part ${index + 1}`,
    quantity: '2',
    unitPrice: '€25.00',
    discount: '',
    taxRate: '19%',
    tax: '€9.50',
    amount: '€50.00',
  })),
  paymentInstructions: null,
  lineDiscounts: false,
  summary: [{ label: 'Total', amount: '€2,380.00', emphasis: true }],
  notes: ['Thank you.'],
};

/**
 * The PDF without what its creation instant decides, the one thing two renders of a document
 * differ in: the info dictionary's date, the XMP metadata's dates, and the file identifier pdfkit
 * derives from them.
 */
function dateless(pdf: Uint8Array): string {
  return Buffer.from(pdf)
    .toString('latin1')
    .replace(/\(D:\d{14}Z\)/g, '(D:)')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'T')
    .replace(/\/ID \[<[\da-f]+> <[\da-f]+>\]/, '/ID []');
}

// Rendering is CPU work, and a thread's start parses the fonts: a busy machine takes a while.
describe('document pool', { timeout: 120_000 }, () => {
  // One thread, two places in its queue; started once for the file (a thread parses the fonts when it starts).
  let pool: DocumentPool;
  beforeAll(() => {
    pool = createDocumentPool({ threads: 1, queue: 2, memoryMb: 128 });
  });
  afterAll(() => pool.close());

  it('renders on a worker thread the same PDF the renderer makes in-process', async () => {
    const [{ pdf, threadId: renderedOn }, direct] = await Promise.all([
      pool.renderInvoice(DOCUMENT),
      renderInvoicePdf(DOCUMENT),
    ]);
    expect(renderedOn).not.toBe(threadId);
    expect(pool.figures().threadIds).toEqual([renderedOn]);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBe(direct.length);
    expect(dateless(pdf)).toBe(dateless(direct));
  });

  it('refuses documents beyond its queue with documents_busy, and renders the others', async () => {
    const before = pool.figures().completed.invoice;
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => pool.renderInvoice(DOCUMENT)));
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    const rendered = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(refused.length).toBeGreaterThan(0);
    expect(rendered.length).toBeGreaterThanOrEqual(2);
    for (const outcome of refused) {
      const reason = (outcome as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(BillingError);
      expect((reason as BillingError).code).toBe('documents_busy');
    }
    expect(pool.figures()).toMatchObject({ refused: refused.length, completed: { invoice: before + rendered.length } });
  });

  it('finishes the documents queued when it closes, then refuses more', async () => {
    const closing = createDocumentPool({ threads: 1, queue: 8, memoryMb: 128 });
    const renders = Array.from({ length: 4 }, () => closing.renderInvoice(DOCUMENT));
    expect(closing.figures().inFlight).toBe(4);
    await closing.close();
    const pdfs = await Promise.all(renders);
    expect(pdfs.map(({ pdf }) => pdf.subarray(0, 5).toString('latin1'))).toEqual(['%PDF-', '%PDF-', '%PDF-', '%PDF-']);
    expect(closing.figures()).toMatchObject({ threads: 0, inFlight: 0, completed: { invoice: 4 } });
    await expect(closing.renderInvoice(DOCUMENT)).rejects.toThrow(/closed/);
  });

  it('decodes a logo on a worker thread and stops inflating image data at the size its header declares', async () => {
    const limits = expect.objectContaining({ ok: true, contentType: 'image/png', width: 64, height: 32 });
    expect(await pool.images.decode(pngFile(64, 32))).toEqual(limits);
    // 64 × 64 RGBA declares 16,504 bytes of image data once inflated (interlaced); this one inflates to
    // 32 MiB (the file of issue 32 inflated to 250 MiB: the same file, more zeros).
    const bomb = inflationBombPng(64, 64, 32 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(256 * 1024);
    const refused = await pool.images.decode(bomb);
    expect(refused).toEqual({
      ok: false,
      problem: 'its image data inflates to more than the 16504 bytes its header declares',
    });
    expect(pool.figures().completed.logo).toBe(2);
    expect(pool.figures().threadIds).toHaveLength(1);
  });
});
