/**
 * @module
 * The catalogue on PostgreSQL, for when one machine's SQLite file is outgrown (several service instances, a
 * million listings kept by a managed database). Full-text search over a stored tsvector of the same
 * normalised title, aliases, brand and category as the SQLite index (weights A, B, C, D), with a Snowball
 * English stemmer that keeps stop words ("tears of the kingdom"); queries are read by the same code as on
 * SQLite (term-understanding.ts), and pg_trgm finds the catalogue words near a misspelt one (`%` on the
 * vocabulary table, then the shared edit-distance rule decides). Offers are grouped by product as on SQLite.
 */
import pg from 'pg';
import type { NetworkId } from '../listing/networks.js';
import { asksForAccessory, isAccessory, productKeyOf } from '../listing/product-identity.js';
import { aliasesOf, searchTextOf } from '../listing/search-text.js';
import type { Pence } from '../money/pence.js';
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
import { isBetterOffer, offerTerms, ProductGrouping } from './product-grouping.js';
import { byPriceSql, type RankedText, rankByRelevance } from './ranking-rule.js';
import { planMatch, type TermIndex, toTsQuery, type VocabularyRequest } from './term-understanding.js';
import { Vocabulary } from './vocabulary.js';

// The full-text indexes of the listings: every listing, and the used and refurbished ones (about a tenth of a
// catalogue), so that a lookup filtered to those reads only their rows (ADR 0234).
const FULL_TEXT_INDEXES = [
  'catalogue_listings_document',
  'catalogue_listings_document_used',
  'catalogue_listings_document_refurbished',
] as const;

// One statement list, run as one transaction; the advisory lock makes instances starting together take turns
// (two `CREATE INDEX IF NOT EXISTS` at once would fail in the second).
const SCHEMA = `
SELECT pg_advisory_xact_lock(hashtext('drawdown price-search catalogue schema'));
CREATE EXTENSION IF NOT EXISTS pg_trgm;
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'catalogue_stem') THEN
    CREATE TEXT SEARCH DICTIONARY catalogue_stem (TEMPLATE = snowball, Language = english);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'catalogue') THEN
    CREATE TEXT SEARCH CONFIGURATION catalogue (COPY = simple);
    ALTER TEXT SEARCH CONFIGURATION catalogue ALTER MAPPING FOR asciiword, word, asciihword, hword_asciipart,
      hword_part, hword WITH catalogue_stem;
  END IF;
END $$;
CREATE TABLE IF NOT EXISTS catalogue_listings (
  id BIGSERIAL PRIMARY KEY,
  network TEXT NOT NULL,
  item_id TEXT NOT NULL,
  title TEXT NOT NULL,
  brand TEXT NOT NULL,
  category TEXT NOT NULL,
  url TEXT NOT NULL,
  price_pence BIGINT NOT NULL CHECK (price_pence > 0),
  condition TEXT NOT NULL CHECK (condition IN ('new', 'used', 'refurbished')),
  availability TEXT NOT NULL,
  search_title TEXT NOT NULL,
  aliases TEXT NOT NULL,
  product_key TEXT NOT NULL,
  accessory SMALLINT NOT NULL,
  gtin TEXT,
  mpn TEXT,
  image_url TEXT,
  shipping_pence BIGINT,
  feed_id TEXT,
  seen_run BIGINT,
  document TSVECTOR GENERATED ALWAYS AS (
    setweight(to_tsvector('catalogue', search_title), 'A') || setweight(to_tsvector('catalogue', aliases), 'B') ||
    setweight(to_tsvector('catalogue', brand), 'C') || setweight(to_tsvector('catalogue', category), 'D')
  ) STORED,
  UNIQUE (network, item_id)
);
ALTER TABLE catalogue_listings ADD COLUMN IF NOT EXISTS import_id TEXT;
CREATE INDEX IF NOT EXISTS catalogue_listings_document ON catalogue_listings USING GIN (document);
CREATE INDEX IF NOT EXISTS catalogue_listings_document_used ON catalogue_listings USING GIN (document)
  WHERE condition = 'used';
CREATE INDEX IF NOT EXISTS catalogue_listings_document_refurbished ON catalogue_listings USING GIN (document)
  WHERE condition = 'refurbished';
CREATE INDEX IF NOT EXISTS catalogue_listings_price ON catalogue_listings (price_pence);
CREATE INDEX IF NOT EXISTS catalogue_listings_feed ON catalogue_listings (feed_id, seen_run);
CREATE TABLE IF NOT EXISTS catalogue_words (word TEXT PRIMARY KEY, listings INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS catalogue_words_trgm ON catalogue_words USING GIN (word gin_trgm_ops);
CREATE TABLE IF NOT EXISTS catalogue_feed_state (
  feed_id TEXT PRIMARY KEY,
  etag TEXT,
  last_modified TEXT,
  last_attempt_at TEXT,
  last_success_at TEXT,
  last_changed_at TEXT,
  last_error TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0
);
`;

