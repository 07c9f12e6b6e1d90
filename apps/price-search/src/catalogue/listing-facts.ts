/**
 * @module
 * What a SQLite catalogue lookup filters, orders and groups by, for every listing, in typed arrays indexed by
 * rowid: price, network, condition, stock, accessory flag and product. With them the full-text query checks a
 * match's filters without reading its listing row, the candidates are ordered and grouped by product in
 * JavaScript, and only the listings shown are read (ADR 0225). The facts are a copy of the catalogue taken at
 * one moment: the catalogue decides when they are current (see catalogue-store.ts) and never uses stale ones.
 */
import { CONDITIONS, type Condition } from '../listing/listing.js';
import { NETWORKS, type NetworkId } from '../listing/networks.js';

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

// Stored in `#state`: 0 marks a rowid with no listing, or one of a network this build does not know.
const OUT_OF_STOCK = 1;
const IN_STOCK = 2;
const NEW = CONDITIONS.indexOf('new');

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
  // Rowids ordered by price then rowid, made by the first cheapest-first lookup over many matches.
  #byPrice: Int32Array | undefined;

  private constructor(size: number) {
    this.#price = new Float64Array(size);
    this.#network = new Uint8Array(size);
    this.#condition = new Uint8Array(size);
    this.#state = new Uint8Array(size);
    this.#accessory = new Uint8Array(size);
    this.#product = new Int32Array(size);
  }

  /** Reads `rows` (any order) into facts for rowids up to `maxRowid`. Product keys become small numbers. */
  static fromRows(maxRowid: number, rows: Iterable<FactsRow>): ListingFacts {
    const facts = new ListingFacts(maxRowid + 1);
    const networks = new Map<string, number>(NETWORKS.map((network, index) => [network, index]));
    const conditions = new Map<string, number>(CONDITIONS.map((condition, index) => [condition, index]));
    const products = new Map<string, number>();
    for (const [rowid, pricePence, networkId, conditionName, inStock, accessory, productKey] of rows) {
      const network = networks.get(networkId);
      const condition = conditions.get(conditionName);
      if (rowid < 0 || rowid > maxRowid || network === undefined || condition === undefined) continue;
      let product = products.get(productKey);
      if (product === undefined) {
        product = products.size;
        products.set(productKey, product);
      }
      facts.#price[rowid] = pricePence;
      facts.#network[rowid] = network;
      facts.#condition[rowid] = condition;
      facts.#state[rowid] = inStock === 1 ? IN_STOCK : OUT_OF_STOCK;
      facts.#accessory[rowid] = accessory === 0 ? 0 : 1;
      facts.#product[rowid] = product;
    }
    return facts;
  }

  /** Rowids the facts cover (0 to size - 1). */
  get size(): number {
    return this.#state.length;
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
    const size = state.length;
    return (rowid) =>
      rowid < size &&
      state[rowid] === IN_STOCK &&
      networks[network[rowid] as number] === 1 &&
      (condition < 0 || conditions[rowid] === condition) &&
      (price[rowid] as number) >= min &&
      (price[rowid] as number) <= max;
  }

  /** True when the listing is not an accessory. */
  isProduct(rowid: number): boolean {
    return rowid < this.#state.length && this.#state[rowid] !== 0 && this.#accessory[rowid] === 0;
  }

  /** The product number of a listing (equal numbers: the same product key). */
  productOf(rowid: number): number {
    return this.#product[rowid] as number;
  }

  /** True when the facts of `rowid` say what `row` says (a listing read from the catalogue). */
  agreesWith(
    rowid: number,
    row: { pricePence: number; network: string; condition: string; availability: string },
  ): boolean {
    return (
      rowid < this.#state.length &&
      this.#price[rowid] === row.pricePence &&
      NETWORKS[this.#network[rowid] as number] === row.network &&
      CONDITIONS[this.#condition[rowid] as number] === row.condition &&
      this.#state[rowid] === (row.availability === 'in_stock' ? IN_STOCK : OUT_OF_STOCK)
    );
  }

  /**
   * Orders ranked candidates as the SQL ranking does: accessories after products when `demoteAccessories`,
   * then by BM25 score (lower is better), new before other conditions, cheaper first, then catalogue order.
   */
  orderByRelevance(candidates: ReadonlyArray<readonly [number, number]>, demoteAccessories: boolean): number[] {
    const accessory = this.#accessory;
    const condition = this.#condition;
    const price = this.#price;
    return [...candidates]
      .sort(
        ([rowA, scoreA], [rowB, scoreB]) =>
          (demoteAccessories ? (accessory[rowA] as number) - (accessory[rowB] as number) : 0) ||
          scoreA - scoreB ||
          (condition[rowA] === NEW ? 0 : 1) - (condition[rowB] === NEW ? 0 : 1) ||
          (price[rowA] as number) - (price[rowB] as number) ||
          rowA - rowB,
      )
      .map(([rowid]) => rowid);
  }

  /** Rowids cheapest first, then in catalogue order. */
  orderByPrice(rowids: readonly number[]): number[] {
    const price = this.#price;
    return [...rowids].sort((a, b) => (price[a] as number) - (price[b] as number) || a - b);
  }

  /**
   * The rowids of `matches` cheapest first, by walking every listing in price order and keeping those in
   * `matches`: cheaper than sorting many matches when a page needs only the first few (lazily, so the walk
   * stops where the page does).
   */
  *walkByPrice(matches: readonly number[]): Generator<number, void, undefined> {
    const marked = new Uint8Array(this.#state.length);
    for (const rowid of matches) marked[rowid] = 1;
    for (const rowid of this.#priceOrder()) {
      if (marked[rowid] === 1) yield rowid;
    }
  }

  #priceOrder(): Int32Array {
    if (this.#byPrice === undefined) {
      const rowids: number[] = [];
      for (let rowid = 0; rowid < this.#state.length; rowid += 1) if (this.#state[rowid] !== 0) rowids.push(rowid);
      this.#byPrice = Int32Array.from(this.orderByPrice(rowids));
    }
    return this.#byPrice;
  }

  /**
   * Groups listings (best first) by product until `limit` products are found, as `groupByProduct` does with
   * rows: a product takes the place of its first listing and shows its best offer among the listings read (for
   * relevance new before used, then the cheaper; cheapest-first keeps the first), and once the page is full
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
    const products = new Map<number, { rowid: number; offers: number }>();
    let extra = 0;
    let count = 0;
    for (const rowid of ordered) {
      count += 1;
      const product = this.#product[rowid] as number;
      const known = products.get(product);
      if (known !== undefined) {
        known.offers += 1;
        if (relevance && this.#isBetterOffer(rowid, known.rowid)) known.rowid = rowid;
      } else if (products.size < limit) {
        products.set(product, { rowid, offers: 1 });
      }
      if (products.size >= limit) {
        extra += 1;
        if (extra > lookahead) break;
      }
    }
    if (read !== undefined) {
      read.rows = count;
      read.products = [...products.keys()];
    }
    return [...products.values()];
  }

  #isBetterOffer(candidate: number, current: number): boolean {
    const candidateNew = this.#condition[candidate] === NEW;
    const currentNew = this.#condition[current] === NEW;
    if (candidateNew !== currentNew) return candidateNew;
    return (this.#price[candidate] as number) < (this.#price[current] as number);
  }
}
