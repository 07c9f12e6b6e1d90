import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import type { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import { composeService, type ServiceOptions } from '../../src/compose-service.js';
import { NETWORKS } from '../../src/listing/networks.js';
import { warmUp, warmUpQueryOf } from '../../src/lookup/warm-up.js';
import type { Pence } from '../../src/money/pence.js';
import { startPriceSearch } from '../../src/start-price-search.js';
import { catalogueLocation, ENGINES, type Engine, kettleOffer } from '../support/catalogue-engines.js';

async function composedOn(engine: Engine, options: ServiceOptions) {
  const { location, drop } = await catalogueLocation(engine);
  const service = await composeService({
    ...(engine === 'sqlite' ? { cataloguePath: location } : { catalogueUrl: location }),
    statePath: ':memory:',
    ...options,
  });
  onTestFinished(async () => {
    await service.close();
    await drop();
  });
  return { service, location };
}

const answersKept = (catalogue: unknown): number => (catalogue as CatalogueStore | PostgresCatalogue).answersKept;

describe.each(ENGINES)('the start-up warm-up on %s (ADR 0222)', (engine) => {
  it('runs lookups from the catalogue and leaves no answer, no health record and no quota used', async () => {
    const { service } = await composedOn(engine, { demoFeed: true });
    const report = await service.warmUp(600_000);
    expect(report).toMatchObject({ ran: true, failed: 0, firstError: undefined });
    expect(report.lookups).toBeGreaterThan(100);
    expect(service.deps.engine.cachedLookups).toBe(0);
    expect(answersKept(service.catalogue)).toBe(0);
    expect(service.deps.health.report('catalogue').status).toBe('unknown');

    // The first client's lookup is computed, then kept, and counted against its quota as the first of the month.
    const app = createApp(service.deps);
    const response = await app.request('/api/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'kettle' }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as unknown[]).length).toBeGreaterThan(0);
    expect(service.deps.engine.cachedLookups).toBe(1);
    const limit = Number(response.headers.get('x-quota-limit'));
    expect(Number(response.headers.get('x-quota-remaining'))).toBe(limit - 1);
  });

  it('does nothing when disabled', async () => {
    const { service, location } = await composedOn(engine, { demoFeed: true });
    const report = await service.warmUp(0);
    expect(report).toEqual({
      ran: false,
      ms: 0,
      prepareMs: 0,
      lookups: 0,
      failed: 0,
      firstError: undefined,
      stoppedByBudget: false,
    });
    if (engine === 'postgres') {
      // Not even the preparation: the word table the demo import left stale is still unbuilt.
      const client = new pg.Client({ connectionString: location });
      await client.connect();
      onTestFinished(() => client.end());
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM catalogue_words');
      expect(Number(rows[0]?.n)).toBe(0);
    }
  });

  it('starts the service on an empty catalogue', async () => {
    const { location, drop } = await catalogueLocation(engine);
    const running = await startPriceSearch({
      port: 0,
      ...(engine === 'sqlite' ? { cataloguePath: location } : { catalogueUrl: location }),
      statePath: ':memory:',
      demoFeed: false,
    });
    onTestFinished(async () => {
      await running.close();
      await drop();
    });
    expect(running.warmUp).toMatchObject({ ran: true, lookups: 0, failed: 0 });
    expect((await fetch(`${running.url}/health`)).status).toBe(200);
  });
});

describe('the start-up warm-up', () => {
  it('stops its lookups when the time budget is spent', async () => {
    const { service } = await composedOn('sqlite', { demoFeed: true });
    let clock = 0;
    // Every reading of the clock is a millisecond later: a 20 ms budget allows a handful of lookups.
    const report = await warmUp(
      { engine: service.deps.engine, catalogue: service.catalogue, networks: NETWORKS },
      20,
      () => clock++,
    );
    expect(report.stoppedByBudget).toBe(true);
    expect(report.lookups).toBeGreaterThan(0);
    expect(report.lookups).toBeLessThan(20);
  });

  it('reports a failing lookup and goes on; the service still answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-search-warm-up-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'catalogue.db');
    const store = CatalogueStore.open(path);
    const items = Array.from({ length: 30 }, (_, index) => kettleOffer(index));
    store.upsert(items);
    store.close();
    const service = await composeService({ cataloguePath: path, statePath: ':memory:', demoFeed: false });
    onTestFinished(() => service.close());
    // Another connection breaks the full-text index under the running service: every catalogue search fails.
    const other = new Database(path);
    other.exec('DROP TABLE listings_fts');
    other.close();

    const report = await service.warmUp(600_000);
    expect(report.ran).toBe(true);
    expect(report.lookups).toBeGreaterThan(0);
    expect(report.failed).toBe(report.lookups);
    expect(report.firstError).toContain('listings_fts');
    expect(service.deps.health.report('catalogue').status).toBe('unknown');
    const health = await createApp(service.deps).request('/health');
    expect(health.status).toBe(200);
  });

  it('makes its queries from listings: title words, a budget above the price, a typo, a condition', () => {
    const sample = { title: 'Smeg Retro Kettle KLF03', pricePence: 9_950 as Pence, condition: 'used' as const };
    expect([0, 1, 2, 3, 4, 5].map((index) => warmUpQueryOf(sample, index))).toEqual([
      'Smeg',
      'Smeg Retro under £100',
      'Smeg Retro Kettle',
      'Smeg Retro Ketlte',
      'Smeg Retro',
      'used Smeg Retro Kettle',
    ]);
  });
});
