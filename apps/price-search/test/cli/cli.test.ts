import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { runCli } from '../../src/cli.js';
import { KeyStore } from '../../src/keys/key-store.js';
import { openStateDatabase } from '../../src/shared/state-database.js';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'price-search-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function captureOutput() {
  const out = vi.spyOn(console, 'log').mockImplementation(() => {});
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  onTestFinished(() => {
    out.mockRestore();
    err.mockRestore();
  });
  return {
    stdout: () => out.mock.calls.map((call) => call.join(' ')).join('\n'),
    stderr: () => err.mock.calls.map((call) => call.join(' ')).join('\n'),
  };
}

describe('price-search keys', () => {
  it('creates a key, prints it once on stdout and stores only its hash', async () => {
    const dataDir = tempDir();
    const output = captureOutput();
    expect(await runCli(['keys', 'create', '--plan', 'pro', '--label', 'acme', '--data-dir', dataDir])).toBe(0);
    const key = output.stdout().trim();
    expect(key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);

    const db = openStateDatabase(join(dataDir, 'state.db'));
    onTestFinished(() => {
      db.close();
    });
    const stored = new KeyStore(db).findByKey(key);
    expect(stored).toMatchObject({ plan: 'pro', label: 'acme', revokedAt: undefined });
    expect(output.stderr()).toContain(stored?.id);
  });

  it('revokes a key by id and refuses an unknown id', async () => {
    const dataDir = tempDir();
    const output = captureOutput();
    await runCli(['keys', 'create', '--plan', 'scale', '--data-dir', dataDir]);
    const db = openStateDatabase(join(dataDir, 'state.db'));
    onTestFinished(() => {
      db.close();
    });
    const [created] = new KeyStore(db).list();
    expect(await runCli(['keys', 'revoke', created?.id ?? '', '--data-dir', dataDir])).toBe(0);
    expect(new KeyStore(db).list()[0]?.revokedAt).toBeDefined();
    expect(await runCli(['keys', 'revoke', 'key_missing', '--data-dir', dataDir])).toBe(1);
    expect(output.stderr()).toContain('no active key key_missing');
  });

  it('refuses a plan that keys cannot carry', async () => {
    captureOutput();
    expect(await runCli(['keys', 'create', '--plan', 'free', '--data-dir', tempDir()])).toBe(1);
  });
});

describe('price-search import', () => {
  it('imports a feed, listing rejected rows with reasons and a summary', async () => {
    const dataDir = tempDir();
    const output = captureOutput();
    const feed = fileURLToPath(new URL('../fixtures/merchant-feed.tsv', import.meta.url));
    expect(await runCli(['import', feed, '--network', 'argos_uk', '--data-dir', dataDir])).toBe(0);
    expect(output.stderr()).toContain('rejected row 4 (id K3): missing title');
    expect(output.stderr()).toMatch(/Imported 2 of 8 rows into .*catalogue\.db in [\d.]+ s \(6 rejected\)\./);
  });

  it('fails on a missing file', async () => {
    const output = captureOutput();
    expect(await runCli(['import', '/nonexistent/feed.tsv', '--data-dir', tempDir()])).toBe(1);
    expect(output.stderr()).toContain('ENOENT');
  });

  it('refuses an unknown network', async () => {
    captureOutput();
    expect(await runCli(['import', 'feed.tsv', '--network', 'ebay_us', '--data-dir', tempDir()])).toBe(1);
  });
});

describe('price-search serve', () => {
  it('refuses a warm-up budget that is not a whole number of milliseconds up to 600000, before starting', async () => {
    const output = captureOutput();
    for (const value of ['soon', '1.5', '600001', '', '0x10', '1e3', ' 5']) {
      expect(await runCli(['serve', '--port', '0', '--data-dir', tempDir(), '--warm-up-ms', value])).toBe(1);
    }
    expect(output.stderr()).toContain('invalid --warm-up-ms "soon" (0 to 600000)');
    expect(output.stderr()).not.toContain('listening');
  });
});
