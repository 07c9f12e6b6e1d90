/**
 * The `drawdown` command as an operator uses it, built and run as separate processes against a
 * data folder (SQLite) and a PostgreSQL database: `serve` refuses an unmigrated database,
 * `init` makes the demo account once, and accounts and keys made or revoked by the CLI take effect
 * on the running server at once. The server always runs as its own process; most other commands
 * run through the binary's entry function in this process (`runCliInProcess`, ADR 0926), and
 * `serve`'s refusal, `migrate status`'s exit code and the usage refusals
 * before any data folder is opened run as real processes.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestStorage, ENGINES, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY_CACHE_TTL_MS } from '../../src/infrastructure/authenticated-key-cache.js';
import { apiClient, expectError } from '../support/api-client.js';
import {
  buildService,
  type CliResult,
  runCli,
  runCliInProcess,
  type ServeProcess,
  startServe,
  storageFlags,
} from '../support/cli-process.js';

beforeAll(() => buildService(), 120_000);
// Each test starts a server process or a few command processes: on a loaded machine that can take
// longer than the suite's 30 s default.
vi.setConfig({ testTimeout: 120_000 });

function parseJson(result: CliResult): Record<string, unknown> {
  expect(() => JSON.parse(result.stdout), `${result.stdout}${result.stderr}`).not.toThrow();
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

function field(value: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>(
    (current, key) =>
      current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[key] : undefined,
    value,
  );
}

describe.each(ENGINES)('%s: the drawdown command', (engine) => {
  let storage: TestStorage;
  let storageArgs: string[];
  let server: ServeProcess | undefined;
  const cli = (...args: string[]) => runCliInProcess([...args, ...storageArgs]);
  const spawned = (...args: string[]) => runCli([...args, ...storageArgs]);

  beforeAll(async () => {
    storage = await createTestStorage(engine);
    storageArgs = storageFlags(storage);
  });
  afterAll(async () => {
    await server?.stop();
    await storage.dispose();
  });

  it('refuses to serve an unmigrated database, makes no account or key on its own, and makes the demo account only when asked, once', async () => {
    const refused = await spawned('serve', '--ops-address', 'off');
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/pending migration.*drawdown migrate/);
    const status = await spawned('migrate', 'status', '--json');
    expect(status.code).toBe(3);
    expect(field(parseJson(status), 'state')).toBe('behind');

    const migrated = parseJson(await cli('migrate', '--json'));
    expect(migrated.applied).toContain('0001-foundation');
    expect(field(parseJson(await cli('migrate', 'status', '--json')), 'state')).toBe('current');
    expect(parseJson(await cli('migrate', '--json')).applied).toEqual([]);

    const first = await startServe(storageArgs);
    try {
      expect(first.output()).not.toMatch(/pdl_(live|sdbx)_apikey_|demo account/i);
      expect(parseJson(await cli('accounts', 'list', '--json')).accounts).toEqual([]);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const init = await cli('init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/Created demo account acc_[a-z\d]{26} \(early access\)/);
    expect(init.stdout).not.toContain('pdl_live_');
    const sandboxKey = /sandbox:\s+(pdl_sdbx_apikey_\S+)/.exec(init.stdout)?.[1] ?? '';
    const again = await cli('init', '--json');
    expect(field(parseJson(again), 'demo', 'created')).toBe(false);

    server = await startServe(storageArgs);
    expect((await apiClient(server.sandboxUrl, sandboxKey).get('/meters')).status).toBe(200);
    expectError(await apiClient(server.liveUrl, sandboxKey).get('/products'), 403, 'invalid_token');
    const accounts = parseJson(await cli('accounts', 'list', '--json'));
    expect(accounts.accounts).toHaveLength(1);
    const keys = parseJson(
      await cli('keys', 'list', '--account', String(field(accounts, 'accounts', '0', 'id')), '--json'),
    );
    expect((keys.keys as { environment: string }[]).map((key) => key.environment)).toEqual(['sandbox']);
    expect(server.output()).not.toMatch(/pdl_(live|sdbx)_apikey_/);
  }, 120_000);

  it('creates accounts and keys that work on the running server at once, and revokes them there', async () => {
    const running = server as ServeProcess;
    const [early, ordinary] = (
      await Promise.all([cli('accounts', 'create', '--early-access', '--json'), cli('accounts', 'create', '--json')])
    ).map(parseJson);
    expect(field(early, 'account', 'earlyAccess')).toBe(true);
    expect(field(ordinary, 'account', 'earlyAccess')).toBe(false);
    const earlyId = String(field(early, 'account', 'id'));
    const ordinaryId = String(field(ordinary, 'account', 'id'));
    expect(earlyId).toMatch(/^acc_[a-z\d]{26}$/);

    const create = (account: string, env: string, permission: string, ...more: string[]) =>
      cli('keys', 'create', '--account', account, '--env', env, '--permission', permission, ...more, '--json');
    const [readOnly, full, usageOnOrdinary, expired, unknownKey] = await Promise.all([
      create(earlyId, 'sandbox', 'product.read'),
      create(earlyId, 'live', 'all'),
      create(ordinaryId, 'sandbox', 'meter.write'),
      create(earlyId, 'live', 'all', '--expires-at', '2001-01-01T00:00:00Z'),
      cli('keys', 'revoke', 'apikey_00000000000000000000000000', '--json'),
    ]);

    // A key with product.read reads products on its own environment only, and cannot write.
    expect(readOnly.code, readOnly.stderr).toBe(0);
    const readOnlyJson = parseJson(readOnly);
    const readToken = String(readOnlyJson.token);
    expect(readToken).toMatch(/^pdl_sdbx_apikey_[a-z\d]{26}_[A-Za-z\d]+$/);
    expect(field(readOnlyJson, 'key', 'permissions')).toEqual(['product.read']);
    expect(JSON.stringify(readOnlyJson)).not.toMatch(/secret_?hash/i);
    expect((await apiClient(running.sandboxUrl, readToken).get('/products')).status).toBe(200);
    expectError(
      await apiClient(running.sandboxUrl, readToken).post('/products', { name: 'x', tax_category: 'saas' }),
      403,
      'forbidden',
    );
    expectError(await apiClient(running.liveUrl, readToken).get('/products'), 403, 'invalid_token');

    // Usage-based permissions only for early access; no expiry in the past; no unknown key.
    for (const [result, code] of [
      [usageOnOrdinary, 'permission_requires_early_access'],
      [expired, 'invalid_field'],
      [unknownKey, 'api_key_not_found'],
    ] as const) {
      expect(result.code, result.stdout).toBe(1);
      expect(field(parseJson(result), 'error', 'code')).toBe(code);
    }

    // Revoking works on the running server within the second its key cache may hold the key (ADR 0710).
    const fullJson = parseJson(full);
    const fullToken = String(fullJson.token);
    const keyId = String(field(fullJson, 'key', 'id'));
    expect((await apiClient(running.liveUrl, fullToken).get('/meters')).status).toBe(200);
    const revoked = await cli('keys', 'revoke', keyId, '--json');
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(parseJson(revoked)).toEqual({ revoked: keyId });
    await new Promise((done) => setTimeout(done, KEY_CACHE_TTL_MS + 50));
    expectError(await apiClient(running.liveUrl, fullToken).get('/meters'), 403, 'invalid_token');

    const listed = parseJson(await cli('keys', 'list', '--account', earlyId, '--json'));
    expect(listed.keys).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: keyId, revokedAt: expect.any(String) })]),
    );
    expect(JSON.stringify(listed)).not.toMatch(/secret_?hash/i);
    // Secrets never reach the server's output.
    expect(running.output()).not.toContain(readToken.split('_').at(-1));
  }, 60_000);
});

// Usage errors do not depend on the storage engine, so one is enough; the cases run side by side.
describe('the drawdown command on bad usage', () => {
  let storage: TestStorage;

  beforeAll(async () => {
    storage = await createTestStorage('sqlite');
  });
  afterAll(() => storage.dispose());

  it.concurrent.each([
    ['an unknown command', ['frobnicate']],
    ['keys create without --account', ['keys', 'create', '--env', 'live', '--permission', 'all']],
    [
      'keys create with an unknown environment',
      ['keys', 'create', '--account', 'acc_x', '--env', 'staging', '--permission', 'all'],
    ],
    ['an unknown option', ['accounts', 'list', '--bogus']],
    ['an option without its value', ['keys', 'create', '--account']],
  ])('exits 2 on bad usage: %s', async (_label, args) => {
    const result = await runCliInProcess([...args, '--data-dir', storage.dataDir]);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(2);
    expect(result.stderr).toContain('Usage: drawdown');
  });

  it.concurrent.each([
    ['an unknown command', ['frobnicate']],
    ['an unknown subcommand', ['accounts', 'frobnicate']],
    ['a subcommand missing', ['keys']],
  ])('refuses %s before it opens or creates the default data folder', async (_label, args) => {
    const folder = await mkdtemp(join(tmpdir(), 'drawdown-cli-'));
    try {
      const result = await runCli(args, folder);
      expect(result.code, `${result.stdout}${result.stderr}`).toBe(2);
      expect(result.stderr).toContain('Usage: drawdown');
      expect(await readdir(folder)).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
