import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { composeService, type PriceSearchService } from '../../src/compose-service.js';
import { httpSearch } from '../../src/quality/http-search.js';
import {
  formatFailures,
  formatScores,
  loadQuerySet,
  type QualityScores,
  scoreQuerySet,
} from '../../src/quality/query-set.js';
import { catalogueLocation, ENGINES } from '../support/catalogue-engines.js';

// The done-when lines of issue 17, on the demo catalogue through the HTTP API. QUALITY_VERBOSE=1 prints every
// failed query with what came back.
describe.each(ENGINES)('the labelled query set on the %s catalogue', (engine) => {
  let service: PriceSearchService;
  let scores: QualityScores;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const catalogue = await catalogueLocation(engine);
    drop = catalogue.drop;
    service = await composeService({
      ...(engine === 'sqlite' ? {} : { catalogueUrl: catalogue.location }),
      requestsPerMinute: { free: 1e9, pro: 1e9, scale: 1e9 },
      monthlyLookups: { free: undefined, pro: undefined, scale: undefined },
    });
    scores = await scoreQuerySet(loadQuerySet(), httpSearch(createApp(service.deps)));
    if (process.env.QUALITY_VERBOSE)
      console.log([...formatFailures(scores), ...formatScores(engine, scores)].join('\n'));
  });
  afterAll(async () => {
    await service.close();
    await drop();
  });

  it('holds at least 150 queries', () => {
    expect(scores.outcomes.length).toBeGreaterThanOrEqual(150);
  });

  it('answers every query, whatever its script, without a refusal', () => {
    expect(scores.outcomes.filter((outcome) => outcome.failed.includes('answered')).map((o) => o.query.query)).toEqual(
      [],
    );
  });

  it('puts a relevant result first on at least 95% of answerable queries', () => {
    expect(scores.relevantTop.passed / scores.relevantTop.total).toBeGreaterThanOrEqual(0.95);
  });

  it('honours every price, condition and retailer filter', () => {
    expect(scores.filters.passed).toBe(scores.filters.total);
  });

  it('gets at least 80% of typo queries right', () => {
    expect(scores.typos.passed / scores.typos.total).toBeGreaterThanOrEqual(0.8);
  });

  it('never substitutes another model for the one asked for', () => {
    expect(scores.silentSubstitutions).toBe(0);
  });
});
