/**
 * @module
 * What a SQLite catalogue lookup filters, orders and groups by, for every listing, in typed arrays: price,
 * network, condition, stock, accessory flag and product. A listing's slot in the arrays is its rowid while rowids
 * are dense; when they are sparse (offers that came and went leave rowids unused) a map gives each rowid a slot,
 * so memory follows the listings, not the highest rowid. With them the full-text query checks a
 * match's filters without reading its listing row, the candidates are ordered and grouped by product in
 * JavaScript, and only the listings shown are read (ADR 0225). The facts are a copy of the catalogue taken at
 * one moment: the catalogue decides when they are current (see catalogue-store.ts) and never uses stale ones.
 */
import { CONDITIONS, type Condition } from '../listing/listing.js';
import { NETWORKS, type NetworkId } from '../listing/networks.js';
import { isBetterOffer, ProductGrouping } from './product-grouping.js';
import { byPrice, type RankedCandidate } from './ranking-rule.js';

/** The filters of a lookup, as the facts check them. */
export interface FactsFilter {
  readonly networks: readonly NetworkId[];
  readonly minPence: number | undefined;
  readonly maxPence: number | undefined;
  readonly condition: Condition | undefined;
}

/**
 * One listing as the facts read it: rowid, price in pence, network, condition, 1 when in stock, 1 when an
 * accessory, product key (an array: reading a hundred thousand rows as objects costs twice as long).
 */
export type FactsRow = readonly [number, number, string, string, number, number, string];

// Stored in `#state`: 0 marks a slot with no listing, or one of a network this build does not know.
const OUT_OF_STOCK = 1;
const IN_STOCK = 2;
const NEW = CONDITIONS.indexOf('new');
// Rowids are used as slots while the highest is at most this many times the number of listings (plus SPARE).
const DENSE_RATIO = 2;
const SPARE = 1_024;

/** A listing chosen for a page: the rowid of its best offer and how many offers of its product were read. */
export interface GroupedHit {
  readonly rowid: number;
  readonly offers: number;
}

/** The facts of every listing of a catalogue at one moment. */
export class ListingFacts {
  // Prices are whole pence; a Float64Array holds every integer a price can be exactly.
  readonly #price: Float64Array;
  readonly #network: Uint8Array;
  readonly #condition: Uint8Array;
  readonly #state: Uint8Array;
  readonly #accessory: Uint8Array;
  readonly #product: Int32Array;
  // Slots ordered by price then rowid, made by the first cheapest-first lookup over many matches.
  #byPrice: Int32Array | undefined;
  // Sparse rowids only: each rowid's slot, and each slot's rowid.
  readonly #slots: Map<number, number> | undefined;
  readonly #rowids: Float64Array | undefined;

  private constructor(size: number, sparse: boolean) {
    this.#slots = sparse ? new Map() : undefined;
    this.#rowids = sparse ? new Float64Array(size) : undefined;
    this.#price = new Float64Array(size);
    this.#network = new Uint8Array(size);
    this.#condition = new Uint8Array(size);
    this.#state = new Uint8Array(size);
    this.#accessory = new Uint8Array(size);
    this.#product = new Int32Array(size);
  }