const COLUMNS = [
  'network',
  'item_id',
  'title',
  'brand',
  'category',
  'url',
  'price_pence',
  'condition',
  'availability',
  'search_title',
  'aliases',
  'product_key',
  'accessory',
  'gtin',
  'mpn',
  'image_url',
  'shipping_pence',
  'feed_id',
  'seen_run',
  'import_id',
] as const;

/**
 * How long a cached answer (the engine's results, the probes' answers) may live, measured from when it was
 * computed: other service instances' writes to the same database are not seen sooner.
 */
const ANSWERS_MAX_AGE_MS = 60_000;
// Rows read by the first query of an unwindowed lookup (cheapest first, or every match ranked), then by each
// further one when the page and its lookahead need more.
const PAGE_ROWS = 200;
const FIRST_ROWS = 2 * PAGE_ROWS;
const COUNTS_TTL_MS = 60_000;
// Probe answers kept (an expression and a boolean each); the oldest is dropped first.
const PROBES_KEPT = 20_000;
const STATS_INTERVAL_MS = 60_000;

interface Row {
  title: string;
  pricePence: string;
  condition: CatalogueHit['condition'];
  network: NetworkId;
  url: string;
  imageUrl: string | null;
  shippingPence: string | null;
  availability: string;
  productKey: string;
}

/** The catalogue in a PostgreSQL database. */
export class PostgresCatalogue implements Catalogue {
  readonly #pool: pg.Pool;
  #counts: { at: number; counts: Partial<Record<NetworkId, number>> } = { at: 0, counts: {} };
  #wordsDirty = true;

  readonly #markClosing: () => void;
  readonly #maxConnections: number;

  private constructor(pool: pg.Pool, markClosing: () => void, maxConnections: number) {
    this.#pool = pool;
    this.#markClosing = markClosing;
    this.#maxConnections = maxConnections;
  }

