/**
 * Three built `drawdown serve` processes share one PostgreSQL database behind a real HAProxy
 * configured as `deploy/haproxy.cfg` is (shorter check intervals)
 * (Debian's, started by the test from `scripts/ensure-haproxy.sh`'s install), which health-checks
 * each process's `/readyz`. Clients are the SDK with its own rules: usage events through
 * `reportUsage` (resent unchanged on no answer, 5xx, 429 and a per-event `internal_error`),
 * reads through `customers.get` (an idempotent request, repeated on the same failures). One
 * process is SIGKILLed under that load. Afterwards: no client call ended in an error (every
 * failure it met was one its rules retry), HAProxy's health check took the dead process out,
 * every event is stored exactly once, and the balance equals a recomputation from the events.
 *
 * PostgreSQL only: several processes on one SQLite file is not a supported deployment.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decimal } from '@drawdown/billing-core';
import { type CoreServices, composeServices } from '@drawdown/billing-service';
import { Drawdown, type UsageReport } from '@drawdown/sdk';
import { createTestStorage, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import {
  buildService,
  createAccountWithCli,
  type ServiceProcess,
  startServiceProcess,
} from '../usage/service-process.js';
import { expectStoredBalancesRecomputable, startSubscriptionInStore } from '../usage/usage-fixtures.js';

const EVENTS = 90;
const SENDERS = 6;
const READERS = 2;
/** The kill lands once this many events were accepted, mid-stream. */
const KILL_AFTER = 30;
const RATE = '1.5';
/** Tenths of the quantity, so sums stay exact: quantities are 0.5, 1 and 2. */
const TENTHS = [5, 10, 20];

/** The HAProxy program: on PATH, or where Debian puts it (root's PATH may lack /usr/sbin). */
function haproxyBinary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy || echo /usr/sbin/haproxy']).toString().trim();
  } catch {
    return '/usr/sbin/haproxy';
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** One command on HAProxy's admin socket, its whole answer. */
function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let answer = '';
    connection.on('data', (chunk) => {
      answer += chunk.toString();
    });
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
    connection.write(`${command}\n`);
  });
}