  /**
   * Reads `rows` (any order; `count` of them, rowids up to `maxRowid`) into facts. Product keys become small
   * numbers.
   */
  static fromRows(maxRowid: number, count: number, rows: Iterable<FactsRow>): ListingFacts {
    const sparse = maxRowid + 1 > DENSE_RATIO * count + SPARE;
    const facts = new ListingFacts(sparse ? count : maxRowid + 1, sparse);
    const slots = facts.#slots;
    const networks = new Map<string, number>(NETWORKS.map((network, index) => [network, index]));
    const conditions = new Map<string, number>(CONDITIONS.map((condition, index) => [condition, index]));
    const products = new Map<string, number>();
    for (const [rowid, pricePence, networkId, conditionName, inStock, accessory, productKey] of rows) {
      const network = networks.get(networkId);
      const condition = conditions.get(conditionName);
      if (rowid < 0 || rowid > maxRowid || network === undefined || condition === undefined) continue;
      let slot = rowid;
      if (slots !== undefined) {
        if (slots.size >= count) continue;
        slot = slots.size;
        slots.set(rowid, slot);
        (facts.#rowids as Float64Array)[slot] = rowid;
      }
      let product = products.get(productKey);
      if (product === undefined) {
        product = products.size;
        products.set(productKey, product);
      }
      facts.#price[slot] = pricePence;
      facts.#network[slot] = network;
      facts.#condition[slot] = condition;
      facts.#state[slot] = inStock === 1 ? IN_STOCK : OUT_OF_STOCK;
      facts.#accessory[slot] = accessory === 0 ? 0 : 1;
      facts.#product[slot] = product;
    }
    return facts;
  }

  /** Slots in the arrays: the highest rowid plus one while rowids are dense, else the number of listings. */
  get size(): number {
    return this.#state.length;
  }

  /** The slot of a rowid; -1 for one the facts do not hold. */
  #slotOf(rowid: number): number {
    if (this.#slots !== undefined) return this.#slots.get(rowid) ?? -1;
    return rowid < this.#state.length ? rowid : -1;
  }

  /** A test of one rowid against `filter`: an in-stock listing of one of its networks, within its budget and condition. */
  passes(filter: FactsFilter): (rowid: number) => boolean {
    const networks = new Uint8Array(NETWORKS.length);
    for (const network of filter.networks) networks[NETWORKS.indexOf(network)] = 1;
    const min = filter.minPence ?? Number.NEGATIVE_INFINITY;
    const max = filter.maxPence ?? Number.POSITIVE_INFINITY;
    const condition = filter.condition === undefined ? -1 : CONDITIONS.indexOf(filter.condition);
    const price = this.#price;
    const state = this.#state;
    const network = this.#network;
    const conditions = this.#condition;
    const test = (slot: number): boolean =>
      state[slot] === IN_STOCK &&
      networks[network[slot] as number] === 1 &&
      (condition < 0 || conditions[slot] === condition) &&
      (price[slot] as number) >= min &&
      (price[slot] as number) <= max;
    const slots = this.#slots;
    if (slots !== undefined) return (rowid) => test(slots.get(rowid) ?? -1);
    const size = state.length;
    // Dense rowids: the slot is the rowid (this closure runs once per full-text match).
    return (rowid) => rowid < size && test(rowid);
  }

  /** The product number of a listing (equal numbers: the same product key); -1 for one the facts do not hold. */
  productOf(rowid: number): number {
    const slot = this.#slotOf(rowid);
    return slot >= 0 && this.#state[slot] !== 0 ? (this.#product[slot] as number) : -1;
  }

  /** True when the facts of `rowid` say what `row` says (a listing read from the catalogue). */
  agreesWith(
    rowid: number,
    row: { pricePence: number; network: string; condition: string; availability: string },
  ): boolean {
    const slot = this.#slotOf(rowid);
    return (
      slot >= 0 &&
      this.#price[slot] === row.pricePence &&
      NETWORKS[this.#network[slot] as number] === row.network &&
      CONDITIONS[this.#condition[slot] as number] === row.condition &&
      this.#state[slot] === (row.availability === 'in_stock' ? IN_STOCK : OUT_OF_STOCK)
    );
  }

  /** What the ranking rule (ranking-rule.ts) reads of a listing besides its text. */
  rankFacts(rowid: number): Omit<RankedCandidate, 'score'> {
    const slot = this.#slotOf(rowid);
    return {
      position: rowid,
      pricePence: this.#price[slot] as number,
      isNew: this.#condition[slot] === NEW,
      accessory: this.#accessory[slot] === 1,
    };
  }

  /** Rowids cheapest first, then in catalogue order (the ranking rule's `byPrice`). */
  orderByPrice(rowids: readonly number[]): number[] {
    const price = this.#price;
    return rowids
      .map((rowid) => ({ position: rowid, pricePence: price[this.#slotOf(rowid)] as number }))
      .sort(byPrice)
      .map(({ position }) => position);
  }

  /**
   * The rowids of `matches` cheapest first, by walking every listing in price order and keeping those in
   * `matches`: cheaper than sorting many matches when a page needs only the first few (lazily, so the walk
   * stops where the page does).
   */
  *walkByPrice(matches: readonly number[]): Generator<number, void, undefined> {
    const marked = new Uint8Array(this.#state.length);
    for (const rowid of matches) {
      const slot = this.#slotOf(rowid);
      if (slot >= 0) marked[slot] = 1;
    }
    const rowids = this.#rowids;
    for (const slot of this.#priceOrder()) {
      if (marked[slot] === 1) yield rowids === undefined ? slot : (rowids[slot] as number);
    }
  }

  /** Every listing's slot, cheapest first, then in catalogue order. */
  #priceOrder(): Int32Array {
    if (this.#byPrice === undefined) {
      const rowidOf = (slot: number): number => (this.#rowids === undefined ? slot : (this.#rowids[slot] as number));
      const slots: number[] = [];
      for (let slot = 0; slot < this.#state.length; slot += 1) if (this.#state[slot] !== 0) slots.push(slot);
      const price = this.#price;
      slots.sort((a, b) =>
        byPrice(
          { pricePence: price[a] as number, position: rowidOf(a) },
          { pricePence: price[b] as number, position: rowidOf(b) },
        ),
      );
      this.#byPrice = Int32Array.from(slots);
    }
    return this.#byPrice;
  }

  /**
   * Groups listings (best first) by product, by the rule both engines share (product-grouping.ts): for relevance
   * a product shows its best offer among the listings read, cheapest-first its first; once the page is full
   * `lookahead` more listings are read to count the offers of the products shown. `read` receives the number of
   * listings read and the products found.
   */
  group(
    ordered: Iterable<number>,
    limit: number,
    relevance: boolean,
    lookahead: number,
    read?: { rows: number; products: readonly number[] },
  ): GroupedHit[] {
    const grouping = new ProductGrouping<number, number>(
      limit,
      lookahead,
      relevance
        ? (candidate, current) => isBetterOffer(this.#offerTerms(candidate), this.#offerTerms(current))
        : undefined,
    );
    for (const rowid of ordered) {
      if (!grouping.add(this.productOf(rowid), rowid)) break;
    }
    if (read !== undefined) {
      read.rows = grouping.rows;
      read.products = grouping.products();
    }
    return grouping.page().map(({ offer, offers }) => ({ rowid: offer, offers }));
  }

  #offerTerms(rowid: number): { isNew: boolean; pricePence: number } {
    const slot = this.#slotOf(rowid);
    return { isNew: this.#condition[slot] === NEW, pricePence: this.#price[slot] as number };
  }
}
