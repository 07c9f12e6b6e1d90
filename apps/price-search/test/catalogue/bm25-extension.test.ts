// drawdown_bm25 (ADR 0233): FTS5's BM25 with each phrase's document count kept between queries. It must give
// the same doubles as bm25() on every row of every expression the catalogue builds, and count again whenever the
// catalogue changes: a commit by this connection or another, or rows written inside an open transaction.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBm25 } from '../../src/catalogue/bm25-extension.js';
import { CatalogueStore } from '../../src/catalogue/catalogue-store.js';
import type { CatalogueItem } from '../../src/catalogue/feed/feed-record.js';
import { buildMatchExpressions } from '../../src/catalogue/match-expression.js';
import type { Pence } from '../../src/money/pence.js';
import { parseQuery } from '../../src/query/parse-query.js';

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const BRANDS = ['Sony', 'Samsung', 'Bosch', 'Makita', 'DeWalt', 'Apple'];
const KINDS = ['Headphones', 'Television', 'Drill', 'Kettle', 'Earbuds', 'Battery'];
const EXTRAS = ['Wireless', 'Black', 'Silver', '2 x 2.0Ah', 'WH-1000XM5', 'Pro Max', 'Cordless', '55 inch'];

// Titles of varied length (BM25's length normalisation), multi-word model codes (phrases of several tokens),
// and "New" on about 70% of rows (an IDF bm25() clamps to 1e-6).
function item(index: number, random: () => number): CatalogueItem {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const brand = pick(BRANDS);
  const kind = pick(KINDS);
  const extras = Array.from({ length: Math.floor(random() * 4) }, () => pick(EXTRAS));
  return {
    itemId: `item-${index}`,
    network: 'argos_uk',
    title: [random() < 0.7 ? 'New' : '', brand, kind, ...extras].filter((word) => word !== '').join(' '),
    brand,
    category: kind,
    url: `https://argos.example.co.uk/product/${index}`,
    pricePence: (1000 + index) as Pence,
    condition: 'new',
    availability: 'in_stock',
  };
}

function items(from: number, count: number, seed: number): CatalogueItem[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, offset) => item(from + offset, random));
}

const QUERIES = [
  'sony headphones',
  'wireless earbuds',
  'makita 2 x 2.0ah',
  'sony wh-1000xm5',
  'apple pro max',
  'new kettle',
  'bosch cordless drill black',
  'samsung 55 inch television',
  'dewalt battery silver wireless',
  'headphones',
  'sony gift headphones',
];

// Every expression the catalogue builds for the queries (strict, and relaxed with ORs of AND branches whose
// phrases repeat), and expressions written out: a phrase no row holds, the same phrase twice, ORs of phrases.
function expressions(): string[] {
  const built = QUERIES.flatMap((text) => buildMatchExpressions(parseQuery(text).terms));
  return [
    ...built,
    '"new"',
    '"kettle" OR "nonesuch"',
    '"sony" AND "sony"',
    '("sony" OR "bosch") AND ("headphones" OR "drill")',
    // Phrases sharing a first token, each counted on its own.
    '"2" AND "makita"',
    '"2 x 2 0ah" AND "makita"',
    '"sony" OR "sony headphones"',
  ];
}

