/**
 * The README's quick start as a newcomer runs it (issue 36): `scripts/start.mjs` (what `npm start`
 * runs after its build) on a fresh data folder, the `export SANDBOX=… KEY=…` line it prints pasted
 * into a shell, the ids the README says to look up read with the calls it names, then the shell
 * commands of "A subscription in two sandbox calls" and of "Customer email", taken from the README
 * itself and run by bash and curl with only the `…` placeholders filled in. The transaction they make
 * completes, and the receipt the sandbox captured for it is what the email command reads.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** A port nothing listens on now, for a server the test starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The shell commands of the README's first code block after `heading`. */
function readmeCommands(heading: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf(heading);
  expect(start, heading).toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  expect(block, `a sh block after ${heading}`).not.toBeNull();
  return block?.[1] ?? '';
}

describe('the README quick start, against a fresh npm start', () => {
  let dataDir: string;
  let child: ChildProcess;
  let output = '';
  let exported = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'drawdown-quick-start-'));
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    child = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: {
        ...process.env,
        DRAWDOWN_DATA_DIR: dataDir,
        DRAWDOWN_LIVE_PORT: String(ports[0]),
        DRAWDOWN_SANDBOX_PORT: String(ports[1]),
        DRAWDOWN_PORTAL_PORT: String(ports[2]),
        DRAWDOWN_SEARCH_PORT: String(ports[3]),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    for (let waited = 0; waited < 600 && !/export SANDBOX=\S+ KEY=\S+/.test(output); waited += 1) {
      if (child.exitCode !== null) throw new Error(`npm start ended early:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    exported = /export SANDBOX=\S+ KEY=\S+/.exec(output)?.[0] ?? '';
    expect(exported, output).not.toBe('');
  }, 120_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs shell text in bash after the printed export line, as a terminal would. */
  function shell(commands: string): string {
    return execFileSync('bash', ['-euo', 'pipefail', '-c', `${exported}\n${commands}`], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
  }

  it('makes and pays a subscription with the README’s two calls, and reads the captured receipt', async () => {
    // The ids the README says to look up, with the calls it names.
    const customers = JSON.parse(shell('curl -sf "$SANDBOX/customers?per_page=50" -H "Authorization: Bearer $KEY"'))
      .data as { id: string }[];
    let customerId = '';
    let addressId = '';
    for (const customer of customers) {
      const addresses = JSON.parse(
        shell(`curl -sf "$SANDBOX/customers/${customer.id}/addresses" -H "Authorization: Bearer $KEY"`),
      ).data as { id: string }[];
      if (addresses[0]) {
        customerId = customer.id;
        addressId = addresses[0].id;
        break;
      }
    }
    const prices = JSON.parse(shell('curl -sf "$SANDBOX/prices?per_page=50" -H "Authorization: Bearer $KEY"')).data as {
      id: string;
      billing_cycle: unknown;
      status: string;
    }[];
    const priceId = prices.find((price) => price.billing_cycle !== null && price.status === 'active')?.id ?? '';
    expect([customerId, addressId, priceId]).toEqual([
      expect.stringMatching(/^ctm_/),
      expect.stringMatching(/^add_/),
      expect.stringMatching(/^pri_/),
    ]);

    const read = readmeCommands('## Customer email');
    type Email = { id: string; kind: string; status: string; customer_id: string; message: { subject: string } | null };
    const listed = () => (JSON.parse(shell(read)) as { data: Email[] }).data;
    const before = new Set(listed().map((email) => email.id));

    // The README's commands as written; only the `…` placeholders are filled in.
    const commands = readmeCommands('### A subscription in two sandbox calls')
      .replace(/^#.*\n/gm, '')
      .replace(/ctm_…/g, customerId)
      .replace(/add_…/g, addressId)
      .replace(/pri_…/g, priceId)
      .split(/\n(?=curl )/)
      .map((command) => command.trim())
      .filter((command) => command !== '');
    expect(commands).toHaveLength(2);
    const [create = '', pay = ''] = commands;
    const created = JSON.parse(shell(create)) as { data: { id: string; status: string } };
    expect(created.data.status).toBe('ready');
    const paid = JSON.parse(shell(pay.replace(/txn_…/g, created.data.id))) as { data: { status: string } };
    expect(paid.data.status).toBe('completed');

    // "read the captured receipt": the README's own command shows a new one for this customer once
    // the email worker has written it.
    let receipts: Email[] = [];
    for (let attempt = 0; attempt < 100 && receipts.length === 0; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      receipts = listed().filter(
        (email) => !before.has(email.id) && email.customer_id === customerId && email.status === 'captured',
      );
    }
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ kind: 'receipt', message: { subject: expect.any(String) } });
  }, 90_000);
});
