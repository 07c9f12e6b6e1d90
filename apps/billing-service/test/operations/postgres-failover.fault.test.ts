/**
 * The database server fails under load (ADR 1520). The test starts a PostgreSQL primary and a
 * synchronous standby from the installed binaries and three built `drawdown serve` processes
 * whose URL names both servers with `target_session_attrs=read-write`. While usage events stream
 * into all three, customers are created (their webhooks delivered to a receiver), sandbox
 * renewals run, and transactions are paid: sandbox ones by simulated card payments, live ones by
 * payments recorded through the API, whose receipts are email jobs (live ones sent to a real SMTP
 * server, sandbox ones captured):
 *
 * 1. the primary's postmaster is SIGKILLed and the standby promoted;
 * 2. the new primary hangs (SIGSTOP), readiness says so, the rebuilt standby is promoted and the
 *    hung server fenced (SIGKILL);
 * 3. the standby is lost: a commit waits for it and is kept, and is on the standby once it is back;
 * 4. the three processes go behind a real HAProxy (Debian's, as `deploy/haproxy.cfg` configures it:
 *    health checks on `/readyz`), SDK clients report usage and read through it, and one process is
 *    SIGKILLed: every SDK call resolves (whatever failed on the way was resent by its own rules),
 *    HAProxy takes the dead process out, and nothing is lost or doubled.
 *
 * After each fault: every event answered 202 `accepted` is stored and counted exactly once, the
 * balance equals a recomputation from the event log, every renewal period is billed once and no
 * transaction paid twice, every paid transaction has one captured payment and one receipt job,
 * every email job settled (sent or captured, none pending or failed) and every live one reached the
 * SMTP server under its Message-ID, every webhook event reached the receiver, and the same
 * processes serve again without a restart. A receipt the SMTP server accepted whose result the
 * dead primary never committed is sent again with the same Message-ID (ADR 1500): such repeats are
 * counted and printed, not asserted away (ADR 1525). Every refusal a sender met on the way is one the SDK's rules resend
 * (packages/sdk/src/usage/report-usage.ts): no answer, a 5xx, a 429, or a 202 whose event was
 * rejected with `internal_error` (the group commit's storage failure, answered per event: the
 * store was unreachable while the batch ran). The time writes were refused (the longest stretch
 * with no event accepted, from the fault on) is printed, a figure for the deployment notes, not
 * asserted.
 *
 * PostgreSQL only: SQLite has one file and no standby to fail over to.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CoreServices, composeServices } from '@drawdown/billing-service';
import { Drawdown, type UsageReport } from '@drawdown/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpInbox, startSmtpInbox } from '../email/smtp-inbox.js';
import { startWebhookReceiver, type WebhookReceiver } from '../notifications/webhook-receiver.js';
import { type ApiClient, apiClient } from '../support/api-client.js';
import { type Buyer, createBuyer, createOneOffPrice, readyTransaction } from '../transactions/transaction-fixtures.js';
import {
  buildService,
  createAccountWithCli,
  runCli,
  type ServiceProcess,
  startServiceProcess,
} from '../usage/service-process.js';
import { expectStoredBalancesRecomputable, startSubscriptionInStore } from '../usage/usage-fixtures.js';
import { startBalancer } from './haproxy.js';
import { PostgresPair, type PostgresServer } from './postgres-pair.js';

const RATE = '1.5';
const ALLOWANCE = '100';
const SENDERS = 6;
const SUBSCRIPTIONS = 2;
const DAY_MS = 86_400_000;
/** How long a webhook claim holds its notification: the delivery worker's default lease. */
const WEBHOOK_LEASE_MS = 60_000;
/** Tenths of the quantity, so sums stay exact: quantities are 0.5, 1 and 2. */
const TENTHS = [5, 10, 20];
/** Transactions paid in each environment while each fault lands. */
const PAYMENTS = 3;
/** How long an email claim holds its job: the email worker's default lease. */
const EMAIL_LEASE_MS = 120_000;