const dir = mkdtempSync(join(tmpdir(), 'price-search-bm25-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function catalogueFile(count: number): string {
  files += 1;
  const path = join(dir, `catalogue-${files}.db`);
  const store = CatalogueStore.open(path);
  store.upsert(items(0, count, files));
  store.close();
  return path;
}

/** One connection with the extension loaded. */
function connect(path: string): Database.Database {
  const db = new Database(path);
  expect(loadBm25(db)).toBe('drawdown_bm25');
  return db;
}

/** Each matching row's [rowid, bm25(), drawdown_bm25()], in rowid order. */
function scores(db: Database.Database, expression: string): Array<[number, number, number]> {
  return db
    .prepare(
      `SELECT rowid, bm25(listings_fts, 10.0, 4.0, 2.0, 6.0), drawdown_bm25(listings_fts, 10.0, 4.0, 2.0, 6.0)
       FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid`,
    )
    .raw()
    .all(expression) as Array<[number, number, number]>;
}

/** Asserts that every row scores the same double with both functions; returns the scores. */
function expectSameScores(db: Database.Database, expression: string): number[] {
  const rows = scores(db, expression);
  const differing = rows.filter(([, own, kept]) => !Object.is(own, kept));
  expect(differing, expression).toEqual([]);
  return rows.map(([, own]) => own);
}

/** Copies every listing of `category` under a new id, through `db` (the FTS index follows by its triggers). */
function copyListings(db: Database.Database, category: string): void {
  db.prepare(
    `INSERT INTO listings (network, item_id, title, brand, category, url, price_pence, condition, availability,
      search_title, aliases, product_key)
     SELECT network, item_id || '-copy', title, brand, category, url, price_pence, condition, availability,
      search_title, aliases, product_key FROM listings WHERE category = ?`,
  ).run(category);
}

describe('drawdown_bm25', () => {
  it('is built by the install and loaded by the catalogue', () => {
    const store = CatalogueStore.open(':memory:');
    try {
      expect(store.bm25Function).toBe('drawdown_bm25');
      const off = CatalogueStore.open(':memory:', { keptPhraseCounts: false });
      expect(off.bm25Function).toBe('bm25');
      off.close();
    } finally {
      store.close();
    }
  });

  it('scores every row of every expression with the same double as bm25(), first and from its counts', () => {
    const db = connect(catalogueFile(3_000));
    try {
      const all = expressions();
      let rows = 0;
      // Twice: the first pass counts every phrase, the second finds every count kept.
      for (let pass = 0; pass < 2; pass += 1) {
        for (const expression of all) rows += expectSameScores(db, expression).length;
      }
      expect(all.length).toBeGreaterThan(20);
      // Enough rows to mean something, and the clamped IDF ("new" on most rows) among them.
      expect(rows).toBeGreaterThan(5_000);
      expect(new Set(expectSameScores(db, '"new"')).size).toBeGreaterThan(1);
    } finally {
      db.close();
    }
  });

  it('counts again after this connection commits', () => {
    const db = connect(catalogueFile(1_000));
    try {
      const before = expectSameScores(db, '"kettle"');
      // The same connection as the counts: new rows with the phrase change its document count.
      copyListings(db, 'Kettle');
      const after = expectSameScores(db, '"kettle"');
      expect(after.length).toBe(before.length * 2);
      expect(after[0]).not.toBe(before[0]);
    } finally {
      db.close();
    }
  });

  it('counts again after another connection commits', () => {
    const path = catalogueFile(1_000);
    const reader = connect(path);
    const writer = CatalogueStore.open(path);
    try {
      const before = expectSameScores(reader, '"sony" AND "headphones"');
      writer.upsert(
        items(5_000, 400, 99).map((offer) => ({ ...offer, title: `Sony Headphones ${offer.title}`, brand: 'Sony' })),
      );
      const after = expectSameScores(reader, '"sony" AND "headphones"');
      expect(after.length).toBeGreaterThan(before.length);
      expect(after[0]).not.toBe(before[0]);
    } finally {
      reader.close();
      writer.close();
    }
  });

  it('counts the rows of an open transaction, and again after it rolls back', () => {
    const path = catalogueFile(1_000);
    const db = connect(path);
    try {
      const before = expectSameScores(db, '"drill"');
      db.exec('BEGIN');
      copyListings(db, 'Drill');
      const inside = expectSameScores(db, '"drill"');
      expect(inside.length).toBe(before.length * 2);
      db.exec('ROLLBACK');
      expect(expectSameScores(db, '"drill"')).toEqual(before);
    } finally {
      db.close();
    }
  });

  it('keeps the same scores when more phrases are asked than it keeps counts of', () => {
    const db = connect(catalogueFile(500));
    try {
      // 13,000 distinct phrases (the table keeps 12,288 before it starts again), then the catalogue's own.
      const ask = db.prepare('SELECT drawdown_bm25(listings_fts) FROM listings_fts WHERE listings_fts MATCH ? LIMIT 1');
      for (let index = 0; index < 13_000; index += 1) ask.pluck().get(`"word${index}" OR "sony"`);
      for (const expression of expressions()) expectSameScores(db, expression);
    } finally {
      db.close();
    }
  });
});
