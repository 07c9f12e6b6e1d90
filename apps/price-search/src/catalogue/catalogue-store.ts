/**
 * @module
 * The offline catalogue in SQLite: a `listings` table and an FTS5 index over the normalised title, brand,
 * category and the title's run-together spellings, with the Porter stemmer; the candidates it finds are ordered by
 * the ranking rule both engines share (ranking-rule.ts, ADR 0235); offers are grouped by product and accessories
 * ranked after products. A file path
 * persists it; `:memory:` keeps it in the process.
 * Lookups check filters, order and group on listing facts held in memory while they are current (ADR 0225).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { NetworkId } from '../listing/networks.js';
import { asksForAccessory, isAccessory, productKeyOf } from '../listing/product-identity.js';
import { aliasesOf, foldText, searchTextOf, wordsOf } from '../listing/search-text.js';
import type { SortIntent } from '../query/parse-query.js';
import {
  CANDIDATE_CAP,
  type Catalogue,
  type CatalogueHit,
  type CatalogueQuery,
  type FeedState,
  type ListingSample,
  OFFER_LOOKAHEAD,
} from './catalogue.js';
import type { CatalogueItem } from './feed/feed-record.js';
import { type FactsRow, type GroupedHit, ListingFacts } from './listing-facts.js';
import { isBetterOffer, offerTerms, ProductGrouping } from './product-grouping.js';
import { byPriceSql, type RankedText, rankByRelevance } from './ranking-rule.js';

import { planMatch, type TermIndex } from './term-understanding.js';
import { Vocabulary } from './vocabulary.js';

/** A candidate as `#candidates` reads it: rowid, search title, aliases, brand, category. */
type CandidateRow = [rowid: number, searchTitle: string, aliases: string, brand: string, category: string];

/** What the ranking rule needs of a lookup: the plan's terms, and whether accessories go after products. */
interface Ranking {
  readonly terms: readonly string[];
  readonly demoteAccessories: boolean;
}

interface CatalogueRow extends Omit<CatalogueHit, 'offers'> {
  readonly productKey: string;
}

// Version 2 indexes a normalised title and its aliases (see search-text.ts) and keeps a product key and an
// accessory flag per listing; older files are converted in place when opened.
const SCHEMA_VERSION = 2;

