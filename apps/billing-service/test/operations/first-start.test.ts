/**
 * Two `drawdown serve --demo --migrate` processes started together on one empty database (the
 * issue saw two demo accounts in 4 of 5 trials): they make one demo account between them, with a
 * sandbox key and no live key, and only the process that made it shows its key, after listening.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestStorage, ENGINES, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import {
  buildService,
  runCli,
  runCliInProcess,
  type ServeProcess,
  startServe,
  storageFlags,
} from '../support/cli-process.js';

describe.each(ENGINES)('%s: two first starts at once', (engine) => {
  let storage: TestStorage;
  let storageArgs: string[];
  const servers: ServeProcess[] = [];

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage(engine);
    storageArgs = storageFlags(storage);
  }, 180_000);
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await storage?.dispose();
  });

  it('make one demo account with one sandbox key, shown by the process that made it', async () => {
    const started = await Promise.all([
      startServe([...storageArgs, '--migrate', '--demo']),
      startServe([...storageArgs, '--migrate', '--demo']),
    ]);
    servers.push(...started);
    const outputs = await Promise.all(
      started.map((server) => server.waitFor(/Created demo account acc_\w+|exists already/)),
    );
    const makers = outputs.filter((output) => output.includes('Created demo account'));
    expect(makers, outputs.join('\n---\n')).toHaveLength(1);
    const maker = makers[0] ?? '';
    // The key comes after the listening banner, and no live key is made unless asked.
    expect(maker.indexOf('sandbox: pdl_sdbx_apikey_')).toBeGreaterThan(maker.indexOf('sandbox: http://'));
    expect(outputs.join('\n')).not.toContain('pdl_live_');
    const accountId = /Created demo account (acc_\w+)/.exec(maker)?.[1];
    const other = outputs.find((output) => !output.includes('Created demo account')) ?? '';
    expect(other).toContain(`${accountId} exists already`);
    expect(other).not.toMatch(/pdl_sdbx_apikey_/);

    const sandboxKey = /sandbox:\s+(pdl_sdbx_apikey_\S+)/.exec(maker)?.[1] ?? '';
    for (const server of started)
      expect((await apiClient(server.sandboxUrl, sandboxKey).get('/meters')).status).toBe(200);
    // What the database holds, read by the commands in this process (ADR 0926): the processes
    // under test are the two servers.
    const accounts = await runCliInProcess(['accounts', 'list', '--json', ...storageArgs]);
    expect(
      (JSON.parse(accounts.stdout) as { accounts: { id: string }[] }).accounts.map((account) => account.id),
    ).toEqual([accountId]);
    const keys = await runCliInProcess(['keys', 'list', '--account', accountId ?? '', '--json', ...storageArgs]);
    expect((JSON.parse(keys.stdout) as { keys: { environment: string }[] }).keys.map((key) => key.environment)).toEqual(
      ['sandbox'],
    );
  }, 120_000);
});

describe('drawdown init --keys-file', () => {
  let storage: TestStorage;
  let storageArgs: string[];

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage('sqlite');
    storageArgs = ['--data-dir', storage.dataDir, '--migrate'];
  }, 180_000);
  afterAll(() => storage?.dispose());

  it('writes the keys to a new owner-only file, never over an existing one, and only once', async () => {
    const keysFile = join(storage.dataDir, 'demo-keys.json');
    writeFileSync(join(storage.dataDir, 'taken.json'), '{}');
    // The refusal and the checks after it run in this process (ADR 0926); the keys file is written
    // by a real process, with its own umask and exit code.
    const refused = await runCliInProcess(['init', '--keys-file', join(storage.dataDir, 'taken.json'), ...storageArgs]);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('exists already');

    const made = await runCli(['init', '--demo-live-key', '--keys-file', keysFile, ...storageArgs]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).not.toMatch(/pdl_(live|sdbx)_/);
    expect(statSync(keysFile).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(keysFile, 'utf8')) as { accountId: string; keys: Record<string, string> };
    expect(written.keys.sandbox).toMatch(/^pdl_sdbx_apikey_/);
    expect(written.keys.live).toMatch(/^pdl_live_apikey_/);
    // The refused first attempt made nothing: this is the only account.
    const accounts = await runCliInProcess(['accounts', 'list', '--json', ...storageArgs]);
    expect(
      (JSON.parse(accounts.stdout) as { accounts: { id: string }[] }).accounts.map((account) => account.id),
    ).toEqual([written.accountId]);

    const again = await runCliInProcess(['init', '--keys-file', join(storage.dataDir, 'again.json'), ...storageArgs]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${written.accountId} exists already`);
    expect(existsSync(join(storage.dataDir, 'again.json'))).toBe(false);
  }, 120_000);
});
