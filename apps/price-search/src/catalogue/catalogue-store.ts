/**
 * @module
 * The offline catalogue in SQLite: a `listings` table and an FTS5 index over title, brand and category with
 * the Porter stemmer, ranked by `bm25()`. A file path persists it; `:memory:` keeps it in the process.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Condition } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { Pence } from '../money/pence.js';
import type { SortIntent } from '../query/parse-query.js';
import type { CatalogueItem } from './feed/feed-record.js';
import { buildMatchExpressions } from './match-expression.js';

/** A catalogue search. */
export interface CatalogueQuery {
  readonly terms: readonly string[];
  readonly networks: readonly NetworkId[];
  readonly minPence: Pence | undefined;
  readonly maxPence: Pence | undefined;
  readonly condition: Condition | undefined;
  readonly sort: SortIntent;
  readonly limit: number;
}

/** A catalogue hit. */
export interface CatalogueHit {
  readonly title: string;
  readonly pricePence: Pence;
  readonly condition: Condition;
  readonly network: NetworkId;
  readonly url: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS listings (
  rowid INTEGER PRIMARY KEY,
  network TEXT NOT NULL,
  item_id TEXT NOT NULL,
  title TEXT NOT NULL,
  brand TEXT NOT NULL,
  category TEXT NOT NULL,
  url TEXT NOT NULL,
  price_pence INTEGER NOT NULL CHECK (price_pence > 0),
  condition TEXT NOT NULL CHECK (condition IN ('new', 'used', 'refurbished')),
  availability TEXT NOT NULL,
  UNIQUE (network, item_id)
);
CREATE INDEX IF NOT EXISTS listings_by_price ON listings (price_pence);
CREATE VIRTUAL TABLE IF NOT EXISTS listings_fts USING fts5(
  title, brand, category,
  content = 'listings', content_rowid = 'rowid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS listings_after_insert AFTER INSERT ON listings BEGIN
  INSERT INTO listings_fts (rowid, title, brand, category) VALUES (new.rowid, new.title, new.brand, new.category);
END;
CREATE TRIGGER IF NOT EXISTS listings_after_delete AFTER DELETE ON listings BEGIN
  INSERT INTO listings_fts (listings_fts, rowid, title, brand, category)
  VALUES ('delete', old.rowid, old.title, old.brand, old.category);
END;
CREATE TRIGGER IF NOT EXISTS listings_after_update AFTER UPDATE ON listings BEGIN
  INSERT INTO listings_fts (listings_fts, rowid, title, brand, category)
  VALUES ('delete', old.rowid, old.title, old.brand, old.category);
  INSERT INTO listings_fts (rowid, title, brand, category) VALUES (new.rowid, new.title, new.brand, new.category);
END;
`;

// Title matches weigh most; a brand or category match alone ranks lower.
const BM25 = 'bm25(listings_fts, 10.0, 4.0, 2.0)';

// BM25 is computed for every match before sorting, so a one-word query matching a fifth of a 100,000-row
// catalogue costs tens of milliseconds. Relevance for such queries is ranked among the first CANDIDATE_CAP
// matches in catalogue order; for one very common word BM25 only prefers shorter titles anyway. Cheapest-first
// ordering stays exact: broad queries walk the price index instead. See ADR 0203.
export const CANDIDATE_CAP = 4_000;

const COUNTS_TTL_MS = 60_000;

/** The catalogue database. */
export class CatalogueStore {
  readonly #db: Database.Database;
  readonly #upsert: Database.Statement;
  readonly #statements = new Map<string, Database.Statement>();
  #counts: { at: number; counts: Partial<Record<NetworkId, number>> } | undefined;

  private constructor(db: Database.Database) {
    this.#db = db;
    this.#upsert = db.prepare(`
      INSERT INTO listings (network, item_id, title, brand, category, url, price_pence, condition, availability)
      VALUES (@network, @itemId, @title, @brand, @category, @url, @pricePence, @condition, @availability)
      ON CONFLICT (network, item_id) DO UPDATE SET
        title = excluded.title, brand = excluded.brand, category = excluded.category, url = excluded.url,
        price_pence = excluded.price_pence, condition = excluded.condition, availability = excluded.availability`);
  }

  /** Opens (and creates when needed) the catalogue at `path`, or in memory for `:memory:`. */
  static open(path: string): CatalogueStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    if (path !== ':memory:') {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.exec(SCHEMA);
    return new CatalogueStore(db);
  }

  /** Opens an in-memory copy of a serialized catalogue (see `serialize`). */
  static fromImage(image: Buffer): CatalogueStore {
    const db = new Database(image);
    db.exec(SCHEMA);
    return new CatalogueStore(db);
  }

  /** The whole database as bytes, for `fromImage`. */
  serialize(): Buffer {
    return this.#db.serialize();
  }

  /** Inserts or replaces items (same network and id) in one transaction. */
  upsert(items: readonly CatalogueItem[]): void {
    const run = this.#db.transaction((batch: readonly CatalogueItem[]) => {
      for (const item of batch) this.#upsert.run(item);
    });
    run(items);
    this.#counts = undefined;
  }

  /** Removes every listing. */
  clear(): void {
    this.#db.exec('DELETE FROM listings');
    this.#counts = undefined;
  }

  /**
   * Listing counts per network, in stock or not. Counting scans the table (tens of milliseconds at 100,000
   * rows), and /health asks often, so the counts are kept for a minute; this process's own writes refresh them.
   */
  countByNetwork(): Partial<Record<NetworkId, number>> {
    const now = performance.now();
    if (this.#counts === undefined || now - this.#counts.at > COUNTS_TTL_MS) {
      this.#counts = { at: now, counts: this.#countNow() };
    }
    return this.#counts.counts;
  }

  #countNow(): Partial<Record<NetworkId, number>> {
    const rows = this.#db.prepare('SELECT network, count(*) AS n FROM listings GROUP BY network').all() as Array<{
      network: NetworkId;
      n: number;
    }>;
    return Object.fromEntries(rows.map((row) => [row.network, row.n]));
  }

  /**
   * Searches in-stock listings. Every term must match. Only when no listing at all matches every term, and there
   * are three or more terms, are listings missing one term accepted, so a stray word ("gift", "for dad") does
   * not empty the result. When listings match the words but the budget, condition or networks exclude them, the
   * answer stays empty: relaxing the words would offer other products instead of saying there are none.
   */
  search(query: CatalogueQuery): CatalogueHit[] {
    if (query.networks.length === 0 || query.limit <= 0) return [];
    const [strict, relaxed] = buildMatchExpressions(query.terms);
    if (strict === undefined) return [];
    const hits = this.#run(strict, query, query.sort);
    if (hits.length > 0 || relaxed === undefined) return hits;
    const wordsMatch = this.#statement('SELECT 1 FROM listings_fts WHERE listings_fts MATCH ? LIMIT 1').get(strict);
    return wordsMatch === undefined ? this.#run(relaxed, query, 'relevance') : hits;
  }

  #run(match: string, query: CatalogueQuery, sort: SortIntent): CatalogueHit[] {
    if (sort === 'price_asc') {
      return this.#select(match, query, sort, this.#beyondCap(match) ? 'price_index' : 'join');
    }
    const capped = this.#select(match, query, sort, 'first_candidates');
    // The filters may have left too few of the capped candidates: rank all matches then.
    return capped.length < query.limit && this.#beyondCap(match) ? this.#select(match, query, sort, 'join') : capped;
  }

  /** True when more than CANDIDATE_CAP listings match (found by walking at most that many). */
  #beyondCap(match: string): boolean {
    const probe = this.#statement(
      `SELECT rowid FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid LIMIT 1 OFFSET ${CANDIDATE_CAP}`,
    );
    return probe.pluck().get(match) !== undefined;
  }

  /**
   * One catalogue query. `plan` is `join` (FTS drives, every match is joined and sorted), `first_candidates`
   * (the same over the first CANDIDATE_CAP matches in rowid order, scored in one pass), or `price_index` (the
   * price index drives and each row is checked against the set of matches: cheap when matches are many).
   */
  #select(
    match: string,
    query: CatalogueQuery,
    sort: SortIntent,
    plan: 'join' | 'first_candidates' | 'price_index',
  ): CatalogueHit[] {
    const filters = ["l.availability = 'in_stock'"];
    const parameters: Record<string, string | number> = { match, limit: query.limit };
    query.networks.forEach((network, index) => {
      parameters[`network${index}`] = network;
    });
    filters.push(`l.network IN (${query.networks.map((_, index) => `@network${index}`).join(', ')})`);
    if (query.maxPence !== undefined) {
      filters.push('l.price_pence <= @maxPence');
      parameters.maxPence = query.maxPence;
    }
    if (query.minPence !== undefined) {
      filters.push('l.price_pence >= @minPence');
      parameters.minPence = query.minPence;
    }
    if (query.condition !== undefined) {
      filters.push('l.condition = @condition');
      parameters.condition = query.condition;
    }
    const columns =
      'l.title AS title, l.price_pence AS pricePence, l.condition AS condition, l.network AS network, l.url AS url';
    const candidates =
      plan === 'first_candidates'
        ? `(SELECT rowid, ${BM25} AS score FROM listings_fts WHERE listings_fts MATCH @match LIMIT ${CANDIDATE_CAP})`
        : `(SELECT rowid, ${BM25} AS score FROM listings_fts WHERE listings_fts MATCH @match)`;
    let sql: string;
    // CROSS JOIN pins the matches as the outer loop: left to itself the planner may walk every listing of the
    // requested networks through the (network, item_id) index and probe the matches for each.
    if (plan === 'price_index') {
      sql = `
        SELECT ${columns} FROM listings l INDEXED BY listings_by_price
        WHERE l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH @match) AND ${filters.join(' AND ')}
        ORDER BY l.price_pence, l.rowid
        LIMIT @limit`;
    } else {
      const order = sort === 'price_asc' ? 'l.price_pence, m.score' : 'm.score, l.price_pence';
      sql = `
        SELECT ${columns}
        FROM ${candidates} m CROSS JOIN listings l ON l.rowid = m.rowid
        WHERE ${filters.join(' AND ')}
        ORDER BY ${order}, l.rowid
        LIMIT @limit`;
    }
    return this.#statement(sql).all(parameters) as CatalogueHit[];
  }

  #statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Closes the database. */
  close(): void {
    this.#db.close();
  }
}
