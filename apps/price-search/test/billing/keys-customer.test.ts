/**
 * `keys create --customer`: the CLI links a paid key to its Drawdown customer in the state database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { CustomerLinkStore } from '../../src/billing/customer-links.js';
import { runCli } from '../../src/cli.js';
import { KeyStore } from '../../src/keys/key-store.js';
import { openStateDatabase } from '../../src/shared/state-database.js';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'price-search-billing-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function quiet(): void {
  const out = vi.spyOn(console, 'log').mockImplementation(() => {});
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  onTestFinished(() => {
    out.mockRestore();
    err.mockRestore();
  });
}

describe('price-search keys create --customer', () => {
  it('links the new key to the Drawdown customer', async () => {
    const dataDir = tempDir();
    quiet();
    const args = [
      'keys',
      'create',
      '--plan',
      'pro',
      '--customer',
      'ctm_01hv8x2ag5p1y5q9c7a5d3k0w8',
      '--data-dir',
      dataDir,
    ];
    expect(await runCli(args)).toBe(0);
    const db = openStateDatabase(join(dataDir, 'state.db'));
    onTestFinished(() => {
      db.close();
    });
    const [key] = new KeyStore(db).list();
    expect(new CustomerLinkStore(db).customerOf(key?.id ?? '')).toBe('ctm_01hv8x2ag5p1y5q9c7a5d3k0w8');
  });

  it('refuses a customer id that is not ctm_… and creates no key', async () => {
    const dataDir = tempDir();
    quiet();
    expect(await runCli(['keys', 'create', '--plan', 'pro', '--customer', 'acme', '--data-dir', dataDir])).toBe(1);
    const db = openStateDatabase(join(dataDir, 'state.db'));
    onTestFinished(() => {
      db.close();
    });
    expect(new KeyStore(db).list()).toEqual([]);
  });
});
