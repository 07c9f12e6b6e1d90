/**
 * The built service is killed with SIGKILL while live invoices are being issued and their email
 * jobs wait (it has no SMTP server, so live jobs stay pending), then a service with an SMTP server
 * starts on the same PostgreSQL database. Every invoice that was committed is mailed exactly once:
 * jobs written before the kill are sent, events not yet fanned out become jobs, and nothing is
 * sent twice (ADR 1500).
 */
import { composeServices, resolveServiceConfig, startService } from '@drawdown/billing-service';
import { createTestStorage, expectEvery, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { createBuyer, createOneOffPrice, readyTransaction } from '../transactions/transaction-fixtures.js';
import { buildService, runCli, type ServiceProcess, startServiceProcess } from '../usage/service-process.js';
import { type SmtpInbox, startSmtpInbox } from './smtp-inbox.js';

const INVOICES = 16;

describe('postgres: SIGKILL with email jobs pending', () => {
  let storage: TestStorage;
  let inbox: SmtpInbox;
  let child: ServiceProcess | undefined;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage('postgres');
    inbox = await startSmtpInbox();
  }, 240_000);
  afterAll(async () => {
    await child?.stop('SIGKILL');
    await inbox?.close();
    await storage?.dispose();
  });

  it('mails every committed invoice exactly once after the restart', { timeout: 120_000 }, async () => {
    const flags = { dataDir: storage.dataDir, databaseUrl: storage.databaseUrl };
    const created = await runCli(['accounts', 'create', '--name', 'Email fault', '--early-access'], flags);
    const accountId = String((created.account as { id: string }).id);
    const keyOf = async (env: string) =>
      String(
        (await runCli(['keys', 'create', '--account', accountId, '--env', env, '--permission', 'all'], flags)).token,
      );
    const [liveKey, sandboxKey] = [await keyOf('live'), await keyOf('sandbox')];
    await runCli(
      [
        'accounts',
        'email-settings',
        'set',
        '--account',
        accountId,
        '--env',
        'live',
        '--sender-address',
        'billing@shop.example',
      ],
      flags,
    );
    child = await startServiceProcess(flags, sandboxKey);
    const live = apiClient(child.liveUrl, liveKey);
    // A new account charges live only once its live tax settings are chosen (ADR 1439): no tax here.
    expect((await live.patch('/tax-settings', { rate_source: 'account', default_rate: '0' })).status).toBe(200);
    const email = `crash-${Date.now()}@customer.example`;
    const buyer = await createBuyer(live, 'DE', { email });
    const price = await createOneOffPrice(live, '1000', 'EUR');
    // Half the invoices are issued and their jobs written; the rest are in flight when the kill lands.
    for (let index = 0; index < INVOICES / 2; index += 1) {
      await readyTransaction(live, buyer, price, { collection_mode: 'manual', status: 'billed' });
    }
    const inFlight = Array.from({ length: INVOICES / 2 }, () =>
      live
        .post('/transactions', {
          items: [{ price_id: price, quantity: 1 }],
          customer_id: buyer.customerId,
          address_id: buyer.addressId,
          collection_mode: 'manual',
          status: 'billed',
        })
        .catch(() => undefined),
    );
    await child.stop('SIGKILL');
    await Promise.all(inFlight);
    expect(inbox.received).toEqual([]);

    const config = resolveServiceConfig(
      {
        'data-dir': storage.dataDir,
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
        'key-rate-limit': 'off',
        'log-level': 'warn',
        'database-url': String(storage.databaseUrl),
        'smtp-url': inbox.url,
      },
      {},
    );
    const restarted = await startService(await composeServices(config), {
      ...config,
      emailDelivery: { pollIntervalMs: 20 },
    });
    try {
      const after = apiClient(restarted.liveUrl, liveKey);
      const invoices = (await after.get(`/transactions?customer_id=${buyer.customerId}&per_page=50`)).body.data as {
        id: string;
        status: string;
      }[];
      expect(invoices.length).toBeGreaterThanOrEqual(INVOICES / 2);
      const mails = await inbox.waitFor(email, invoices.length);
      // Whatever else arrives would arrive by now: every job of the customer has settled.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const pending = (await after.get(`/emails?customer_id=${buyer.customerId}&status=pending`)).body
          .data as unknown[];
        if (pending.length === 0) break;
        if (Date.now() > deadline) throw new Error('email jobs still pending after the restart');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const jobs = (await after.get(`/emails?customer_id=${buyer.customerId}&per_page=50`)).body.data as {
        status: string;
        message_id: string;
      }[];
      expect(jobs).toHaveLength(invoices.length);
      expectEvery(jobs, (job) => job.status === 'sent', { what: 'email jobs' });
      const messageIds = inbox.to(email).map((item) => item.mail.messageId);
      expect(messageIds.sort()).toEqual(jobs.map((job) => job.message_id).sort());
      expect(mails.length).toBe(invoices.length);
    } finally {
      await restarted.close();
    }
  });
});
