/**
 * Invoice PDFs render off the event loop (ADR 1491, issue 32): through signed links on a real
 * service, every PDF is rendered on a document thread (never the thread that serves the API),
 * an API request sent while a batch of PDFs is being rendered is answered before the batch
 * finishes, and a full queue answers `documents_busy` (503, Retry-After) while the PDFs it
 * took still come out whole.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { type BillingHarness, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients } from '../support/api-client.js';
import { createBuyer, createOneOffPrice, readyTransaction } from '../transactions/transaction-fixtures.js';

const BATCH = 6;

/** A completed transaction's signed invoice link. */
async function invoiceLink(sandbox: ApiClient): Promise<{ transactionId: string; url: string }> {
  await sandbox.patch('/tax-settings', { default_rate: '0.19' });
  const buyer = await createBuyer(sandbox, 'DE');
  const priceId = await createOneOffPrice(sandbox, '1000', 'EUR');
  const ready = await readyTransaction(sandbox, buyer, priceId);
  const paid = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
  expect(paid.entity.status, paid.text).toBe('completed');
  const link = await sandbox.get(`/transactions/${ready.id}/invoice`);
  expect(link.status, link.text).toBe(200);
  return { transactionId: String(ready.id), url: String(link.entity.url) };
}

interface Download {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

async function download(url: string): Promise<Download> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
}

function isPdf(body: Uint8Array): boolean {
  return Buffer.from(body.subarray(0, 5)).toString('latin1') === '%PDF-';
}

// Rendering is CPU work, and a thread's start parses the fonts: a busy machine takes a while.
describe('invoice PDFs off the event loop', { timeout: 120_000 }, () => {
  let harness: BillingHarness;
  let sandbox: ApiClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ documentWorkers: 1 });
    ({ sandbox } = harnessClients(harness));
  });
  afterAll(() => harness.close());

  it('renders on a document thread and answers an API request sent mid-batch before the batch ends', async () => {
    const { transactionId, url } = await invoiceLink(sandbox);
    const documents = harness.services.documents;
    // The thread is started (fonts parsed) by a first PDF, so the batch below is rendering, not waiting for it.
    expect((await download(url)).status).toBe(200);
    expect(documents.figures().completed.invoice).toBe(1);
    let downloaded = 0;
    const batch = Array.from({ length: BATCH }, () =>
      download(url).then((result) => {
        downloaded += 1;
        return result;
      }),
    );
    // The batch has reached the pool: its renders are queued or running on the thread.
    while (documents.figures().inFlight === 0) await turn();

    const read = await sandbox.get(`/transactions/${transactionId}`);
    const pdfsWhenAnswered = downloaded;
    const rendersWhenAnswered = documents.figures().completed.invoice - 1;
    expect(read.status, read.text).toBe(200);
    expect(read.entity.id).toBe(transactionId);
    expect(pdfsWhenAnswered).toBeLessThan(BATCH);
    expect(rendersWhenAnswered).toBeLessThan(BATCH);

    const pdfs = await Promise.all(batch);
    for (const pdf of pdfs) {
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(isPdf(pdf.body)).toBe(true);
    }
    const figures = documents.figures();
    expect(figures.completed.invoice).toBe(BATCH + 1);
    // One document thread (--document-workers 1), and not the thread that served the API.
    expect(figures.threadIds).toHaveLength(1);
    expect(figures.threadIds).not.toContain(threadId);
  });
});

describe('a full document queue', { timeout: 120_000 }, () => {
  let harness: BillingHarness;
  let sandbox: ApiClient;

  beforeAll(async () => {
    harness = await startBillingHarness({ documentWorkers: 1, documentQueue: 1 });
    ({ sandbox } = harnessClients(harness));
  });
  afterAll(() => harness.close());

  it('answers documents_busy with Retry-After beyond the queue, and renders what it took', async () => {
    const { url } = await invoiceLink(sandbox);
    // The pool is cold: the first PDF waits for its thread to start, so the batch meets a full queue.
    expect(harness.services.documents.figures().threads).toBe(0);
    const results = await Promise.all(Array.from({ length: BATCH }, () => download(url)));
    const busy = results.filter((result) => result.status === 503);
    const rendered = results.filter((result) => result.status === 200);
    expect(busy.length).toBeGreaterThan(0);
    expect(rendered.length).toBeGreaterThan(0);
    expect(busy.length + rendered.length).toBe(BATCH);
    for (const refused of busy) {
      expect(refused.headers.get('retry-after')).toBe('1');
      const body = JSON.parse(Buffer.from(refused.body).toString('utf8')) as { error: { type: string; code: string } };
      expect(body.error).toMatchObject({ type: 'api_error', code: 'documents_busy' });
    }
    for (const pdf of rendered) expect(isPdf(pdf.body)).toBe(true);
    expect(harness.services.documents.figures()).toMatchObject({
      refused: busy.length,
      completed: { invoice: rendered.length },
    });
  });
});