/** An answer that did not accept the event: its status (0 for no answer) and, for a 202, the event's error code. */
interface Refusal {
  readonly status: number;
  readonly code?: string | undefined;
}

interface Outcome {
  /** Answers before the event was accepted. */
  readonly refusals: Refusal[];
  acceptedAt: number | undefined;
}

/** Whether the SDK's usage rules resend after this answer: no answer, 5xx, 429, or a per-event `internal_error`. */
function resentByClientRules(refusal: Refusal): boolean {
  if (refusal.status === 202) return refusal.code === 'internal_error';
  return refusal.status === 0 || refusal.status === 429 || refusal.status >= 500;
}

function describeRefusals(refusals: readonly Refusal[]): string {
  const counts = new Map<string, number>();
  for (const { status, code } of refusals) {
    const label = status === 0 ? 'no answer' : code ? `${status} ${code}` : String(status);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, count]) => `${label} ×${count}`).join(', ') || 'none';
}

/**
 * Why the processes could not store usage events, from their logs: each failure's error and the
 * store's frame it came from (the statement's repository method), counted. The per-event
 * `internal_error` answers are these failures.
 */
function storageFailures(processes: readonly ServiceProcess[]): string {
  const counts = new Map<string, number>();
  for (const process of processes) {
    for (const line of process.output().split('\n')) {
      if (!line.includes('"msg":"storing a usage event')) continue;
      const entry = JSON.parse(line) as { err?: { type?: string; message?: string; stack?: string } };
      const frame = /usage-ingest\.js:\d+/.exec(entry.err?.stack ?? '')?.[0] ?? 'no ingest frame';
      const label = `${entry.err?.type}: ${entry.err?.message} (${frame})`;
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
  }
  return [...counts].map(([label, count]) => `${label} ×${count}`).join('; ') || 'none logged';
}

/** The longest stretch from `from` on with no event accepted, up to the last acceptance. */
function longestGap(from: number, acceptedTimes: readonly number[]): number {
  const times = [from, ...acceptedTimes.filter((time) => time > from)].sort((a, b) => a - b);
  let longest = 0;
  for (let index = 1; index < times.length; index += 1)
    longest = Math.max(longest, (times[index] ?? 0) - (times[index - 1] ?? 0));
  return longest;
}

describe('postgres: the primary fails under load', () => {
  let pair: PostgresPair;
  let servers: { primary: PostgresServer; standby: PostgresServer };
  let dataDir: string;
  let services: CoreServices;
  const processes: ServiceProcess[] = [];
  let receiver: WebhookReceiver;
  let inbox: SmtpInbox;
  let accountId: string;
  /** The live API and its paying customer, the sandbox's paying customer, and a one-off price in each. */
  let live: ApiClient;
  let liveKey: string;
  let payers: Record<'live' | 'sandbox', { buyer: Buyer; priceId: string }>;
  /** Every transaction paid under a fault, with its environment. */
  const paid: { id: string; environment: 'live' | 'sandbox' }[] = [];
  let key: string;
  let api: ApiClient;
  let customerId: string;
  let action: string;
  const subscriptionIds: string[] = [];
  /** Every usage event sent so far, by key, with its quantity in tenths. */
  const sent = new Map<string, number>();
  let eventCounter = 0;
  let customerCounter = 0;
  let sandboxDays = 0;

  beforeAll(async () => {
    buildService();
    pair = PostgresPair.create();
    const primary = await pair.startPrimary('a');
    const standby = await pair.startStandby('b', primary);
    await PostgresPair.waitForSyncStandby(primary);
    servers = { primary, standby };
    const url = `postgres://postgres@127.0.0.1:${primary.port},127.0.0.1:${standby.port}/postgres?target_session_attrs=read-write`;
    dataDir = mkdtempSync(join(tmpdir(), 'drawdown-failover-'));
    const storage = { dataDir, databaseUrl: url };
    ({ accountId, sandboxKey: key } = await createAccountWithCli(storage));
    receiver = await startWebhookReceiver();
    inbox = await startSmtpInbox();
    liveKey = String(
      (await runCli(['keys', 'create', '--account', accountId, '--env', 'live', '--permission', 'all'], storage)).token,
    );
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
      storage,
    );
    const flags = [
      '--allow-private-webhooks',
      // Live receipts go to a real SMTP server; the sandbox captures its own.
      '--smtp-url',
      inbox.url,
      // Short timeouts, so a hung server is noticed within seconds (the defaults are 5 s and 60 s).
      '--database-connect-timeout-ms',
      '1500',
      '--database-statement-timeout-ms',
      '3000',
      '--webhook-poll-ms',
      '100',
    ];
    // Kept as each starts, so one failing to start leaves none behind.
    await Promise.all(
      [0, 1, 2].map(async () => {
        processes.push(await startServiceProcess(storage, key, flags));
      }),
    );
    services = await composeServices({ dataDir, databaseUrl: url, databaseConnectTimeoutMs: 1500 });
    api = apiClient(processes[0]?.sandboxUrl ?? '', key);
    // Webhooks first: every event from here on has a destination.
    const setting = await api.post('/notification-settings', {
      description: 'failover',
      type: 'url',
      destination: receiver.url,
      subscribed_events: ['customer.created', 'transaction.created', 'transaction.billed'],
    });
    expect(setting.status, setting.text).toBe(201);
    action = 'failover_call';
    const unitId = (await api.post('/usage-balance-units', { name: 'Credits', unit_name: 'credits' })).id;
    expect(
      (
        await api.post('/meters', {
          usage_balance_unit_id: unitId,
          name: 'Calls',
          action,
          unit_name: 'call',
          rate: RATE,
        })
      ).status,
    ).toBe(201);
    const productId = (await api.post('/products', { name: 'Plan', tax_category: 'saas' })).id;
    const priceId = (
      await api.post('/prices', {
        product_id: productId,
        description: 'Plan',
        unit_price: { amount: '1000', currency_code: 'USD' },
        billing_cycle: { interval: 'day', frequency: 1 },
        allowances: [{ usage_balance_unit_id: unitId, amount: ALLOWANCE }],
      })
    ).id;
    customerId = (await api.post('/customers', { email: 'usage@example.com' })).id;
    subscriptionIds.push(await startSubscriptionInStore(services, accountId, customerId, [{ priceId, quantity: 1 }]));
    for (let index = 1; index < SUBSCRIPTIONS; index += 1) {
      const other = (await api.post('/customers', { email: `renewal${index}@example.com` })).id;
      subscriptionIds.push(await startSubscriptionInStore(services, accountId, other, [{ priceId, quantity: 1 }]));
    }
    // The paying customers, after the webhook setting: their events have a destination too.
    live = apiClient(processes[0]?.liveUrl ?? '', liveKey);
    // A new account charges live only once its live tax settings are chosen (ADR 1439): no tax here.
    expect((await live.patch('/tax-settings', { rate_source: 'account', default_rate: '0' })).status).toBe(200);
    payers = {
      live: {
        buyer: await createBuyer(live, 'DE', { email: 'payer@customer.example' }),
        priceId: await createOneOffPrice(live, '1000', 'EUR'),
      },
      sandbox: {
        buyer: await createBuyer(api, 'DE', { email: 'sandbox-payer@customer.example' }),
        priceId: await createOneOffPrice(api, '1000', 'EUR'),
      },
    };
  }, 240_000);

  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await services?.store.close();
    await receiver?.close();
    await inbox?.close();
    pair?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends one usage event to a process until it is accepted (the client rule: resend unchanged), or the deadline. */
  async function sendUntilAccepted(
    eventKey: string,
    tenths: number,
    target: ServiceProcess,
    deadline: number,
  ): Promise<Outcome> {
    const outcome: Outcome = { refusals: [], acceptedAt: undefined };
    const body = JSON.stringify({
      events: [
        {
          event_key: eventKey,
          customer_id: customerId,
          action,
          quantity: String(tenths / 10),
          occurred_at: new Date().toISOString(),
        },
      ],
    });
    while (Date.now() < deadline) {
      let status = 0;
      let code: string | undefined;
      try {
        const response = await fetch(`${target.sandboxUrl}/usage-events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(20_000),
        });
        status = response.status;
        const answer = (await response.json()) as {
          data?: { events?: { status: string; error?: { code: string } }[] };
        };
        const result = answer.data?.events?.[0];
        if (status === 202 && result?.status === 'accepted') {
          outcome.acceptedAt = Date.now();
          return outcome;
        }
        code = result?.error?.code;
      } catch {
        status = 0;
      }
      outcome.refusals.push({ status, code });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return outcome;
  }

  /** Creates a customer until one answer says it exists (201, or 409 once an earlier try had committed). */
  async function createCustomer(target: ServiceProcess, deadline: number): Promise<Refusal[]> {
    customerCounter += 1;
    const email = `load${customerCounter}@example.com`;
    const refusals: Refusal[] = [];
    while (Date.now() < deadline) {
      const status = await fetch(`${target.sandboxUrl}/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
        signal: AbortSignal.timeout(20_000),
      })
        .then((response) => response.status)
        .catch(() => 0);
      if (status === 201 || status === 409) return refusals;
      refusals.push({ status });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`customer ${email} never created`);
  }

  /** Moves the sandbox clock to a fixed instant (the same request again changes nothing), until answered 200. */
  async function renewUntilAnswered(to: string, deadline: number): Promise<void> {
    while (Date.now() < deadline) {
      const status = await fetch(`${processes[1]?.sandboxUrl}/sandbox-clock/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to }),
        signal: AbortSignal.timeout(30_000),
      })
        .then((response) => response.status)
        .catch(() => 0);
      if (status === 200) return;
      expect(status === 0 || status >= 500, `advance answered ${status}`).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the sandbox clock never advanced');
  }

  /**
   * Pays a ready transaction through `target` until an answer says it is paid: 200, or
   * `transaction_not_payable` once an earlier attempt went unanswered or failed with a 5xx (that
   * attempt committed). Live records the payment the operator's provider reported (`POST
   * /transactions/{id}/payments`); the sandbox simulates the checkout's card payment. Returns the
   * refusals met, each one a client resends.
   */
  async function payUntilPaid(
    transactionId: string,
    environment: 'live' | 'sandbox',
    target: ServiceProcess,
    deadline: number,
  ): Promise<Refusal[]> {
    const [base, path, body, apiKey] =
      environment === 'live'
        ? [
            target.liveUrl,
            'payments',
            { method_type: 'bank_transfer', provider_reference: `wire-${transactionId}` },
            liveKey,
          ]
        : [target.sandboxUrl, 'simulate-payment', { outcome: 'success' }, key];
    const refusals: Refusal[] = [];
    while (Date.now() < deadline) {
      const answer = await fetch(`${base}/transactions/${transactionId}/${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      })
        .then(async (response) => ({
          status: response.status,
          code: ((await response.json()) as { error?: { code?: string } }).error?.code,
        }))
        .catch(() => ({ status: 0, code: undefined }));
      if (answer.status === 200 || answer.status === 201) return refusals;
      if (answer.code === 'transaction_not_payable' && refusals.length > 0) return refusals;
      expect(resentByClientRules(answer), `paying ${transactionId} answered ${answer.status} ${answer.code}`).toBe(
        true,
      );
      refusals.push(answer);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`transaction ${transactionId} never paid`);
  }

  /**
   * Runs the load across the three processes and calls `fault` once `faultAfter` events were
   * accepted; resolves once every event was accepted, with the refusals met and the longest
   * stretch from the fault on with no event accepted.
   */
  async function underLoad(
    events: number,
    faultAfter: number,
    fault: () => Promise<void>,
  ): Promise<{ faultAt: number; refused: number; refusals: Refusal[] }> {
    const keys = Array.from({ length: events }, () => {
      eventCounter += 1;
      const eventKey = `failover-${eventCounter}`;
      sent.set(eventKey, TENTHS[eventCounter % TENTHS.length] ?? 10);
      return eventKey;
    });
    const deadline = Date.now() + 120_000;
    let accepted = 0;
    let next = 0;
    let faultAt = 0;
    let faulted: Promise<void> | undefined;
    const refusals: Refusal[] = [];
    const acceptedTimes: number[] = [];
    const start = new Date(Date.now() + (sandboxDays + 1) * DAY_MS).toISOString();
    sandboxDays += 3;
    const renewals = (async () => {
      // Renewals run in the sandbox while the fault lands: advance the clock three days, a day at a time.
      while (!faulted) await new Promise((resolve) => setTimeout(resolve, 20));
      for (let day = 1; day <= 3; day += 1)
        await renewUntilAnswered(new Date(Date.parse(start) + (day - 1) * DAY_MS).toISOString(), deadline);
    })();
    const customers = (async () => {
      for (let index = 0; index < 3; index += 1) {
        const target = processes[index % processes.length] as ServiceProcess;
        refusals.push(...(await createCustomer(target, deadline)));
      }
    })();
    // Transactions made ready before the load, paid while the fault lands: their receipts are email jobs.
    const payable = await Promise.all(
      (['live', 'sandbox'] as const).flatMap((environment) =>
        Array.from({ length: PAYMENTS }, async () => {
          const { buyer, priceId } = payers[environment];
          const ready = await readyTransaction(environment === 'live' ? live : api, buyer, priceId);
          return { id: String(ready.id), environment };
        }),
      ),
    );
    const payments = (async () => {
      while (!faulted) await new Promise((resolve) => setTimeout(resolve, 20));
      await Promise.all(
        payable.map(async (transaction, index) => {
          const target = processes[index % processes.length] as ServiceProcess;
          refusals.push(...(await payUntilPaid(transaction.id, transaction.environment, target, deadline)));
          paid.push(transaction);
        }),
      );
    })();
    await Promise.all(
      Array.from({ length: SENDERS }, async (_, sender) => {
        while (next < keys.length) {
          const index = next;
          next += 1;
          const eventKey = keys[index] as string;
          const target = processes[(index + sender) % processes.length] as ServiceProcess;
          const outcome = await sendUntilAccepted(eventKey, sent.get(eventKey) ?? 10, target, deadline);
          expect(outcome.acceptedAt, `${eventKey} accepted`).toBeDefined();
          refusals.push(...outcome.refusals);
          acceptedTimes.push(outcome.acceptedAt ?? 0);
          accepted += 1;
          if (accepted >= faultAfter && !faulted) {
            faultAt = Date.now();
            faulted = fault();
          }
        }
      }),
    );
    await faulted;
    await Promise.all([renewals, customers, payments]);
    return { faultAt, refused: longestGap(faultAt, acceptedTimes), refusals };
  }

  /** Polls until `check` holds, failing with `what` after a minute. */
  async function until(what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!(await check().catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function readiness(process: ServiceProcess): Promise<number> {
    return fetch(`${process.operationsUrl}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
  }

  /** What every fault must leave: the counts checked after each. */
  async function expectNothingLostOrDoubled(primary: PostgresServer): Promise<void> {
    for (const process of processes) expect(process.running(), process.output()).toBe(true);
    for (const process of processes) await until('ready again', async () => (await readiness(process)) === 200);

    // Every event answered 202 is stored, once.
    const rows = await primary.query<{ event_key: string; copies: string }>(
      'select event_key, count(*) as copies from usage_events where account_id = $1 group by event_key',
      [accountId],
    );
    expect(rows.filter((row) => Number(row.copies) !== 1)).toEqual([]);
    expect(new Set(rows.map((row) => row.event_key))).toEqual(new Set(sent.keys()));

    // The balance: used + overage is quantity × rate over every event, each counted once, and the
    // stored balance equals a replay of its ledger.
    await until('drawdowns applied', async () => {
      const pending = await primary.query<{ pending: string }>('select count(*) as pending from usage_pending');
      return Number(pending[0]?.pending) === 0;
    });
    const scope = { accountId, environment: 'sandbox' as const };
    await expectStoredBalancesRecomputable(services.store, scope, customerId);

    // Each subscription billed once per period: no renewal transaction twice, none paid twice.
    for (const subscriptionId of subscriptionIds) {
      const list = (await api.get(`/transactions?subscription_id=${subscriptionId}&per_page=200`)).list as {
        id: string;
        origin: string;
        billing_period: { starts_at: string } | null;
        payments: { status: string }[];
      }[];
      const renewals = list.filter((transaction) => transaction.origin === 'subscription_recurring');
      expect(renewals.length, `${subscriptionId} renewed`).toBeGreaterThan(0);
      const periods = renewals.map((transaction) => transaction.billing_period?.starts_at);
      expect(new Set(periods).size, `${subscriptionId}: one transaction per period`).toBe(periods.length);
      for (const transaction of list)
        expect(transaction.payments.filter((payment) => payment.status === 'captured').length).toBeLessThanOrEqual(1);
    }

    // Every transaction paid under a fault: completed, with one captured payment.
    for (const { id, environment } of paid) {
      const transaction = (await (environment === 'live' ? live : api).get(`/transactions/${id}`)).entity as {
        status: string;
        payments: { status: string }[];
      };
      expect(transaction.status, id).toBe('completed');
      expect(transaction.payments.filter((payment) => payment.status === 'captured').length, id).toBe(1);
    }

    // No webhook lost: every event of a subscribed type reached the receiver.
    // The sandbox's: the webhook destination is a sandbox setting (live's payments have none).
    const logged = await primary.query<{ id: string; event_type: string }>(
      "select id, event_type from events where account_id = $1 and environment = 'sandbox' and event_type in ('customer.created', 'transaction.created', 'transaction.billed')",
      [accountId],
    );
    expect(logged.length).toBeGreaterThan(0);
    // A claim whose commit reached the standby but whose answer never reached the worker (the
    // server died or hung in between) holds its notification until the claim's lease runs out
    // (60 s, delivery-worker.ts); then any worker delivers it. So the wait outlasts one lease.
    // Emails likewise, with their own lease; both waits run at once.
    await Promise.all([
      receiver
        .waitFor(
          'every webhook delivered',
          (received) => {
            const delivered = new Set(received.map((webhook) => webhook.eventId));
            return logged.every((event) => delivered.has(event.id));
          },
          WEBHOOK_LEASE_MS + 20_000,
        )
        .catch(async (error: unknown) => {
          const delivered = new Set(receiver.received.map((webhook) => webhook.eventId));
          const missing = logged.filter((event) => !delivered.has(event.id));
          const rows = await primary.query(
            'select id, event_id, environment, status, times_attempted, due_at, claim_token from notifications where event_id = any($1)',
            [missing.map((event) => event.id)],
          );
          throw new Error(`${String(error)}: ${JSON.stringify(missing)} ${JSON.stringify(rows)}`);
        }),
      expectEmailsSettled(),
    ]);
  }

  /**
   * No email job lost: every job of the account settles (a live one sent, a sandbox one captured;
   * none pending, failed or skipped), each paid transaction has its one receipt, and every live
   * job's Message-ID reached the SMTP server. Repeats of one Message-ID are counted and printed.
   */
  async function expectEmailsSettled(): Promise<void> {
    type Job = { id: string; status: string; kind: string; message_id: string; customer_id: string };
    const jobsOf = async (client: ApiClient): Promise<Job[]> =>
      (await client.get('/emails?per_page=200')).list as unknown as Job[];
    const deadline = Date.now() + EMAIL_LEASE_MS + 20_000;
    let jobs: { live: Job[]; sandbox: Job[] } = { live: [], sandbox: [] };
    for (;;) {
      jobs = { live: await jobsOf(live), sandbox: await jobsOf(api) };
      const pending = [...jobs.live, ...jobs.sandbox].filter((job) => job.status === 'pending');
      if (pending.length === 0) break;
      if (Date.now() > deadline) throw new Error(`email jobs still pending: ${pending.map((job) => job.id)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(jobs.live.filter((job) => job.status !== 'sent')).toEqual([]);
    expect(jobs.sandbox.filter((job) => job.status !== 'captured')).toEqual([]);
    // The paying customers get receipts only: one per transaction paid (an occurrence makes one job).
    for (const environment of ['live', 'sandbox'] as const) {
      const theirs = jobs[environment].filter((job) => job.customer_id === payers[environment].buyer.customerId);
      expect(
        theirs.map((job) => job.kind),
        `${environment} receipts`,
      ).toEqual(paid.filter((transaction) => transaction.environment === environment).map(() => 'receipt'));
    }
    const delivered = inbox.received.map((item) => item.mail.messageId);
    expect(new Set(delivered)).toEqual(new Set(jobs.live.map((job) => job.message_id)));
    console.info(
      `emails: ${jobs.live.length} live jobs sent (${delivered.length - new Set(delivered).size} delivered again under the same Message-ID), ${jobs.sandbox.length} sandbox jobs captured`,
    );
  }

  it('loses and doubles nothing when the primary is killed and the standby promoted', async () => {
    const { primary, standby } = servers;
    let promotedAt = 0;
    const { faultAt, refused, refusals } = await underLoad(60, 20, async () => {
      primary.signal('SIGKILL');
      await until('the primary is gone', async () => primary.gone());
      // Readiness says so: the only server left answering is a standby.
      await until('not ready', async () => (await readiness(processes[2] as ServiceProcess)) === 503);
      await standby.promote();
      promotedAt = Date.now();
      // Alone, the new primary takes writes without waiting for a standby until one is rebuilt.
      await PostgresPair.requireSyncStandby(standby, false);
    });
    // Every refusal was one a client resends.
    expect(refusals.filter((refusal) => !resentByClientRules(refusal))).toEqual([]);
    console.info(
      `failover (SIGKILL): writes refused for ${refused} ms at most (kill to promotion ${promotedAt - faultAt} ms); refused answers resent: ${describeRefusals(refusals)}; storage failures logged so far: ${storageFailures(processes)}`,
    );
    await expectNothingLostOrDoubled(standby);
    // The old primary comes back as the new one's standby, on its own address (the runbook).
    servers = { primary: standby, standby: await pair.startStandby('a2', standby, primary.port) };
    await PostgresPair.requireSyncStandby(standby, true);
    await PostgresPair.waitForSyncStandby(standby);
  }, 300_000);

  it('follows a promotion while the primary hangs (SIGSTOP), then loses and doubles nothing', async () => {
    const { primary, standby } = servers;
    let promotedAt = 0;
    const { faultAt, refused, refusals } = await underLoad(45, 15, async () => {
      primary.signalAll('SIGSTOP');
      // Readiness notices a primary that no longer answers.
      await until('not ready', async () => (await readiness(processes[0] as ServiceProcess)) === 503);
      await standby.promote();
      promotedAt = Date.now();
      await PostgresPair.requireSyncStandby(standby, false);
    });
    expect(refusals.filter((refusal) => !resentByClientRules(refusal))).toEqual([]);
    console.info(
      `failover (SIGSTOP): writes refused for ${refused} ms at most (hang to promotion ${promotedAt - faultAt} ms); refused answers resent: ${describeRefusals(refusals)}; storage failures logged so far: ${storageFailures(processes)}`,
    );
    await expectNothingLostOrDoubled(standby);
    // Fence the hung server for good, and rebuild it as the standby.
    primary.kill();
    await until('the hung primary is gone', async () => primary.gone());
    servers = { primary: standby, standby: await pair.startStandby('b2', standby, primary.port) };
    await PostgresPair.requireSyncStandby(standby, true);
    await PostgresPair.waitForSyncStandby(standby);
  }, 300_000);

  it('waits for a lost standby and keeps the commit; the standby has it once back', async () => {
    const { primary, standby } = servers;
    standby.signalAll('SIGKILL');
    await until('the standby is gone', async () => standby.gone());
    eventCounter += 1;
    const eventKey = `failover-${eventCounter}`;
    sent.set(eventKey, 10);
    const answer = sendUntilAccepted(eventKey, 10, processes[2] as ServiceProcess, Date.now() + 60_000);
    // The commit waits for the synchronous standby.
    await until('a commit waits for the standby', async () => {
      const waiting = await primary.query("select 1 from pg_stat_activity where wait_event = 'SyncRep'");
      return waiting.length > 0;
    });
    standby.start();
    expect((await answer).acceptedAt).toBeDefined();
    await until('the standby has the event', async () => {
      const rows = await standby.query('select 1 from usage_events where event_key = $1', [eventKey]);
      return rows.length === 1;
    });
    await expectNothingLostOrDoubled(primary);
  }, 180_000);

  it('behind HAProxy, loses one process under load: no client error its rules would not resend, nothing lost or doubled', async () => {
    const balancer = await startBalancer(processes);
    try {
      await until('every process up behind HAProxy', async () =>
        [...(await balancer.states()).values()].every((state) => state === 'UP'),
      );
      // What every attempt got: the status, or 0 for no answer.
      const answers: number[] = [];
      const drawdown = new Drawdown(key, {
        baseUrl: balancer.url,
        fetch: async (input, init) => {
          try {
            const response = await fetch(input, init);
            answers.push(response.status);
            return response;
          } catch (error) {
            answers.push(0);
            throw error;
          }
        },
        timeoutMs: 20_000,
        maxRetries: 8,
        retryBackoff: { baseDelayMs: 20, maxDelayMs: 300 },
        usageRetry: { maxAttempts: 12, baseDelayMs: 20, maxDelayMs: 300 },
      });
      const victim = processes[1] as ServiceProcess;
      const occurredAt = new Date().toISOString();
      const keys = Array.from({ length: 60 }, () => {
        eventCounter += 1;
        const eventKey = `failover-${eventCounter}`;
        sent.set(eventKey, TENTHS[eventCounter % TENTHS.length] ?? 10);
        return eventKey;
      });
      const reports: UsageReport[] = [];
      let next = 0;
      let killed: Promise<void> | undefined;
      let loading = true;
      let reads = 0;
      // The SDK's own rules: a report resolves accepted, or with what it gave up on.
      const senders = Array.from({ length: SENDERS }, async () => {
        while (next < keys.length) {
          const eventKey = keys[next] as string;
          next += 1;
          reports.push(
            await drawdown.reportUsage({
              eventKey,
              customerId,
              action,
              quantity: String((sent.get(eventKey) ?? 10) / 10),
              occurredAt,
            }),
          );
          if (reports.length >= 20 && !killed) killed = victim.stop('SIGKILL');
        }
      });
      // Reads beside the writes; a read the rules gave up on rejects, and fails the test.
      const readers = Array.from({ length: 2 }, async () => {
        while (loading) {
          expect((await drawdown.customers.get(customerId)).id).toBe(customerId);
          reads += 1;
        }
      });
      await Promise.all(senders);
      loading = false;
      await Promise.all([...readers, killed]);
      expect(reports.filter((report) => report.kind !== 'accepted')).toEqual([]);
      const failures = answers.filter((status) => status === 0 || status >= 400);
      expect(failures.filter((status) => status !== 0 && status < 500 && status !== 429)).toEqual([]);
      // HAProxy's check on /readyz took the dead process out, and keeps the others in.
      await until('the killed process down, the others up', async () => {
        const states = await balancer.states();
        return states.get('s1') === 'DOWN' && states.get('s0') === 'UP' && states.get('s2') === 'UP';
      });
      console.info(
        `balancer: ${keys.length} events and ${reads} reads through HAProxy, one of three processes SIGKILLed after 20 events; failed attempts resent by the SDK's rules: ${failures.map((status) => (status === 0 ? 'no answer' : String(status))).join(', ') || 'none'}`,
      );
      // The two left serve on; everything else as after every fault.
      processes.splice(processes.indexOf(victim), 1);
      await expectNothingLostOrDoubled(servers.primary);
    } finally {
      balancer.close();
    }
  }, 240_000);
});
