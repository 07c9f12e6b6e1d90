/**
 * Issue 38 item 5: `price-search keys create` writes the state the service of `npm start` reads. Both find the data
 * folder the same way (`PRICE_SEARCH_DATA_DIR`, else `price-search` in Drawdown's `DRAWDOWN_DATA_DIR`), and
 * `scripts/start.mjs` starts the price search on `priceSearchFiles` of that folder, as this test does.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { runCli } from '../../src/cli.js';
import { priceSearchFiles, readEnvironment } from '../../src/config.js';
import { startPriceSearch } from '../../src/start-price-search.js';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'price-search-npm-start-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the CLI and returns what it printed on stdout. */
async function cli(args: string[]): Promise<string> {
  const printed: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    printed.push(String(line));
  });
  vi.spyOn(console, 'error').mockImplementation(() => {});
  expect(await runCli(args)).toBe(0);
  vi.mocked(console.log).mockRestore();
  vi.mocked(console.error).mockRestore();
  return printed.join('\n').trim();
}

describe('keys for the service npm start runs', () => {
  it('finds the data folder in Drawdown’s data folder unless PRICE_SEARCH_DATA_DIR names one', () => {
    expect(readEnvironment({ DRAWDOWN_DATA_DIR: '/srv/drawdown' }).PRICE_SEARCH_DATA_DIR).toBe(
      join('/srv/drawdown', 'price-search'),
    );
    expect(readEnvironment({}).PRICE_SEARCH_DATA_DIR).toBe(join('data', 'price-search'));
    expect(
      readEnvironment({ DRAWDOWN_DATA_DIR: '/srv/drawdown', PRICE_SEARCH_DATA_DIR: '/srv/search' })
        .PRICE_SEARCH_DATA_DIR,
    ).toBe('/srv/search');
  });

  it('a pro key made with `keys create` is accepted by the service started as scripts/start.mjs starts it', async () => {
    const drawdownData = tempDir();
    vi.stubEnv('DRAWDOWN_DATA_DIR', drawdownData);
    vi.stubEnv('PRICE_SEARCH_DATA_DIR', '');
    const key = await cli(['keys', 'create', '--plan', 'pro', '--label', 'tester']);
    expect(key).toMatch(/^psk_/);

    const files = priceSearchFiles(
      readEnvironment({ ...process.env, DRAWDOWN_DATA_DIR: drawdownData }).PRICE_SEARCH_DATA_DIR,
    );
    const search = await startPriceSearch({
      port: 0,
      host: '127.0.0.1',
      warmUpMs: 0,
      cataloguePath: files.catalogue,
      statePath: files.state,
    });
    onTestFinished(() => search.close());
    const answer = await fetch(`${search.url}/api/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: 'kettle', max_results: 1 }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-quota-limit')).toBe('5000');
  });

  it('scripts/start.mjs starts the price search on those files', () => {
    const script = readFileSync(new URL('../../../../scripts/start.mjs', import.meta.url), 'utf8');
    expect(script).toContain('priceSearchFiles(searchEnvironment.PRICE_SEARCH_DATA_DIR)');
    expect(script).toContain('statePath: searchFiles.state');
  });
});
