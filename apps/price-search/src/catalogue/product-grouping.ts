/**
 * @module
 * How both catalogue engines turn ranked rows into a page of products (ADRs 0212, 0231 and 0238): offers of one
 * product count once, in the place of its first (best-ranked) row, showing its cheapest offer among the rows
 * read (every row read meets the query's filters: budget, condition, networks); once the page has its products,
 * a set number of further rows is read so that the other offers of the products shown are counted. When every
 * row read is of one product and the page is not full, the query names that product: the page is then its
 * offers, one entry each, cheapest first, so that a shopper can compare them (issue 38). One rule for SQLite's
 * SQL path, its listing facts and PostgreSQL, which feed it rows as they come (PostgreSQL page by page).
 */

/**
 * The better of two offers of one product by relevance: the cheaper (an equal one does not replace the offer
 * already shown). Every offer read meets the query's conditions, so the shown price is the cheapest that does,
 * used and refurbished included when the query names no condition (issue 38). Cheapest-first ordering needs no
 * choice: its first row is the cheapest.
 */
export function isBetterOffer(
  candidate: { readonly isNew: boolean; readonly pricePence: number },
  current: { readonly isNew: boolean; readonly pricePence: number },
): boolean {
  return candidate.pricePence < current.pricePence;
}

/** A hit's terms for `isBetterOffer`. */
export function offerTerms(hit: { readonly condition: string; readonly pricePence: number }): {
  isNew: boolean;
  pricePence: number;
} {
  return { isNew: hit.condition === 'new', pricePence: hit.pricePence };
}

/** A product of a page: its best offer among the rows read, and how many of its offers were read. */
export interface GroupedProduct<Offer> {
  readonly offer: Offer;
  readonly offers: number;
}

/**
 * Groups rows, best first, by product until `limit` products are found, then reads `lookahead` more rows to
 * count the offers of the products shown. `better` chooses between two offers of a product (relevance); without
 * it the first row of a product stays its offer (cheapest first).
 */
export class ProductGrouping<Product, Offer> {
  readonly #products = new Map<Product, { offer: Offer; offers: number; all: Offer[] }>();
  readonly #limit: number;
  readonly #lookahead: number;
  readonly #better: ((candidate: Offer, current: Offer) => boolean) | undefined;
  #extra = 0;
  #rows = 0;

  constructor(limit: number, lookahead: number, better: ((candidate: Offer, current: Offer) => boolean) | undefined) {
    this.#limit = limit;
    this.#lookahead = lookahead;
    this.#better = better;
  }

  /** Takes the next row. False once the page and its lookahead are read: read no more rows. */
  add(product: Product, offer: Offer): boolean {
    this.#rows += 1;
    const known = this.#products.get(product);
    if (known !== undefined) {
      known.offers += 1;
      known.all.push(offer);
      if (this.#better?.(offer, known.offer) === true) known.offer = offer;
    } else if (this.#products.size < this.#limit) {
      this.#products.set(product, { offer, offers: 1, all: [offer] });
    }
    if (this.#products.size < this.#limit) return true;
    this.#extra += 1;
    return this.#extra <= this.#lookahead;
  }

  /** Rows taken so far (the last one included). */
  get rows(): number {
    return this.#rows;
  }

  /** The products found, in page order. While the page is short, every row taken was of one of them. */
  products(): Product[] {
    return [...this.#products.keys()];
  }

  /**
   * The page: each product's best offer and its offers read, in page order; or, when the rows read were all of
   * one product and the page had room for more, that product's offers, one entry each, cheapest first (in the
   * order read when no choice is given: cheapest-first rows), up to the page's size.
   */
  page(): GroupedProduct<Offer>[] {
    const products = [...this.#products.values()];
    const [only] = products;
    if (only === undefined || products.length > 1 || this.#limit <= 1) {
      return products.map(({ offer, offers }) => ({ offer, offers }));
    }
    const better = this.#better;
    const offers =
      better === undefined ? only.all : [...only.all].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
    return offers.slice(0, this.#limit).map((offer) => ({ offer, offers: only.offers }));
  }
}