/** Each backend server's name and status (`UP`, `DOWN`, …) from `show stat`. */
async function serverStates(socket: string): Promise<Map<string, string>> {
  const [header = '', ...rows] = (await adminCommand(socket, 'show stat')).trim().split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const states = new Map<string, string>();
  for (const row of rows) {
    const fields = row.split(',');
    const record = Object.fromEntries(columns.map((column, index) => [column, fields[index] ?? '']));
    if (record.pxname === 'drawdown' && record.svname?.startsWith('s')) states.set(record.svname, record.status ?? '');
  }
  return states;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('postgres: three processes behind HAProxy, one killed under load', () => {
  let storage: TestStorage;
  let services: CoreServices;
  const processes: ServiceProcess[] = [];
  let haproxy: ChildProcess | undefined;
  let haproxyOutput = '';
  let folder: string;
  let socket: string;
  let balancerUrl: string;
  let accountId: string;
  let key: string;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage('postgres');
    ({ accountId, sandboxKey: key } = await createAccountWithCli(storage));
    // Kept as each starts, so one failing to start leaves none behind.
    await Promise.all(
      [0, 1, 2].map(async () => {
        processes.push(await startServiceProcess(storage, key));
      }),
    );
    services = await composeServices(storage);
    folder = mkdtempSync(join(tmpdir(), 'drawdown-haproxy-'));
    socket = join(folder, 'admin.sock');
    const port = await freePort();
    balancerUrl = `http://127.0.0.1:${port}`;
    const servers = processes.map((process, index) => {
      const sandbox = new URL(process.sandboxUrl);
      const operations = new URL(process.operationsUrl ?? '');
      // Traffic to the sandbox port, the health check to the operations port's /readyz.
      return `  server s${index} ${sandbox.host} check port ${operations.port}`;
    });
    const config = [
      'global',
      `  stats socket ${socket} mode 600 level admin`,
      'defaults',
      '  mode http',
      '  option forwardfor',
      '  timeout connect 2s',
      '  timeout client 30s',
      '  timeout server 30s',
      // A check answered later than this counts as failed (without it, `inter` bounds the answer).
      '  timeout check 5s',
      // A connection the dead process refuses is tried again, on another server: the request was never sent.
      '  retries 3',
      '  option redispatch 1',
      'frontend api',
      `  bind 127.0.0.1:${port}`,
      '  default_backend drawdown',
      'backend drawdown',
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      '  default-server inter 300ms fastinter 150ms downinter 300ms fall 2 rise 2',
      ...servers,
      '',
    ].join('\n');
    const configFile = join(folder, 'haproxy.cfg');
    writeFileSync(configFile, config);
    haproxy = spawn(haproxyBinary(), ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout?.on('data', (chunk: Buffer) => {
      haproxyOutput += chunk.toString();
    });
    haproxy.stderr?.on('data', (chunk: Buffer) => {
      haproxyOutput += chunk.toString();
    });
    await until('every server up behind HAProxy', async () => {
      const states = await serverStates(socket);
      return states.size === 3 && [...states.values()].every((state) => state === 'UP');
    }).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\n${haproxyOutput}`);
    });
  }, 240_000);

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    await Promise.all(processes.map((process) => process.stop('SIGKILL')));
    await services?.store.close();
    await storage?.dispose();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('no client sees an error its rules would not retry, and nothing is lost or doubled', async () => {
    // What every attempt got: the status, or 0 for no answer.
    const answers: number[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      try {
        const response = await fetch(input, init);
        answers.push(response.status);
        return response;
      } catch (error) {
        answers.push(0);
        throw error;
      }
    };
    const drawdown = new Drawdown(key, {
      baseUrl: balancerUrl,
      fetch: recordingFetch,
      timeoutMs: 20_000,
      maxRetries: 8,
      retryBackoff: { baseDelayMs: 20, maxDelayMs: 300 },
      usageRetry: { maxAttempts: 12, baseDelayMs: 20, maxDelayMs: 300 },
    });
    const api = apiClient(balancerUrl, key);
    const unitId = (await api.post('/usage-balance-units', { name: 'Credits', unit_name: 'credits' })).id;
    const action = 'balanced_call';
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
        billing_cycle: { interval: 'month', frequency: 1 },
        allowances: [{ usage_balance_unit_id: unitId, amount: '10' }],
      })
    ).id;
    const customerId = (await api.post('/customers', { email: 'balanced@example.com' })).id;
    await startSubscriptionInStore(services, accountId, customerId, [{ priceId, quantity: 1 }]);

    const victim = processes[1] as ServiceProcess;
    const occurredAt = new Date().toISOString();
    const reports: UsageReport[] = [];
    let next = 0;
    let accepted = 0;
    let killed: Promise<void> | undefined;
    let loading = true;
    let reads = 0;
    const senders = Array.from({ length: SENDERS }, async () => {
      while (next < EVENTS) {
        const index = next;
        next += 1;
        const report = await drawdown.reportUsage({
          eventKey: `balanced-${index}`,
          customerId,
          action,
          quantity: String((TENTHS[index % TENTHS.length] ?? 10) / 10),
          occurredAt,
        });
        reports.push(report);
        if (report.kind === 'accepted') accepted += 1;
        if (accepted >= KILL_AFTER && !killed) killed = victim.stop('SIGKILL');
      }
    });
    // Reads run beside the writes; a read the rules gave up on rejects, and fails the test.
    const readers = Array.from({ length: READERS }, async () => {
      while (loading) {
        expect((await drawdown.customers.get(customerId)).id).toBe(customerId);
        reads += 1;
      }
    });
    await Promise.all(senders);
    loading = false;
    await Promise.all([...readers, killed]);

    // Every report ended accepted: each failure on the way was one the rules resend.
    expect(reports).toHaveLength(EVENTS);
    expect(reports.filter((report) => report.kind !== 'accepted')).toEqual([]);
    const failures = answers.filter((status) => status === 0 || status >= 400);
    expect(failures.filter((status) => status !== 0 && status < 500 && status !== 429)).toEqual([]);
    expect(victim.running()).toBe(false);
    // HAProxy's health check on /readyz took the dead process out, and keeps the others in.
    await until('the killed process down, the others up', async () => {
      const states = await serverStates(socket);
      return states.get('s1') === 'DOWN' && states.get('s0') === 'UP' && states.get('s2') === 'UP';
    });
    console.info(
      `balancer: ${EVENTS} events and ${reads} reads through HAProxy, one of three processes SIGKILLed after ${KILL_AFTER} events; ${failures.length} failed attempts retried by the client rules (${failures.map((status) => (status === 0 ? 'no answer' : String(status))).join(', ') || 'none'})`,
    );

    // Nothing lost or doubled: each event stored once, and the balance is a recomputation of them.
    const scope = { accountId, environment: 'sandbox' as const };
    await until('drawdowns applied', async () => {
      const row = await services.store.usageEvents.listByCustomer(scope, customerId);
      return row.length === EVENTS;
    });
    const stored = await services.store.usageEvents.listByCustomer(scope, customerId);
    expect(stored.map((event) => event.eventKey).sort()).toEqual(
      Array.from({ length: EVENTS }, (_, index) => `balanced-${index}`).sort(),
    );
    const totalTenths = Array.from({ length: EVENTS }, (_, index) => TENTHS[index % TENTHS.length] ?? 0).reduce(
      (sum, tenths) => sum + tenths,
      0,
    );
    const consumed = Decimal.fromBigInt(BigInt(totalTenths))
      .multiply(Decimal.parse('0.1'))
      .multiply(Decimal.parse(RATE));
    await until('every event drawn down', async () => {
      const balance = (await api.get(`/customers/${customerId}/usage-balances`)).list[0]?.balance as
        | { used: { total: string }; overage: { total: string } }
        | undefined;
      return (
        balance !== undefined &&
        Decimal.parse(balance.used.total).add(Decimal.parse(balance.overage.total)).toString() === consumed.toString()
      );
    });
    await expectStoredBalancesRecomputable(services.store, scope, customerId);
  }, 120_000);
});
