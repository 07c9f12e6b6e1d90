/**
 * SIGTERM while PDFs render (ADR 1491): the built service, as a separate process with one
 * document thread, gets SIGTERM once a batch of invoice downloads has all reached the document
 * pool (its `/metrics` counts them): most still wait for the one thread. Every download is answered with a whole PDF,
 * the pool is drained before the stores close, and the process exits 0 with nothing logged at
 * error level. This is also the built service's own path to its document threads (plain
 * JavaScript, no tsx).
 */
import { createTestStorage, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { createBuyer, createOneOffPrice, readyTransaction } from '../transactions/transaction-fixtures.js';
import {
  buildService,
  createAccountWithCli,
  type ServiceProcess,
  startServiceProcess,
} from '../usage/service-process.js';

const BATCH = 5;

/** Invoice PDFs that reached the document pool: in flight there, or rendered (the operations endpoint's `/metrics`). */
async function pdfsAtThePool(opsUrl: string): Promise<number> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const value = (prefix: string) =>
    Number(
      text
        .split('\n')
        .find((row) => row.startsWith(prefix))
        ?.split(' ')
        .at(-1) ?? 0,
    );
  return value('drawdown_document_pool{state="in_flight"}') + value('drawdown_documents_total{outcome="invoice"}');
}

describe('SIGTERM while invoice PDFs render', () => {
  let storage: TestStorage;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage('sqlite');
  }, 180_000);
  afterAll(async () => {
    await service?.stop('SIGKILL');
    await storage?.dispose();
  });

  it('answers every download in flight with its PDF, drains the pool and exits 0', async () => {
    vi.stubEnv('DRAWDOWN_DOCUMENT_WORKERS', '1');
    const { sandboxKey } = await createAccountWithCli(storage);
    service = await startServiceProcess(storage, sandboxKey);
    const running = service;
    const opsUrl = /operations: (http:\/\/\S+)/.exec(running.output())?.[1] ?? '';
    expect(opsUrl, running.output()).toMatch(/^http:/);
    const sandbox = apiClient(running.sandboxUrl, sandboxKey);
    await sandbox.patch('/tax-settings', { default_rate: '0.19' });
    const buyer = await createBuyer(sandbox, 'DE');
    const priceId = await createOneOffPrice(sandbox, '1000', 'EUR');
    const ready = await readyTransaction(sandbox, buyer, priceId);
    await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    const url = String((await sandbox.get(`/transactions/${ready.id}/invoice`)).entity.url);

    const downloads = Array.from({ length: BATCH }, async () => {
      const response = await fetch(url);
      return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
    });
    // Every download has reached the pool (queued for the thread, on it, or rendered): the service holds them all.
    while ((await pdfsAtThePool(opsUrl)) < BATCH) await new Promise((done) => setImmediate(done));
    const stopped = running.stop('SIGTERM');

    const answered = await Promise.all(downloads);
    expect(answered.map((download) => download.status)).toEqual(Array(BATCH).fill(200));
    for (const download of answered) {
      expect(download.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(download.body.subarray(-6).toString('latin1')).toMatch(/%%EOF\n?$/);
    }
    await stopped;
    expect(running.exitCode(), running.output()).toBe(0);
    const lines = running
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; level: string });
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['signal received', 'stopped']));
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  }, 180_000);
});
