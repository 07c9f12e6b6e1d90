import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import type { PostgresCatalogue } from '../../src/catalogue/postgres-catalogue.js';
import { composeService, type ServiceOptions } from '../../src/compose-service.js';
import { NETWORKS } from '../../src/listing/networks.js';
import { askedTwice, warmUp, warmUpQueryOf } from '../../src/lookup/warm-up.js';
import type { Pence } from '../../src/money/pence.js';
import { parseQuery } from '../../src/query/parse-query.js';
import { startPriceSearch } from '../../src/start-price-search.js';
import { warmUpOverHttp } from '../../src/warm-up-over-http.js';
import { catalogueLocation, ENGINES, type Engine, kettleOffer, queryDatabase } from '../support/catalogue-engines.js';

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

/**
 * A service on a 30-listing SQLite catalogue whose full-text index another connection then drops under it: every
 * catalogue search fails.
 */
async function serviceOnBrokenIndex() {
  const dir = mkdtempSync(join(tmpdir(), 'price-search-warm-up-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'catalogue.db');
  const store = CatalogueStore.open(path);
  store.upsert(Array.from({ length: 30 }, (_, index) => kettleOffer(index)));
  store.close();
  const service = await composeService({ cataloguePath: path, statePath: ':memory:', demoFeed: false });
  onTestFinished(() => service.close());
  const other = new Database(path);
  other.exec('DROP TABLE listings_fts');
  other.close();
  return service;
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

  it('over HTTP, leaves no answer in the service, no health record and no quota used (ADR 0229)', async () => {
    const { service } = await composedOn(engine, { demoFeed: true });
    const report = await warmUpOverHttp(service, 600_000);
    expect(report).toMatchObject({ ran: true, overHttp: true, failed: 0, firstError: undefined });
    expect(report.lookups).toBeGreaterThan(200);
    expect(service.deps.engine.cachedLookups).toBe(0);
    expect(answersKept(service.catalogue)).toBe(0);
    expect(service.deps.health.report('catalogue').status).toBe('unknown');
  });

  it('does nothing when disabled', async () => {
    const { service, location } = await composedOn(engine, { demoFeed: true });
    const report = await service.warmUp(0);
    expect(report).toEqual({
      ran: false,
      overHttp: false,
      ms: 0,
      prepareMs: 0,
      lookups: 0,
      failed: 0,
      firstError: undefined,
      stoppedByBudget: false,
    });
    if (engine === 'postgres') {
      // Not even the preparation: the word table the demo import left stale is still unbuilt.
      const [words] = await queryDatabase<{ n: string }>(location, 'SELECT count(*) AS n FROM catalogue_words');
      expect(Number(words?.n)).toBe(0);
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
    expect(running.warmUp).toMatchObject({ ran: true, overHttp: true, lookups: 0, failed: 0 });
    expect((await fetch(`${running.url}/health`)).status).toBe(200);
  });

  it('sends its lookups over HTTP to a stand-in before listening, each query twice, and leaves nothing behind (ADR 0229)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'price-search-warm-up-http-'));
    const statePath = join(dir, 'state.db');
    // On SQLite a file, so that the catalogue the first composition fills is the one the service opens.
    const { location, drop } =
      engine === 'sqlite'
        ? { location: join(dir, 'catalogue.db'), drop: async () => {} }
        : await catalogueLocation(engine);
    // A key of the service's own, created before the start: the warm-up must not touch its quota.
    const keyed = await composeService({
      ...(engine === 'sqlite' ? { cataloguePath: location } : { catalogueUrl: location }),
      statePath,
      demoFeed: true,
    });
    const { key } = keyed.keys.create({ plan: 'pro', label: 'client', now: new Date() });
    await keyed.close();
    const running = await startPriceSearch({
      port: 0,
      ...(engine === 'sqlite' ? { cataloguePath: location } : { catalogueUrl: location }),
      statePath,
      demoFeed: false,
      warmUpMs: 600_000,
    });
    onTestFinished(async () => {
      await running.close();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    });
    const report = running.warmUp;
    expect(report).toMatchObject({
      ran: true,
      overHttp: true,
      failed: 0,
      firstError: undefined,
      stoppedByBudget: false,
    });
    // Every query asked twice: computed, then from the stand-in's own cache.
    expect(report.lookups).toBeGreaterThan(200);
    expect(report.lookups % 2).toBe(0);

    // The client's first lookup is the first of its month, and the service's own cache held nothing before it.
    const ask = () =>
      fetch(`${running.url}/api/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'kettle' }),
      });
    const first = await ask();
    expect(first.status).toBe(200);
    const limit = Number(first.headers.get('x-quota-limit'));
    expect(Number(first.headers.get('x-quota-remaining'))).toBe(limit - 1);
    // Nothing the stand-in recorded reached the service's state: its only key is the client's, with one lookup.
    await running.close();
    const state = new Database(statePath, { readonly: true });
    onTestFinished(() => {
      state.close();
    });
    expect(state.prepare('SELECT label FROM api_keys').pluck().all()).toEqual(['client']);
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

  it('over HTTP, reports each lookup the stand-in does not answer with listings, and goes on', async () => {
    const service = await serviceOnBrokenIndex();

    const report = await warmUpOverHttp(service, 600_000);
    expect(report).toMatchObject({ ran: true, overHttp: true });
    expect(report.lookups).toBeGreaterThan(0);
    expect(report.failed).toBe(report.lookups);
    expect(report.firstError).toMatch(/^the stand-in answered 5\d\d: /);
    expect(service.deps.health.report('catalogue').status).toBe('unknown');
  });

  it('reports a failing lookup and goes on; the service still answers', async () => {
    const service = await serviceOnBrokenIndex();

    const report = await service.warmUp(600_000);
    expect(report.ran).toBe(true);
    expect(report.lookups).toBeGreaterThan(0);
    expect(report.failed).toBe(report.lookups);
    expect(report.firstError).toContain('listings_fts');
    expect(service.deps.health.report('catalogue').status).toBe('unknown');
    const health = await createApp(service.deps).request('/health');
    expect(health.status).toBe(200);
  });

  it('over HTTP asks each query twice, a block of 100 at a time, so that a short budget still repeats some', () => {
    const texts = Array.from({ length: 250 }, (_, index) => `q${index}`);
    const asked = askedTwice(texts);
    expect(asked).toHaveLength(500);
    expect(asked.slice(0, 200)).toEqual([...texts.slice(0, 100), ...texts.slice(0, 100)]);
    expect(asked.slice(400)).toEqual([...texts.slice(200), ...texts.slice(200)]);
  });

  it('makes its queries from listings: title words, every budget shape, a typo, conditions, cheapest first', () => {
    const sample = { title: 'Smeg Retro Kettle KLF03', pricePence: 9_950 as Pence, condition: 'used' as const };
    const texts = Array.from({ length: 12 }, (_, index) => warmUpQueryOf(sample, index));
    expect(texts).toEqual([
      'Smeg',
      'Smeg Retro under £100',
      'Smeg Retro Kettle',
      'Smeg Retro Ketlte',
      'Smeg Retro between £49 and £149',
      'used Smeg Retro Kettle',
      'Smeg',
      'Smeg Retro below 100 pounds',
      'new Smeg Retro Kettle £100 max',
      'Smeg over £49',
      'cheapest Smeg Retro <£100',
      'refurbished Smeg Retro Kettle',
    ]);
    // Each price phrase is understood as a budget around the listing's price, not left in the words.
    const parsed = texts.map((text) => parseQuery(text));
    expect(parsed.map((query) => query.terms.length)).toEqual([1, 2, 3, 3, 2, 3, 1, 2, 3, 1, 2, 3]);
    for (const index of [1, 4, 7, 8, 10]) expect(parsed[index]?.budget.maxPence).toBeGreaterThanOrEqual(9_950);
    for (const index of [4, 9]) expect(parsed[index]?.budget.minPence).toBeLessThanOrEqual(9_950);
    expect(parsed.map((query) => query.condition)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'used',
      undefined,
      undefined,
      'new',
      undefined,
      undefined,
      'refurbished',
    ]);
    expect(parsed[10]?.sort).toBe('price_asc');
  });
});
