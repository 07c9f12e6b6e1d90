/**
 * Issue 38 item 3: both catalogue engines order every answer by one rule (ranking-rule.ts, ADR 0235), ties
 * included, so they answer the same query with the same listings in the same order. Before the rule was written
 * once, SQLite ranked with bm25 and PostgreSQL with ts_rank, and they disagreed on 135 of 598 answers of the
 * labelled and dev sets ("espresso machine" put a different product first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { composeService, type PriceSearchService } from '../../src/compose-service.js';
import type { WireListing } from '../../src/listing/listing.js';
import { productOf } from '../../src/quality/query-set.js';
import { catalogueLocation } from '../support/catalogue-engines.js';

const QUERIES = [
  'espresso machine',
  'headphones',
  '🎧 headphones',
  'iphone',
  'used iphone',
  'lego',
  'vacuum cleaner',
  'ps5',
  'nintendo switch games',
  'samsung tv',
  'air fryer',
  'cheapest iphone',
  'laptop',
  'coffee machine',
];

async function answersOf(service: PriceSearchService): Promise<Map<string, string[]>> {
  const app = createApp(service.deps);
  const answers = new Map<string, string[]>();
  for (const query of QUERIES) {
    for (const maxResults of [5, 20]) {
      const response = await app.request('/api/query', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, max_results: maxResults }),
      });
      const listings = (await response.json()) as WireListing[];
      answers.set(
        `${query} @${maxResults}`,
        listings.map((listing) => `${listing.product} | ${listing.network} | ${listing.price}`),
      );
    }
  }
  return answers;
}

const unlimited = {
  requestsPerMinute: { free: 1e9, pro: 1e9, scale: 1e9 },
  monthlyLookups: { free: undefined, pro: undefined, scale: undefined },
};

describe('one ranking rule on both catalogue engines', () => {
  let sqlite: Map<string, string[]>;
  let postgres: Map<string, string[]>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const lite = await composeService({ ...unlimited });
    try {
      sqlite = await answersOf(lite);
    } finally {
      await lite.close();
    }
    const location = await catalogueLocation('postgres');
    drop = location.drop;
    const pgService = await composeService({ ...unlimited, catalogueUrl: location.location });
    try {
      postgres = await answersOf(pgService);
    } finally {
      await pgService.close();
    }
  });
  afterAll(() => drop());

  it('answers every query with the same listings in the same order, ties included', () => {
    expect(Object.fromEntries(postgres)).toEqual(Object.fromEntries(sqlite));
  });

  it('puts the shorter, closer title first among equal matches ("espresso machine")', () => {
    for (const answers of [sqlite, postgres]) {
      expect(answers.get('espresso machine @5')?.map((line) => productOf(line.split(' | ')[0] ?? ''))).toEqual([
        'breville barista express espresso machine bes875uk',
        'sage the bambino plus espresso machine brushed stainless steel',
        'de longhi dedica style ec685 m pump espresso machine',
      ]);
    }
  });
});