const FTS_SCHEMA = `
CREATE VIRTUAL TABLE IF NOT EXISTS listings_fts USING fts5(
  search_title, brand, category, aliases,
  content = 'listings', content_rowid = 'rowid',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS listings_after_insert AFTER INSERT ON listings BEGIN
  INSERT INTO listings_fts (rowid, search_title, brand, category, aliases)
  VALUES (new.rowid, new.search_title, new.brand, new.category, new.aliases);
END;
CREATE TRIGGER IF NOT EXISTS listings_after_delete AFTER DELETE ON listings BEGIN
  INSERT INTO listings_fts (listings_fts, rowid, search_title, brand, category, aliases)
  VALUES ('delete', old.rowid, old.search_title, old.brand, old.category, old.aliases);
END;
CREATE TRIGGER IF NOT EXISTS listings_after_update
AFTER UPDATE OF search_title, brand, category, aliases ON listings BEGIN
  INSERT INTO listings_fts (listings_fts, rowid, search_title, brand, category, aliases)
  VALUES ('delete', old.rowid, old.search_title, old.brand, old.category, old.aliases);
  INSERT INTO listings_fts (rowid, search_title, brand, category, aliases)
  VALUES (new.rowid, new.search_title, new.brand, new.category, new.aliases);
END;
`;

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
  search_title TEXT NOT NULL DEFAULT '',
  aliases TEXT NOT NULL DEFAULT '',
  product_key TEXT NOT NULL DEFAULT '',
  accessory INTEGER NOT NULL DEFAULT 0,
  gtin TEXT,
  mpn TEXT,
  image_url TEXT,
  shipping_pence INTEGER,
  feed_id TEXT,
  seen_run INTEGER,
  import_id TEXT,
  UNIQUE (network, item_id)
);
CREATE INDEX IF NOT EXISTS listings_by_price ON listings (price_pence);
CREATE INDEX IF NOT EXISTS listings_by_feed ON listings (feed_id, seen_run);
CREATE TABLE IF NOT EXISTS feed_state (
  feed_id TEXT PRIMARY KEY,
  etag TEXT,
  last_modified TEXT,
  last_attempt_at TEXT,
  last_success_at TEXT,
  last_changed_at TEXT,
  last_error TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0
);
${FTS_SCHEMA}
`;

const VERSION_2_COLUMNS = [
  "search_title TEXT NOT NULL DEFAULT ''",
  "aliases TEXT NOT NULL DEFAULT ''",
  "product_key TEXT NOT NULL DEFAULT ''",
  'accessory INTEGER NOT NULL DEFAULT 0',
  'gtin TEXT',
  'mpn TEXT',
  'image_url TEXT',
  'shipping_pence INTEGER',
  'feed_id TEXT',
  'seen_run INTEGER',
];

// Ranking every match of a one-word query matching a fifth of a 100,000-row catalogue costs tens of milliseconds.
// Relevance is ranked among the first CANDIDATE_CAP listings that pass the filters, in catalogue order (rowid);
// for one very common word BM25 only prefers shorter titles anyway. Each candidate costs about 2 µs of walking
// and scoring, and BM25's fixed part (the document count of each phrase) about 0.3 ms a query: 150 candidates
// gave the same best BM25 score as ranking every match on all 336 ranked queries of the search bench (ADR 0220).
// Cheapest-first ordering stays exact: broad queries walk the price index instead. See ADRs 0203, 0212, 0216.
export { CANDIDATE_CAP };
// Above this many matches, a cheapest-first query walks the price index instead of sorting the matches.
const PRICE_INDEX_ABOVE = 300;
const COUNTS_TTL_MS = 60_000;
// The part of a catalogue file read through a memory map (ADR 0217): 100,000 listings take about 40 MB.
const CATALOGUE_MMAP_BYTES = 1024 * 1024 * 1024;
// Probe answers kept (an expression and a boolean each); the oldest is dropped first.
const PROBES_KEPT = 20_000;
// After the catalogue changes, the listing facts (and, after another process's writes, the vocabulary) are
// rebuilt by the next lookup, but no sooner after the last rebuild than this many times its duration: while an
// import writes batch after batch, rebuilding takes at most a tenth of the time, and lookups in between read the
// filters from the listings (ADR 0225).
const REBUILD_SPACING = 9;
// A cached answer is served for at most this long after another process's write (see `cacheStamp`).
const OTHER_WRITERS_CHECK_MS = 100;
// Above this many matches, a cheapest-first lookup on the facts walks every listing in price order instead of
// sorting the matches.
const PRICE_WALK_ABOVE = 2_000;

/** Options of a catalogue (tests and benches). */
export interface CatalogueStoreOptions {
  /**
   * Whether lookups use the in-memory listing facts (ADR 0225; default true). Off, every lookup filters, ranks
   * and groups in SQL: the same answers, as the equivalence test checks.
   */
  readonly listingFacts?: boolean;
  /**
   * REBUILD_SPACING, for tests: 0 rebuilds stale facts and a vocabulary another process made stale at once,
   * Infinity never after their first build.
   */
  readonly rebuildSpacing?: number;
}

/** The catalogue database. */
export class CatalogueStore implements Catalogue {
  readonly #db: Database.Database;
  readonly #upsert: Database.Statement;
  readonly #touch: Database.Statement;
  readonly #importOf: Database.Statement;
  readonly #statements = new Map<string, Database.Statement>();
  #counts: { at: number; counts: Partial<Record<NetworkId, number>> } | undefined;
  #vocabulary: Vocabulary | undefined;
  readonly #useFacts: boolean;
  readonly #rebuildSpacing: number;
  readonly #dataVersion: Database.Statement;
  // The last `PRAGMA data_version` seen: it changes when another connection (another process: `price-search
  // import` beside a running server) commits to the catalogue.
  #seenVersion: number;
  // The listing facts, with the data version and write count they were read at, and when they may be rebuilt.
  #facts: { facts: ListingFacts; version: number; changes: number } | undefined;
  #factsRebuildAfter = Number.NEGATIVE_INFINITY;
  // The test of the lookup in progress, called by SQL through `listing_passes(rowid)`.
  #passes: ((rowid: number) => boolean) | undefined;

  private constructor(db: Database.Database, options: CatalogueStoreOptions) {
    this.#db = db;
    this.#useFacts = options.listingFacts ?? true;
    this.#rebuildSpacing = options.rebuildSpacing ?? REBUILD_SPACING;
    this.#dataVersion = db.prepare('PRAGMA data_version').pluck();
    this.#seenVersion = this.#dataVersion.get() as number;
    db.function('listing_passes', { directOnly: true }, (rowid) => (this.#passes?.(rowid as number) === true ? 1 : 0));
    this.#upsert = db.prepare(`
      INSERT INTO listings (network, item_id, title, brand, category, url, price_pence, condition, availability,
        search_title, aliases, product_key, accessory, gtin, mpn, image_url, shipping_pence, feed_id, seen_run,
        import_id)
      VALUES (@network, @itemId, @title, @brand, @category, @url, @pricePence, @condition, @availability,
        @searchTitle, @aliases, @productKey, @accessory, @gtin, @mpn, @imageUrl, @shippingPence, @feedId, @seenRun,
        @importId)
      ON CONFLICT (network, item_id) DO UPDATE SET feed_id = excluded.feed_id, seen_run = excluded.seen_run,
        import_id = excluded.import_id,
        title = excluded.title, brand = excluded.brand, category = excluded.category, url = excluded.url,
        price_pence = excluded.price_pence, condition = excluded.condition, availability = excluded.availability,
        search_title = excluded.search_title, aliases = excluded.aliases, product_key = excluded.product_key,
        accessory = excluded.accessory, gtin = excluded.gtin, mpn = excluded.mpn, image_url = excluded.image_url,
        shipping_pence = excluded.shipping_pence`);
    // An unchanged offer of a live feed only records the run that saw it: no row rewrite, no index update.
    this.#touch = db.prepare(`
      UPDATE listings SET feed_id = @feedId, seen_run = @seenRun, import_id = @importId
      WHERE network = @network AND item_id = @itemId AND title = @title AND brand = @brand AND category = @category
        AND url = @url AND price_pence = @pricePence AND condition = @condition AND availability = @availability
        AND gtin IS @gtin AND mpn IS @mpn AND image_url IS @imageUrl AND shipping_pence IS @shippingPence`);
    this.#importOf = db.prepare('SELECT import_id AS importId FROM listings WHERE network = ? AND item_id = ?');
  }

  /** Opens (and creates when needed) the catalogue at `path`, or in memory for `:memory:`. */
  static open(path: string, options: CatalogueStoreOptions = {}): CatalogueStore {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    if (path !== ':memory:') {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // Lookups read the FTS index and the listings all over the file: through a memory map SQLite reads its
      // pages in place, instead of a read system call and a copy per page missing from its 2 MiB cache (a
      // quarter of a cold lookup's CPU at 100,000 listings; ADR 0217).
      db.pragma(`mmap_size = ${CATALOGUE_MMAP_BYTES}`);
    }
    prepareSchema(db);
    return new CatalogueStore(db, options);
  }

  /** Opens an in-memory copy of a serialized catalogue (see `serialize`). */
  static fromImage(image: Buffer, options: CatalogueStoreOptions = {}): CatalogueStore {
    const db = new Database(image);
    prepareSchema(db);
    return new CatalogueStore(db, options);
  }

  /** The whole database as bytes, for `fromImage`. */
  serialize(): Buffer {
    return this.#db.serialize();
  }

  /**
   * Inserts or replaces items (same network and id) in one transaction. `origin` names the live feed they came
   * from and the refresh run that saw them, so offers a later run no longer lists can be expired.
   */
  upsert(
    items: readonly CatalogueItem[],
    origin?: { readonly feedId: string; readonly run: number },
    importId?: string,
  ): void {
    const run = this.#db.transaction((batch: readonly CatalogueItem[]) => {
      for (const item of batch) {
        const row = {
          ...rowOf(item),
          feedId: origin?.feedId ?? null,
          seenRun: origin?.run ?? null,
          importId: importId ?? null,
        };
        if (origin !== undefined && this.#touch.run(row).changes === 1) continue;
        this.#upsert.run(row);
      }
    });
    run(items);
    this.#changed();
  }

  /** The keys of `items` that import `importId` already wrote (one indexed lookup each). */
  importedBy(importId: string, items: readonly CatalogueItem[]): Set<string> {
    const written = new Set<string>();
    for (const item of items) {
      const row = this.#importOf.get(item.network, item.itemId) as { importId: string | null } | undefined;
      if (row?.importId === importId) written.add(`${item.network}\u0000${item.itemId}`);
    }
    return written;
  }

  /** Removes the listings of `feedId` that run `run` did not see (offers the feed no longer has). */
  expireFeed(feedId: string, run: number): number {
    const { changes } = this.#db.prepare('DELETE FROM listings WHERE feed_id = ? AND seen_run < ?').run(feedId, run);
    if (changes > 0) this.#changed();
    return changes;
  }

  /** Listings per live feed. */
  countByFeed(): Record<string, number> {
    const rows = this.#db
      .prepare('SELECT feed_id AS feedId, count(*) AS n FROM listings WHERE feed_id IS NOT NULL GROUP BY feed_id')
      .all() as Array<{ feedId: string; n: number }>;
    return Object.fromEntries(rows.map((row) => [row.feedId, row.n]));
  }

  /** What the last refreshes of a feed did (validators for conditional requests, freshness). */
  feedState(feedId: string): FeedState | undefined {
    const row = this.#db
      .prepare(
        `SELECT feed_id AS feedId, etag, last_modified AS lastModified, last_attempt_at AS lastAttemptAt,
          last_success_at AS lastSuccessAt, last_changed_at AS lastChangedAt, last_error AS lastError,
          consecutive_failures AS consecutiveFailures FROM feed_state WHERE feed_id = ?`,
      )
      .get(feedId) as FeedState | undefined;
    return row;
  }

  /** Stores a feed's state. */
  saveFeedState(state: FeedState): void {
    this.#db
      .prepare(
        `INSERT INTO feed_state (feed_id, etag, last_modified, last_attempt_at, last_success_at, last_changed_at,
          last_error, consecutive_failures)
        VALUES (@feedId, @etag, @lastModified, @lastAttemptAt, @lastSuccessAt, @lastChangedAt, @lastError,
          @consecutiveFailures)
        ON CONFLICT (feed_id) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
          last_attempt_at = excluded.last_attempt_at, last_success_at = excluded.last_success_at,
          last_changed_at = excluded.last_changed_at, last_error = excluded.last_error,
          consecutive_failures = excluded.consecutive_failures`,
      )
      .run(state);
  }

  /** Removes every listing. */
  clear(): void {
    this.#db.exec('DELETE FROM listings');
    this.#changed();
  }

  #changed(): void {
    this.#counts = undefined;
    this.#vocabulary = undefined;
    this.#probes.clear();
    this.#changes += 1;
  }

  /**
   * Notices a commit by another connection (`PRAGMA data_version`, a few microseconds): what this process
   * derived from the catalogue is stale then, as after its own writes.
   */
  #observeOtherWriters(now = performance.now()): void {
    this.#otherWritersCheckedAt = now;
    const version = this.#dataVersion.get() as number;
    if (version === this.#seenVersion) return;
    this.#seenVersion = version;
    this.#counts = undefined;
    this.#vocabularyStale = true;
    this.#probes.clear();
  }

  /**
   * The listing facts if they are those of the catalogue as it is now, rebuilding them when they are missing or
   * stale and the last rebuild is far enough behind (REBUILD_SPACING); undefined otherwise.
   */
  #currentFacts(): ListingFacts | undefined {
    if (!this.#useFacts) return undefined;
    const held = this.#facts;
    if (held !== undefined && held.version === this.#seenVersion && held.changes === this.#changes) return held.facts;
    if (performance.now() < this.#factsRebuildAfter) return undefined;
    this.#buildFacts();
    return this.#facts?.facts;
  }

  #buildFacts(): void {
    const started = performance.now();
    const { maxRowid, count } = this.#db
      .prepare('SELECT coalesce(max(rowid), 0) AS maxRowid, count(*) AS count FROM listings')
      .get() as { maxRowid: number; count: number };
    const rows = this.#db
      .prepare(
        `SELECT rowid, price_pence, network, condition, availability = 'in_stock', accessory, product_key
         FROM listings`,
      )
      .raw()
      .iterate() as IterableIterator<FactsRow>;
    this.#facts = {
      facts: ListingFacts.fromRows(maxRowid, count, rows),
      version: this.#seenVersion,
      changes: this.#changes,
    };
    this.#factsRebuildAfter = this.#rebuildAfter(started);
  }

  /** When a build that started at `started` and ends now may be made again (REBUILD_SPACING). */
  #rebuildAfter(started: number): number {
    // The floor keeps Infinity × 0 (a build faster than the clock) from reading as "rebuild any time".
    return started + this.#rebuildSpacing * Math.max(performance.now() - started, Number.MIN_VALUE);
  }

  // Answers of the "does anything match" probes, kept across lookups until this process or another writes to the
  // catalogue (the rule of the engine's result cache, `cacheStamp`): the same words recur across different queries, and
  // each probe is an FTS query (ADR 0217).
  readonly #probes = new Map<string, boolean>();

  #probe(key: string, ask: () => boolean): boolean {
    const known = this.#probes.get(key);
    if (known !== undefined) return known;
    const answer = ask();
    this.#probes.set(key, answer);
    if (this.#probes.size > PROBES_KEPT) this.#probes.delete(this.#probes.keys().next().value ?? '');
    return answer;
  }

  #changes = 0;

  /**
   * Merges the full-text index's segments, then builds the vocabulary and the listing facts now (the first lookups
   * would otherwise build them): the start-up warm-up's first step (ADR 0222).
   */
  prepare(): void {
    this.#mergeIndexSegments();
    this.#observeOtherWriters();
    this.#vocabularyNow();
    if (this.#useFacts) this.#buildFacts();
  }

  /**
   * Merges the full-text index's segments into one (FTS5 `optimize`; ADR 0226): an import leaves dozens, and
   * every full-text query opens an iterator on each segment holding its words, which made the "does this match"
   * probes two to four times dearer and a cold lookup about a fifth. Fast when there is one segment already
   * (under a millisecond); about 50 ms at 100,000 listings after an import. Skipped, without waiting, while
   * another process writes (the start-up must not stall on an import), and when the file cannot be written.
   */
  #mergeIndexSegments(): void {
    const timeout = this.#db.pragma('busy_timeout', { simple: true }) as number;
    this.#db.pragma('busy_timeout = 0');
    try {
      this.#db.exec("INSERT INTO listings_fts (listings_fts) VALUES ('optimize')");
    } catch (error) {
      console.error(`price-search: the catalogue's full-text index was not merged: ${String(error)}`);
    } finally {
      this.#db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  /** Up to `count` in-stock listings, one every n-th row of the catalogue. */
  sampleListings(count: number): ListingSample[] {
    if (count <= 0) return [];
    const last = (this.#db.prepare('SELECT max(rowid) FROM listings').pluck().get() as number | null) ?? 0;
    const step = Math.max(1, Math.floor(last / count));
    return this.#db
      .prepare(
        `SELECT title, price_pence AS pricePence, condition FROM listings
         WHERE rowid % ? = 0 AND availability = 'in_stock' ORDER BY rowid LIMIT ?`,
      )
      .all(step, count) as ListingSample[];
  }

  forgetAnswers(): void {
    this.#probes.clear();
  }

  /** Probe answers remembered (see `forgetAnswers`). */
  get answersKept(): number {
    return this.#probes.size;
  }

  /**
   * Changes whenever this process or another one writes to the catalogue: results cached under an older stamp
   * are stale.
   */
  /** Undefined: `cacheStamp` sees other processes' commits (the data version). */
  readonly answersMaxAgeMs = undefined;

  cacheStamp(): string {
    // Asked by every lookup, cached or not: reading the data version (a few microseconds, three times a cached
    // answer's own cost) is done at most every OTHER_WRITERS_CHECK_MS here. A lookup that is computed always
    // reads it (`search`).
    const now = performance.now();
    if (now - this.#otherWritersCheckedAt >= OTHER_WRITERS_CHECK_MS) this.#observeOtherWriters(now);
    return `${this.#changes}:${this.#seenVersion}`;
  }

  #otherWritersCheckedAt = Number.NEGATIVE_INFINITY;

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
   * Searches in-stock listings and returns the best offer of each matching product, up to `limit` products.
   * Query words the catalogue does not know are corrected first (see term-understanding.ts). Every term must
   * match. Only when no listing at all matches every term, and there are three or more terms, are listings
   * missing one unknown word accepted (never a known word or a model code), so a stray word ("gift") does not
   * empty the result. When
   * listings match the words but the budget, condition or networks exclude them, the answer stays empty:
   * relaxing the words would offer other products instead of saying there are none.
   */
  async search(query: CatalogueQuery): Promise<CatalogueHit[]> {
    if (query.networks.length === 0 || query.limit <= 0) return [];
    this.#observeOtherWriters();
    let plan = await planMatch(query.terms, this.#termIndex);
    if (plan.strict === undefined) return [];
    let hits = this.#lookUp(plan.strict, plan.terms, query);
    if (hits.length > 0) return hits;
    // Nothing found: either the words match nothing together (then two of them may make one catalogue word), or
    // the filters exclude every match. Asked only now, so a lookup that finds listings saves the probe.
    const joined = await plan.joined();
    if (joined?.strict !== undefined) {
      plan = joined;
      hits = this.#lookUp(joined.strict, joined.terms, query);
      if (hits.length > 0) return hits;
    }
    const relaxed = await plan.relaxed();
    if (relaxed === undefined || plan.strict === undefined || this.#matches(plan.strict)) return hits;
    return this.#run(relaxed, plan.terms, query, 'relevance', this.#demotesAccessories(plan.strict, plan.terms));
  }

  #lookUp(strict: string, terms: readonly string[], query: CatalogueQuery): CatalogueHit[] {
    return this.#run(strict, terms, query, query.sort, this.#demotesAccessories(strict, terms));
  }

  #demotesAccessories(strict: string, terms: readonly string[]): boolean {
    return !asksForAccessory(terms) && this.#namesAProduct(strict);
  }

  readonly #termIndex: TermIndex = {
    matches: (expression) => this.#matches(expression),
    // The whole vocabulary is in memory: the request needs no look-up.
    vocabulary: () => this.#vocabularyNow(),
  };

  /**
   * True when a listing that is not an accessory has every term in its title: the query names a product, so its
   * accessories go after it ("nintendo switch"). When only accessories' titles have every term ("headset for
   * gaming": a gaming headset; a VR headset matches "gaming" only by its category), nothing is demoted.
   */
  #namesAProduct(expression: string): boolean {
    return this.#probe(
      `product\n${expression}`,
      () =>
        this.#statement(
          'SELECT 1 FROM listings_fts JOIN listings l ON l.rowid = listings_fts.rowid WHERE listings_fts MATCH ? AND l.accessory = 0 LIMIT 1',
        ).get(`{search_title aliases} : (${expression})`) !== undefined,
    );
  }

  #matches(expression: string): boolean {
    return this.#probe(
      `match\n${expression}`,
      () =>
        this.#statement('SELECT 1 FROM listings_fts WHERE listings_fts MATCH ? LIMIT 1').get(expression) !== undefined,
    );
  }

  // Another process wrote since the vocabulary was built: it is rebuilt by the next lookup that needs it, but, as
  // the facts, no sooner after the last build than REBUILD_SPACING times its duration (an import beside a
  // running server commits batch after batch; a vocabulary a few batches old only corrects fewer words).
  #vocabularyStale = false;
  #vocabularyRebuildAfter = Number.NEGATIVE_INFINITY;

  #vocabularyNow(): Vocabulary {
    if (this.#vocabularyStale && performance.now() >= this.#vocabularyRebuildAfter) this.#vocabulary = undefined;
    if (this.#vocabulary === undefined) {
      const started = performance.now();
      this.#vocabularyStale = false;
      const rows = this.#db
        .prepare('SELECT search_title, brand, category, aliases FROM listings')
        .raw()
        .iterate() as Iterable<string[]>;
      this.#vocabulary = Vocabulary.fromDocuments(
        (function* () {
          for (const row of rows) yield wordsOf(foldText(row.join(' ')));
        })(),
      );
      this.#vocabularyRebuildAfter = this.#rebuildAfter(started);
    }
    return this.#vocabulary;
  }

  #run(
    match: string,
    terms: readonly string[],
    query: CatalogueQuery,
    sort: SortIntent,
    demoteAccessories: boolean,
  ): CatalogueHit[] {
    const rank = { terms, demoteAccessories };
    const facts = this.#currentFacts();
    const hits = facts === undefined ? undefined : this.#runOnFacts(facts, match, query, sort, rank);
    if (hits === undefined) return this.#runInSql(match, query, sort, rank);
    this.#lookupsOnFacts += 1;
    return hits;
  }

  #lookupsOnFacts = 0;

  /** Catalogue queries answered on the listing facts since the catalogue was opened (for tests and benches). */
  get lookupsOnFacts(): number {
    return this.#lookupsOnFacts;
  }

  /**
   * One lookup on the listing facts (ADR 0225), with the same answer as `#runInSql`: FTS finds the matches and
   * `listing_passes(rowid)` checks each one's filters in memory; the first CANDIDATE_CAP that pass (every one
   * when that window holds too few products) are ordered by the ranking rule (their text is read for its score)
   * and grouped here. Only the listings shown are read, and checked against the
   * facts: undefined when they disagree (another process wrote since the facts were read), and the lookup is
   * made in SQL.
   */
  #runOnFacts(
    facts: ListingFacts,
    match: string,
    query: CatalogueQuery,
    sort: SortIntent,
    rank: Ranking,
  ): CatalogueHit[] | undefined {
    const passes = facts.passes(query);
    this.#passes = passes;
    try {
      if (sort === 'price_asc') {
        const matches = this.#statement(
          'SELECT rowid FROM listings_fts WHERE listings_fts MATCH ? AND listing_passes(rowid)',
        )
          .pluck()
          .all(match) as number[];
        const ordered = matches.length > PRICE_WALK_ABOVE ? facts.walkByPrice(matches) : facts.orderByPrice(matches);
        return this.#shown(facts, facts.group(ordered, query.limit, false, OFFER_LOOKAHEAD));
      }
      const read = { rows: 0, products: [] as readonly number[] };
      const window = this.#candidates(match, true);
      // Every candidate of the window is read, so a product's offers are counted among all of them (as on
      // PostgreSQL, and as the README says).
      const hits = facts.group(this.#rankOnFacts(facts, window, rank), query.limit, true, CANDIDATE_CAP, read);
      // Products, not hits: a page of one product's offers (product-grouping.ts) is still one product.
      if (read.products.length < query.limit && window.length >= CANDIDATE_CAP) {
        // As in SQL: every match is ranked only when a listing that passes belongs to a product the window lacks.
        const shown = new Set(read.products);
        this.#passes = (rowid) => passes(rowid) && !shown.has(facts.productOf(rowid));
        const more =
          this.#statement(
            'SELECT 1 FROM listings_fts WHERE listings_fts MATCH ? AND listing_passes(rowid) LIMIT 1',
          ).get(match) !== undefined;
        this.#passes = passes;
        if (more) {
          const all = this.#rankOnFacts(facts, this.#candidates(match, false), rank);
          return this.#shown(facts, facts.group(all, query.limit, true, OFFER_LOOKAHEAD));
        }
      }
      return this.#shown(facts, hits);
    } finally {
      this.#passes = undefined;
    }
  }

  /**
   * The matches that pass `listing_passes` (the first CANDIDATE_CAP, or all), with the text the ranking rule
   * reads, in one statement (a fifth cheaper than their rowids, then their text by rowid). CROSS JOIN keeps the
   * matches as the outer loop, so the filter is checked before a row is read and the order is the index's.
   */
  #candidates(match: string, window: boolean): CandidateRow[] {
    return this.#statement(
      `SELECT f.rowid, l.search_title, l.aliases, l.brand, l.category
       FROM listings_fts f CROSS JOIN listings l ON l.rowid = f.rowid
       WHERE listings_fts MATCH ? AND listing_passes(f.rowid)${window ? ` LIMIT ${CANDIDATE_CAP}` : ''}`,
    )
      .raw()
      .all(match) as CandidateRow[];
  }

  /** Candidates' rowids in the ranking rule's relevance order: their facts from memory. */
  #rankOnFacts(facts: ListingFacts, candidates: readonly CandidateRow[], rank: Ranking): number[] {
    return rankByRelevance(candidates, rank.terms, rank.demoteAccessories, (row) => {
      const rowid = row[0];
      const { position, pricePence, isNew, accessory } = facts.rankFacts(rowid);
      return {
        searchTitle: row[1],
        aliases: row[2],
        brand: row[3],
        category: row[4],
        position,
        pricePence,
        isNew,
        accessory,
      };
    }).map((row) => row[0]);
  }

  /** The listings of a page, read by rowid; undefined when one is gone or differs from its facts. */
  #shown(facts: ListingFacts, grouped: readonly GroupedHit[]): CatalogueHit[] | undefined {
    // One statement for the whole page (a third cheaper than one per listing).
    const rows = this.#statement(
      `SELECT rowid, title, price_pence AS pricePence, condition, network, url, image_url AS imageUrl,
        shipping_pence AS shippingPence, availability FROM listings WHERE rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(grouped.map(({ rowid }) => rowid))) as Array<{ rowid: number } & Omit<CatalogueHit, 'offers'>>;
    const byRowid = new Map(rows.map((row) => [row.rowid, row]));
    const hits: CatalogueHit[] = [];
    for (const { rowid, offers } of grouped) {
      const found = byRowid.get(rowid);
      if (found === undefined || !facts.agreesWith(rowid, found)) {
        this.#facts = undefined;
        return undefined;
      }
      const { rowid: _, ...row } = found;
      hits.push({ ...row, offers });
    }
    return hits;
  }

  /** One lookup in SQL: the filters read from the listings, ranked and ordered by SQLite. */
  #runInSql(match: string, query: CatalogueQuery, sort: SortIntent, rank: Ranking): CatalogueHit[] {
    if (sort === 'price_asc') {
      return this.#select(match, query, sort, this.#beyondCap(match) ? 'price_index' : 'join', rank);
    }
    const hits = this.#select(match, query, sort, 'first_candidates', rank);
    // A short page from a full window (its candidates were offers of too few products): when a listing that
    // passes the filters belongs to a product the window did not hold, every match is ranked. Usually the
    // catalogue simply has no more products, and that check walks the matches without scoring them.
    if (
      this.#window.products.length < query.limit &&
      this.#window.full &&
      this.#moreProducts(match, query, this.#window.products)
    ) {
      return this.#select(match, query, sort, 'all_candidates', rank);
    }
    return hits;
  }

  // What the last `first_candidates` query read: whether its window was full, and the products of its rows.
  #window: { full: boolean; products: readonly string[] } = { full: false, products: [] };

  /** True when a listing that passes the query's filters belongs to none of `products`. */
  #moreProducts(match: string, query: CatalogueQuery, shown: readonly string[]): boolean {
    const products = new Set(shown);
    const { filters, parameters } = filtersOf(query, match);
    const sql = `
      SELECT l.product_key FROM listings_fts CROSS JOIN listings l ON l.rowid = listings_fts.rowid
      WHERE listings_fts MATCH @match AND ${filters.join(' AND ')}`;
    for (const productKey of this.#statement(sql).pluck().iterate(parameters) as IterableIterator<string>) {
      if (!products.has(productKey)) return true;
    }
    return false;
  }

  /** True when more than PRICE_INDEX_ABOVE listings match (found by walking at most that many). */
  #beyondCap(match: string): boolean {
    const probe = this.#statement(
      `SELECT rowid FROM listings_fts WHERE listings_fts MATCH ? ORDER BY rowid LIMIT 1 OFFSET ${PRICE_INDEX_ABOVE}`,
    );
    return probe.pluck().get(match) !== undefined;
  }

  /**
   * One catalogue query. `first_candidates` (relevance: FTS drives, the filters are checked, the first
   * CANDIDATE_CAP listings that pass are ordered by the ranking rule), `all_candidates` (the same over every
   * listing that passes: when the window held too few products), `join` (cheapest first: every match that
   * passes the filters, sorted by price), or `price_index` (cheapest first over many matches: the price index
   * drives and each row is checked against the set of matches).
   * Rows stream in result order and are grouped by product as they come, so the page is full whenever enough
   * products match, however many offers each has.
   */
  #select(
    match: string,
    query: CatalogueQuery,
    sort: SortIntent,
    plan: 'join' | 'first_candidates' | 'all_candidates' | 'price_index',
    rank: Ranking,
  ): CatalogueHit[] {
    const { filters, parameters } = filtersOf(query, match);
    const columns = `l.title AS title, l.price_pence AS pricePence, l.condition AS condition, l.network AS network,
      l.url AS url, l.image_url AS imageUrl, l.shipping_pence AS shippingPence, l.availability AS availability,
      l.product_key AS productKey`;
    let sql: string;
    // CROSS JOIN pins the matches as the outer loop: left to itself the planner may walk every listing of the
    // requested networks through the (network, item_id) index and probe the matches for each.
    if (plan === 'price_index') {
      sql = `
        SELECT ${columns} FROM listings l INDEXED BY listings_by_price
        WHERE l.rowid IN (SELECT rowid FROM listings_fts WHERE listings_fts MATCH @match) AND ${filters.join(' AND ')}
        ORDER BY ${byPriceSql('l', 'rowid')}`;
    } else if (plan === 'join') {
      sql = `
        SELECT ${columns}
        FROM listings_fts f CROSS JOIN listings l ON l.rowid = f.rowid
        WHERE listings_fts MATCH @match AND ${filters.join(' AND ')}
        ORDER BY ${byPriceSql('l', 'rowid')}`;
    } else {
      // The filters run before the window is cut: the first CANDIDATE_CAP listings that pass them are the
      // candidates, ordered by the ranking rule (ranking-rule.ts) here.
      sql = `
        SELECT ${columns}, l.rowid AS position, l.accessory AS accessory, l.search_title AS searchTitle,
          l.aliases AS aliases, l.brand AS brand, l.category AS category
        FROM listings_fts CROSS JOIN listings l ON l.rowid = listings_fts.rowid
        WHERE listings_fts MATCH @match AND ${filters.join(' AND ')}
        ${plan === 'first_candidates' ? `LIMIT ${CANDIDATE_CAP}` : ''}`;
    }
    if (plan === 'join' || plan === 'price_index') {
      const rows = this.#statement(sql).iterate(parameters) as IterableIterator<CatalogueRow>;
      return groupByProduct(rows, query.limit, sort, OFFER_LOOKAHEAD);
    }
    const candidates = this.#statement(sql).all(parameters) as Array<
      CatalogueRow & RankedText & { position: number; accessory: number }
    >;
    const ranked = rankByRelevance(candidates, rank.terms, rank.demoteAccessories, (row) => ({
      ...row,
      isNew: row.condition === 'new',
      accessory: row.accessory === 1,
    })).map(catalogueRowOf);
    if (plan === 'all_candidates') return groupByProduct(ranked.values(), query.limit, sort, OFFER_LOOKAHEAD);
    // Every candidate of the window is read: a product's offers are counted among all of them.
    const read = { rows: 0, products: [] as readonly string[] };
    const hits = groupByProduct(ranked.values(), query.limit, sort, CANDIDATE_CAP, read);
    this.#window = { full: candidates.length >= CANDIDATE_CAP, products: read.products };
    return hits;
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

/** The filters of a catalogue query as SQL over the listings (`l`), with their parameters. */
function filtersOf(
  query: CatalogueQuery,
  match: string,
): { filters: string[]; parameters: Record<string, string | number> } {
  const filters = ["l.availability = 'in_stock'"];
  const parameters: Record<string, string | number> = { match };
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
  return { filters, parameters };
}

/**
 * Groups streamed rows by product (product-grouping.ts) and closes the statement's iterator once enough are read.
 */
function groupByProduct(
  rows: IterableIterator<CatalogueRow>,
  limit: number,
  sort: SortIntent,
  lookahead: number,
  read?: { rows: number; products: readonly string[] },
): CatalogueHit[] {
  const grouping = new ProductGrouping<string, Omit<CatalogueHit, 'offers'>>(
    limit,
    lookahead,
    sort === 'relevance'
      ? (candidate, current) => isBetterOffer(offerTerms(candidate), offerTerms(current))
      : undefined,
  );
  for (const { productKey, ...hit } of rows) {
    if (!grouping.add(productKey, hit)) break;
  }
  rows.return?.();
  if (read !== undefined) {
    read.rows = grouping.rows;
    read.products = grouping.products();
  }
  return grouping.page().map(({ offer, offers }) => ({ ...offer, offers }));
}

/** A ranked candidate as the rows grouping reads. */
function catalogueRowOf(row: CatalogueRow): CatalogueRow {
  return {
    title: row.title,
    pricePence: row.pricePence,
    condition: row.condition,
    network: row.network,
    url: row.url,
    imageUrl: row.imageUrl,
    shippingPence: row.shippingPence,
    availability: row.availability,
    productKey: row.productKey,
  };
}

/** A feed item as a row, with its derived search columns. */
function rowOf(item: CatalogueItem): Record<string, string | number | null> {
  return {
    network: item.network,
    itemId: item.itemId,
    title: item.title,
    brand: item.brand,
    category: item.category,
    url: item.url,
    pricePence: item.pricePence,
    condition: item.condition,
    availability: item.availability,
    ...derivedColumns(item),
    gtin: item.gtin ?? null,
    mpn: item.mpn ?? null,
    imageUrl: item.imageUrl ?? null,
    shippingPence: item.shippingPence ?? null,
  };
}

function derivedColumns(item: {
  title: string;
  brand: string;
  category: string;
  gtin?: string | undefined;
  mpn?: string | undefined;
}): { searchTitle: string; aliases: string; productKey: string; accessory: number } {
  return {
    searchTitle: searchTextOf(item.title),
    aliases: [aliasesOf(item.title), aliasesOf(item.brand)].filter((text) => text !== '').join(' '),
    productKey: productKeyOf(item),
    accessory: isAccessory(item.title, item.category) ? 1 : 0,
  };
}

/** Creates the schema, converting a version 1 catalogue (raw title indexed) in place. */
function prepareSchema(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  const hasListings = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'listings'").get() !== undefined;
  if (hasListings && version < SCHEMA_VERSION) {
    db.transaction(() => {
      db.exec(`DROP TRIGGER IF EXISTS listings_after_insert; DROP TRIGGER IF EXISTS listings_after_delete;
        DROP TRIGGER IF EXISTS listings_after_update; DROP TABLE IF EXISTS listings_fts;`);
      const present = new Set(
        (db.prepare('PRAGMA table_info(listings)').all() as Array<{ name: string }>).map((column) => column.name),
      );
      for (const column of VERSION_2_COLUMNS) {
        if (!present.has(column.split(' ')[0] ?? '')) db.exec(`ALTER TABLE listings ADD COLUMN ${column}`);
      }
      const update = db.prepare(
        'UPDATE listings SET search_title = @searchTitle, aliases = @aliases, product_key = @productKey, accessory = @accessory WHERE rowid = @rowid',
      );
      const rows = db.prepare('SELECT rowid, title, brand, category, gtin, mpn FROM listings').all() as Array<{
        rowid: number;
        title: string;
        brand: string;
        category: string;
        gtin: string | null;
        mpn: string | null;
      }>;
      for (const row of rows) {
        update.run({
          rowid: row.rowid,
          ...derivedColumns({ ...row, gtin: row.gtin ?? undefined, mpn: row.mpn ?? undefined }),
        });
      }
      db.exec(FTS_SCHEMA);
      db.exec("INSERT INTO listings_fts (listings_fts) VALUES ('rebuild')");
    })();
  }
  db.exec(SCHEMA);
  // Catalogues made before imports were stamped gain the column in place (no index rebuild needed).
  const columns = (db.prepare('PRAGMA table_info(listings)').all() as Array<{ name: string }>).map((c) => c.name);
  if (!columns.includes('import_id')) db.exec('ALTER TABLE listings ADD COLUMN import_id TEXT');
  db.pragma(`user_version = ${SCHEMA_VERSION}`);
}

export type { CatalogueHit, CatalogueQuery, FeedState } from './catalogue.js';