  /** Connects, creates the schema when needed (the pg_trgm extension must be available) and reads the counts. */
  static async open(connectionString: string, options: { maxConnections?: number } = {}): Promise<PostgresCatalogue> {
    const maxConnections = options.maxConnections ?? 10;
    // Every connection is kept once opened (`min`: pg's pool otherwise closes a connection idle for 10 s), so the
    // ones `prepare` opened and warmed stay warm: a new backend pays its start and the stemmer's dictionary on its
    // first lookup, and a burst after a quiet spell would pay it ten times (ADR 0232).
    const pool = new pg.Pool({ ...withSessionOptions(connectionString), max: maxConnections, min: maxConnections });
    // An idle connection the server drops (restart, failover) is replaced on next use; without a listener its
    // error would end the process. Connections still closing after `close()` are not worth a word.
    let closing = false;
    pool.on('error', (error) => {
      if (!closing) console.error(`price-search: idle catalogue connection lost: ${error.message}`);
    });
    const markClosing = (): void => {
      closing = true;
    };
    try {
      await pool.query(SCHEMA);
      const catalogue = new PostgresCatalogue(pool, markClosing, maxConnections);
      await catalogue.#refreshCounts();
      return catalogue;
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  async upsert(
    items: readonly CatalogueItem[],
    origin?: { readonly feedId: string; readonly run: number },
    importId?: string,
  ) {
    if (items.length === 0) return;
    const rows = items.map((item) => [
      item.network,
      item.itemId,
      item.title,
      item.brand,
      item.category,
      item.url,
      item.pricePence,
      item.condition,
      item.availability,
      searchTextOf(item.title),
      [aliasesOf(item.title), aliasesOf(item.brand)].filter((text) => text !== '').join(' '),
      productKeyOf(item),
      isAccessory(item.title, item.category) ? 1 : 0,
      item.gtin ?? null,
      item.mpn ?? null,
      item.imageUrl ?? null,
      item.shippingPence ?? null,
      origin?.feedId ?? null,
      origin?.run ?? null,
      importId ?? null,
    ]);
    // One statement per batch: each column arrives as an array and is unnested into rows. An unchanged offer only
    // gets its feed run stamped (the WHERE keeps the row, and so its index entries, untouched otherwise).
    const changing = COLUMNS.filter(
      (column) => !['network', 'item_id', 'feed_id', 'seen_run', 'import_id'].includes(column),
    );
    const types = [
      'text',
      'text',
      'text',
      'text',
      'text',
      'text',
      'int8',
      'text',
      'text',
      'text',
      'text',
      'text',
      'int2',
      'text',
      'text',
      'text',
      'int8',
      'text',
      'int8',
      'text',
    ];
    const arrays = COLUMNS.map((_, index) => rows.map((row) => row[index]));
    await this.#pool.query(
      `INSERT INTO catalogue_listings (${COLUMNS.join(', ')})
       SELECT * FROM unnest(${COLUMNS.map((_, index) => `$${index + 1}::${types[index]}[]`).join(', ')})
       ON CONFLICT (network, item_id) DO UPDATE SET
         ${[...changing, 'feed_id', 'seen_run', 'import_id'].map((column) => `${column} = excluded.${column}`).join(', ')}`,
      arrays,
    );
    this.#changed();
  }

  async importedBy(importId: string, items: readonly CatalogueItem[]): Promise<Set<string>> {
    if (items.length === 0) return new Set();
    const { rows } = await this.#pool.query<{ network: string; item_id: string }>(
      `SELECT network, item_id FROM catalogue_listings
       WHERE import_id = $1 AND (network, item_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
      [importId, items.map((item) => item.network), items.map((item) => item.itemId)],
    );
    return new Set(rows.map((row) => `${row.network}\u0000${row.item_id}`));
  }

  async expireFeed(feedId: string, run: number): Promise<number> {
    const result = await this.#pool.query('DELETE FROM catalogue_listings WHERE feed_id = $1 AND seen_run < $2', [
      feedId,
      run,
    ]);
    if ((result.rowCount ?? 0) > 0) this.#changed();
    return result.rowCount ?? 0;
  }

  async clear(): Promise<void> {
    await this.#pool.query('TRUNCATE catalogue_listings');
    this.#changed();
  }

  countByNetwork(): Partial<Record<NetworkId, number>> {
    if (performance.now() - this.#counts.at > COUNTS_TTL_MS && this.#background.size === 0) this.#refreshCountsLater();
    return this.#counts.counts;
  }

  async countByFeed(): Promise<Record<string, number>> {
    const { rows } = await this.#pool.query<{ feed_id: string; n: string }>(
      'SELECT feed_id, count(*) AS n FROM catalogue_listings WHERE feed_id IS NOT NULL GROUP BY feed_id',
    );
    return Object.fromEntries(rows.map((row) => [row.feed_id, Number(row.n)]));
  }

  async feedState(feedId: string): Promise<FeedState | undefined> {
    const { rows } = await this.#pool.query<FeedState>(
      `SELECT feed_id AS "feedId", etag, last_modified AS "lastModified", last_attempt_at AS "lastAttemptAt",
         last_success_at AS "lastSuccessAt", last_changed_at AS "lastChangedAt", last_error AS "lastError",
         consecutive_failures AS "consecutiveFailures" FROM catalogue_feed_state WHERE feed_id = $1`,
      [feedId],
    );
    return rows[0];
  }

  async saveFeedState(state: FeedState): Promise<void> {
    await this.#pool.query(
      `INSERT INTO catalogue_feed_state (feed_id, etag, last_modified, last_attempt_at, last_success_at,
         last_changed_at, last_error, consecutive_failures)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (feed_id) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
         last_attempt_at = excluded.last_attempt_at, last_success_at = excluded.last_success_at,
         last_changed_at = excluded.last_changed_at, last_error = excluded.last_error,
         consecutive_failures = excluded.consecutive_failures`,
      [
        state.feedId,
        state.etag,
        state.lastModified,
        state.lastAttemptAt,
        state.lastSuccessAt,
        state.lastChangedAt,
        state.lastError,
        state.consecutiveFailures,
      ],
    );
  }

  async search(query: CatalogueQuery): Promise<CatalogueHit[]> {
    if (query.networks.length === 0 || query.limit <= 0) return [];
    void this.#analyzeWhenStale();
    let plan = await planMatch(query.terms, this.#termIndex);
    if (plan.strict === undefined) return [];
    let hits = await this.#ranked(plan.strict, plan.terms, query, query.sort, demoteFor(plan.strict, plan.terms));
    if (hits.length > 0) return hits;
    // Nothing found: either the words match nothing together (then two of them may make one catalogue word), or
    // the filters exclude every match. Asked only now, so a lookup that finds listings saves a round trip.
    const joined = await plan.joined();
    if (joined?.strict !== undefined) {
      plan = joined;
      hits = await this.#ranked(joined.strict, joined.terms, query, query.sort, demoteFor(joined.strict, joined.terms));
      if (hits.length > 0) return hits;
    }
    const relaxed = await plan.relaxed();
    if (relaxed === undefined || plan.strict === undefined || (await this.#matches(plan.strict))) return hits;
    return this.#ranked(relaxed, plan.terms, query, 'relevance', demoteFor(plan.strict, plan.terms));
  }

  /**
   * Relevance is ranked among the first CANDIDATE_CAP listings that pass the filters (in the order the index
   * finds them), as on SQLite; when a full window holds fewer products than the page needs, every match is
   * ranked. Cheapest-first stays exact (ADR 0220).
   */
  async #ranked(
    match: string,
    terms: readonly string[],
    query: CatalogueQuery,
    sort: SortIntent,
    demote: string | undefined,
  ) {
    if (sort === 'price_asc') return this.#selectByPrice(match, query);
    const { hits, rows, products } = await this.#selectByRelevance(match, terms, query, demote, true);
    // A short page from a full window: rank every match only if some listing past it is another product.
    // Products, not hits: a page of one product's offers (product-grouping.ts) is still one product.
    if (products.length < query.limit && rows >= CANDIDATE_CAP && (await this.#moreProducts(match, query, products))) {
      return (await this.#selectByRelevance(match, terms, query, demote, false)).hits;
    }
    return hits;
  }

  /** True when a listing that passes the query's filters belongs to none of `products`. */
  async #moreProducts(match: string, query: CatalogueQuery, products: readonly string[]): Promise<boolean> {
    const parameters: unknown[] = [toTsQuery(match), query.networks];
    const filters = filtersOf(query, parameters);
    parameters.push(products);
    const { rowCount } = await this.#pool.query(
      `SELECT 1 FROM catalogue_listings l WHERE l.document @@ to_tsquery('catalogue', $1) AND ${filters.join(' AND ')}
        AND NOT (l.product_key = ANY($${parameters.length})) LIMIT 1`,
      parameters,
    );
    return (rowCount ?? 0) > 0;
  }

  /** A setting of the catalogue's database sessions (`current_setting`), for tests and diagnostics. */
  async sessionSetting(name: string): Promise<string> {
    const { rows } = await this.#pool.query<{ value: string }>('SELECT current_setting($1) AS value', [name]);
    return rows[0]?.value ?? '';
  }

  /** Waits for background count refreshes, then closes the pool. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#background]);
    this.#markClosing();
    await this.#pool.end();
  }

  readonly #background = new Set<Promise<void>>();

  /** Refreshes the counts in the background (health may show them a moment late). */
  #refreshCountsLater(): void {
    const refresh = this.#refreshCounts()
      .catch((error: unknown) => console.error('price-search: catalogue counts failed', error))
      .finally(() => this.#background.delete(refresh));
    this.#background.add(refresh);
  }

  readonly #termIndex: TermIndex = {
    matches: (expression) => this.#matches(expression),
    vocabulary: (request) => this.#vocabularyFor(request),
  };

  async #matches(expression: string): Promise<boolean> {
    return this.#probe(`match\n${expression}`, async () => {
      const { rowCount } = await this.#pool.query(
        "SELECT 1 FROM catalogue_listings WHERE document @@ to_tsquery('catalogue', $1) LIMIT 1",
        [toTsQuery(expression)],
      );
      return (rowCount ?? 0) > 0;
    });
  }

  // Answers of the "does anything match" probes, kept while `cacheStamp` stays the same (this process's writes)
  // and for at most ANSWERS_MAX_AGE_MS each (other instances' writes), as the engine keeps whole answers (ADR 0217).
  readonly #probes = new Map<string, { answer: boolean; at: number }>();
  #probesStamp = '';

  async #probe(key: string, ask: () => Promise<boolean>): Promise<boolean> {
    const stamp = this.cacheStamp();
    if (stamp !== this.#probesStamp) {
      this.#probes.clear();
      this.#probesStamp = stamp;
    }
    const known = this.#probes.get(key);
    if (known !== undefined && performance.now() - known.at < ANSWERS_MAX_AGE_MS) return known.answer;
    const at = performance.now();
    const answer = await ask();
    if (this.cacheStamp() === stamp) {
      this.#probes.delete(key);
      this.#probes.set(key, { answer, at });
      if (this.#probes.size > PROBES_KEPT) this.#probes.delete(this.#probes.keys().next().value ?? '');
    }
    return answer;
  }

  /**
   * The catalogue's words, read whole from the word table and kept in memory, as the SQLite catalogue keeps its
   * own (issue 38 item 4): a query with words the catalogue lacks asked the table once or twice per word (exact
   * forms, every one-edit spelling, trigram neighbours), and those round trips made empty answers the slow ones.
   * The table is rebuilt after this process's writes before it is read again; a copy is kept while the cache stamp
   * holds and for at most ANSWERS_MAX_AGE_MS (other instances' writes), as probe answers are.
   */
  async #vocabularyFor(_request: VocabularyRequest): Promise<Vocabulary> {
    if (this.#wordsDirty) {
      this.#wordsDirty = false;
      this.#words = undefined;
      await this.#rebuildWords();
    }
    const stamp = this.cacheStamp();
    const held = this.#words;
    if (held !== undefined && held.stamp === stamp && performance.now() - held.at < ANSWERS_MAX_AGE_MS) {
      return held.vocabulary;
    }
    const at = performance.now();
    const vocabulary = this.#pool
      .query<{ word: string; listings: number }>('SELECT word, listings FROM catalogue_words')
      .then(({ rows }) => new Vocabulary(new Map(rows.map((row) => [row.word, row.listings]))));
    this.#words = { vocabulary, stamp, at };
    try {
      return await vocabulary;
    } catch (error) {
      if (this.#words?.vocabulary === vocabulary) this.#words = undefined;
      throw error;
    }
  }

  // The word table in memory (see #vocabularyFor): a promise, so concurrent lookups share one read.
  #words: { vocabulary: Promise<Vocabulary>; stamp: string; at: number } | undefined;

  async #rebuildWords(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM catalogue_words');
      await client.query(`
        INSERT INTO catalogue_words (word, listings)
        SELECT word, count(DISTINCT id) FROM catalogue_listings,
          unnest(regexp_split_to_array(
            search_title || ' ' || aliases || ' ' || lower(brand) || ' ' || lower(category), '[^[:alnum:]]+')) AS word
        WHERE word <> '' GROUP BY word`);
      await client.query('COMMIT');
      await client.query('ANALYZE catalogue_words');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Relevance: the first CANDIDATE_CAP listings that pass the filters (in the order the index finds them), or
   * every match, read whole and ordered by the ranking rule both engines share (ranking-rule.ts, ADR 0235), then
   * grouped by product; a window is read whole, so a product's offers are counted among all of its rows.
   */
  async #selectByRelevance(
    match: string,
    terms: readonly string[],
    query: CatalogueQuery,
    demote: string | undefined,
    windowed: boolean,
  ): Promise<{ hits: CatalogueHit[]; rows: number; products: string[] }> {
    const parameters: unknown[] = [toTsQuery(match), query.networks];
    const filters = filtersOf(query, parameters);
    let demotes = 'false';
    if (demote !== undefined) {
      // Whether a product (not an accessory) has every term in its title: then accessories go after products.
      // Evaluated once per query (an InitPlan); a window's own listings answer it first, the catalogue-wide
      // check runs only when none of them does (ADR 0228 and its addendum).
      parameters.push(demote);
      const demoteQuery = `to_tsquery('catalogue', $${parameters.length})`;
      const anywhere = `EXISTS (SELECT 1 FROM catalogue_listings WHERE document @@ ${demoteQuery} AND accessory = 0)`;
      const inWindow = `EXISTS (SELECT 1 FROM w WHERE w.accessory = 0 AND w.document @@ ${demoteQuery})`;
      demotes = `(${windowed ? `${inWindow} OR ` : ''}${anywhere})`;
    }
    // The window is a CTE so that the accessory check above can read it too.
    const sql = `${
      windowed
        ? `WITH w AS MATERIALIZED (SELECT l.* FROM catalogue_listings l
            WHERE l.document @@ to_tsquery('catalogue', $1) AND ${filters.join(' AND ')} LIMIT ${CANDIDATE_CAP})`
        : ''
    }
      SELECT l.title, l.price_pence AS "pricePence", l.condition, l.network, l.url, l.image_url AS "imageUrl",
        l.shipping_pence AS "shippingPence", l.availability, l.product_key AS "productKey", l.id AS position,
        l.accessory, l.search_title AS "searchTitle", l.aliases, l.brand, l.category, ${demotes} AS demotes
      FROM ${windowed ? 'w l' : 'catalogue_listings l'}
      ${windowed ? '' : `WHERE l.document @@ to_tsquery('catalogue', $1) AND ${filters.join(' AND ')}`}`;
    const { rows } = await this.#pool.query<
      Row & RankedText & { position: string; accessory: number; demotes: boolean }
    >(sql, parameters);
    // Only what the rule reads, not a copy of each row's sixteen columns.
    const ranked = rankByRelevance(rows, terms, rows[0]?.demotes === true, (row) => ({
      searchTitle: row.searchTitle,
      aliases: row.aliases,
      brand: row.brand,
      category: row.category,
      position: Number(row.position),
      pricePence: Number(row.pricePence),
      isNew: row.condition === 'new',
      accessory: row.accessory === 1,
    }));
    const grouping = this.#grouping(query.limit, windowed ? CANDIDATE_CAP : OFFER_LOOKAHEAD, 'relevance');
    for (const row of ranked) if (!grouping.add(row.productKey, hitOf(row))) break;
    return {
      hits: grouping.page().map(({ offer, offers }) => ({ ...offer, offers })),
      rows: rows.length,
      products: grouping.products(),
    };
  }

  #grouping(limit: number, lookahead: number, sort: SortIntent) {
    return new ProductGrouping<string, Omit<CatalogueHit, 'offers'>>(
      limit,
      lookahead,
      sort === 'relevance'
        ? (candidate, current) => isBetterOffer(offerTerms(candidate), offerTerms(current))
        : undefined,
    );
  }

  /** Cheapest first (the ranking rule's `byPrice`), read page by page until the page and its lookahead are read. */
  async #selectByPrice(match: string, query: CatalogueQuery): Promise<CatalogueHit[]> {
    const parameters: unknown[] = [toTsQuery(match), query.networks];
    const filters = filtersOf(query, parameters);
    const sql = `
      SELECT l.title, l.price_pence AS "pricePence", l.condition, l.network, l.url, l.image_url AS "imageUrl",
        l.shipping_pence AS "shippingPence", l.availability, l.product_key AS "productKey"
      FROM catalogue_listings l
      WHERE l.document @@ to_tsquery('catalogue', $1) AND ${filters.join(' AND ')}
      ORDER BY ${byPriceSql('l', 'id')}
      LIMIT $${parameters.length + 1} OFFSET $${parameters.length + 2}`;
    const fetchRows = async (count: number, offset: number): Promise<Row[]> =>
      (await this.#pool.query<Row>(sql, [...parameters, count, offset])).rows;
    // The first query reads FIRST_ROWS rows, enough for almost every page and its lookahead: each query matches
    // and sorts every matching listing again, so asking for more rows separately doubles the database's work
    // (ADR 0219). The rows up to the one that fills the page and OFFER_LOOKAHEAD more are read, so that the other
    // offers of the products shown are counted (ADR 0231).
    let rows = await fetchRows(FIRST_ROWS, 0);
    const grouping = this.#grouping(query.limit, OFFER_LOOKAHEAD, 'price_asc');
    let asked = FIRST_ROWS;
    let read = 0;
    reading: for (;;) {
      for (const row of rows) if (!grouping.add(row.productKey, hitOf(row))) break reading;
      read += rows.length;
      // Fewer rows than asked for: every match has been read.
      if (rows.length < asked) break;
      asked = PAGE_ROWS;
      rows = await fetchRows(PAGE_ROWS, read);
    }
    return grouping.page().map(({ offer, offers }) => ({ ...offer, offers }));
  }

  #changes = 0;

  /**
   * Builds the word table when stale, merges the full-text index's pending list and refreshes the planner's
   * statistics when stale (otherwise done on and after the first lookups), and opens every connection of the
   * pool, each reading the text search configuration once (a new backend loads the stemmer's dictionary on its
   * first `to_tsquery`).
   */
  async prepare(): Promise<void> {
    await this.#vocabularyFor({ exact: [], near: [] });
    await this.#analyzeWhenStale();
    const clients = await Promise.all(Array.from({ length: this.#maxConnections }, () => this.#pool.connect()));
    try {
      await Promise.all(clients.map((client) => client.query("SELECT to_tsquery('catalogue', 'catalogue')")));
    } finally {
      for (const client of clients) client.release();
    }
  }

  /** Up to `count` in-stock listings, one every n-th id. */
  async sampleListings(count: number): Promise<ListingSample[]> {
    if (count <= 0) return [];
    const { rows } = await this.#pool.query<{
      title: string;
      pricePence: string;
      condition: ListingSample['condition'];
    }>(
      `SELECT title, price_pence AS "pricePence", condition FROM catalogue_listings
       WHERE id % greatest(1, (SELECT coalesce(max(id), 0) FROM catalogue_listings) / $1) = 0
         AND availability = 'in_stock'
       ORDER BY id LIMIT $1`,
      [count],
    );
    return rows.map((row) => ({ ...row, pricePence: Number(row.pricePence) as Pence }));
  }

  forgetAnswers(): void {
    this.#probes.clear();
  }

  /** Probe answers remembered (see `forgetAnswers`). */
  get answersKept(): number {
    return this.#probes.size;
  }

  /**
   * Changes with this process's writes. Other service instances may write to the same database unseen, so a
   * cached result lives at most `answersMaxAgeMs` from when it was computed (not until the next minute of the
   * clock: every answer would then expire at once, and every lookup of that second be computed; ADR 0229).
   */
  cacheStamp(): string {
    return String(this.#changes);
  }

  readonly answersMaxAgeMs = ANSWERS_MAX_AGE_MS;

  #statsStale = true;
  #analyzedAt = Number.NEGATIVE_INFINITY;

  /**
   * Refreshes the planner's statistics of the listings in the background after writes, at most once a minute
   * (ADR 0216). Without them (autovacuum off, or not yet run after an import) the "does this match" probes
   * are planned as sequential scans of every listing, tens of milliseconds each for a rare word.
   */
  #analyzeWhenStale(): Promise<void> {
    const now = performance.now();
    if (!this.#statsStale || now - this.#analyzedAt < STATS_INTERVAL_MS) return Promise.resolve();
    this.#statsStale = false;
    this.#analyzedAt = now;
    // Rows written since the last time sit in the GIN indexes' pending lists (fastupdate, up to 4 MB, about 4,000
    // listings after an import), which every full-text search scans one entry at a time: merging them into the
    // indexes halves the database's CPU per cold lookup at 100,000 listings (ADR 0221). Autovacuum would do it
    // too, but may be off or late; then the planner statistics are refreshed.
    const analyze = this.#pool
      .query('SELECT gin_clean_pending_list(name::regclass) FROM unnest($1::text[]) AS name', [FULL_TEXT_INDEXES])
      .then(
        () => undefined,
        (error: unknown) => {
          this.#statsStale = true;
          console.error('price-search: merging the catalogue index pending list failed', error);
        },
      )
      .then(() => this.#pool.query('ANALYZE catalogue_listings'))
      .then(() => undefined)
      .catch((error: unknown) => {
        this.#statsStale = true;
        console.error('price-search: catalogue ANALYZE failed', error);
      })
      .finally(() => this.#background.delete(analyze));
    this.#background.add(analyze);
    return analyze;
  }

  #changed(): void {
    this.#changes += 1;
    this.#statsStale = true;
    this.#wordsDirty = true;
    this.#refreshCountsLater();
  }

  async #refreshCounts(): Promise<void> {
    const { rows } = await this.#pool.query<{ network: NetworkId; n: string }>(
      'SELECT network, count(*) AS n FROM catalogue_listings GROUP BY network',
    );
    this.#counts = {
      at: performance.now(),
      counts: Object.fromEntries(rows.map((row) => [row.network, Number(row.n)])),
    };
  }
}

/**
 * Accessories go after products when a listing that is not an accessory has every term in its title or aliases
 * (as on SQLite), decided inside the ranked query (ADR 0228): the title-and-aliases query, or undefined when the
 * query asks for an accessory.
 */
/** A row as a hit (prices as numbers of pence). */
function hitOf(row: Row): Omit<CatalogueHit, 'offers'> {
  return {
    title: row.title,
    pricePence: Number(row.pricePence) as Pence,
    condition: row.condition,
    network: row.network,
    url: row.url,
    imageUrl: row.imageUrl,
    shippingPence: row.shippingPence === null ? null : (Number(row.shippingPence) as Pence),
    availability: row.availability,
  };
}

function demoteFor(strict: string, terms: readonly string[]): string | undefined {
  return asksForAccessory(terms) ? undefined : toTsQuery(strict, 'AB');
}

/**
 * The filters of a catalogue query as SQL over the listings (`l`); `parameters` holds the tsquery ($1) and the
 * networks ($2), and gets the filters' values appended.
 */
function filtersOf(query: CatalogueQuery, parameters: unknown[]): string[] {
  const filters = ["l.availability = 'in_stock'", 'l.network = ANY($2)'];
  if (query.maxPence !== undefined) {
    parameters.push(query.maxPence);
    filters.push(`l.price_pence <= $${parameters.length}`);
  }
  if (query.minPence !== undefined) {
    parameters.push(query.minPence);
    filters.push(`l.price_pence >= $${parameters.length}`);
  }
  if (query.condition !== undefined) {
    parameters.push(query.condition);
    filters.push(`l.condition = $${parameters.length}`);
  }
  return filters;
}

// A sequential scan of a table over a quarter of shared_buffers starts where the last one stopped
// (synchronize_seqscans), so "the first 150 listings that pass the filters" (ADR 0220), read by a scan when a word
// is common, changed from one lookup to the next: the same query on an unchanged catalogue gave another answer
// (4 of 1,800 bench lookups at 100,000 listings). Off, every scan starts at the first block (ADR 0227).
const SESSION_OPTIONS = '-c synchronize_seqscans=off';

/**
 * The pool's connection settings with SESSION_OPTIONS sent at connection start: added to the URL's own
 * `options` when it has some (node-postgres lets the URL's values win over the config's), else as `options`.
 */
function withSessionOptions(connectionString: string): { connectionString: string; options?: string } {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { connectionString, options: SESSION_OPTIONS };
  }
  const own = url.searchParams.get('options');
  if (own === null) return { connectionString, options: SESSION_OPTIONS };
  url.searchParams.set('options', `${own} ${SESSION_OPTIONS}`);
  return { connectionString: url.toString() };
}
