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

/** The catalogue database. */
export class CatalogueStore {
  readonly #db: Database.Database;
  readonly #upsert: Database.Statement;
  readonly #statements = new Map<string, Database.Statement>();

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

  /** Inserts or replaces items (same network and id) in one transaction. */
  upsert(items: readonly CatalogueItem[]): void {
    const run = this.#db.transaction((batch: readonly CatalogueItem[]) => {
      for (const item of batch) this.#upsert.run(item);
    });
    run(items);
  }

  /** Removes every listing. */
  clear(): void {
    this.#db.exec('DELETE FROM listings');
  }

  /** Listing counts per network, in stock or not. */
  countByNetwork(): Partial<Record<NetworkId, number>> {
    const rows = this.#db.prepare('SELECT network, count(*) AS n FROM listings GROUP BY network').all() as Array<{
      network: NetworkId;
      n: number;
    }>;
    return Object.fromEntries(rows.map((row) => [row.network, row.n]));
  }

  /**
   * Searches in-stock listings. Every term must match; when nothing does and there are three or more terms,
   * listings missing one term are accepted, so a stray word ("gift", "for dad") does not empty the result.
   */
  search(query: CatalogueQuery): CatalogueHit[] {
    if (query.networks.length === 0 || query.limit <= 0) return [];
    const expressions = buildMatchExpressions(query.terms);
    for (const [index, expression] of expressions.entries()) {
      const relaxed = index > 0;
      const hits = this.#run(expression, query, relaxed ? 'relevance' : query.sort);
      if (hits.length > 0) return hits;
    }
    return [];
  }

  #run(match: string, query: CatalogueQuery, sort: SortIntent): CatalogueHit[] {
    const where = ['listings_fts MATCH @match', "l.availability = 'in_stock'"];
    const parameters: Record<string, string | number> = { match, limit: query.limit };
    query.networks.forEach((network, index) => {
      parameters[`network${index}`] = network;
    });
    where.push(`l.network IN (${query.networks.map((_, index) => `@network${index}`).join(', ')})`);
    if (query.maxPence !== undefined) {
      where.push('l.price_pence <= @maxPence');
      parameters.maxPence = query.maxPence;
    }
    if (query.minPence !== undefined) {
      where.push('l.price_pence >= @minPence');
      parameters.minPence = query.minPence;
    }
    if (query.condition !== undefined) {
      where.push('l.condition = @condition');
      parameters.condition = query.condition;
    }
    const order = sort === 'price_asc' ? `l.price_pence, ${BM25}` : `${BM25}, l.price_pence`;
    const sql = `
      SELECT l.title AS title, l.price_pence AS pricePence, l.condition AS condition, l.network AS network, l.url AS url
      FROM listings_fts JOIN listings l ON l.rowid = listings_fts.rowid
      WHERE ${where.join(' AND ')}
      ORDER BY ${order}, l.rowid
      LIMIT @limit`;
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
