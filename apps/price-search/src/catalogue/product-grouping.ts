/**
 * @module
 * How both catalogue engines turn ranked rows into a page of products (ADRs 0212 and 0231): offers of one
 * product count once, in the place of its first (best-ranked) row, showing its best offer among the rows read;
 * once the page has its products, a set number of further rows is read so that the other offers of the products
 * shown are counted. One rule for SQLite's SQL path, its listing facts and PostgreSQL, which feed it rows as
 * they come (PostgreSQL page by page).
 */

/**
 * The better of two offers of one product by relevance: new before used, then the cheaper. Cheapest-first
 * ordering needs no choice: its first row is the cheapest.
 */
export function isBetterOffer(
  candidate: { readonly isNew: boolean; readonly pricePence: number },
  current: { readonly isNew: boolean; readonly pricePence: number },
): boolean {
  if (candidate.isNew !== current.isNew) return candidate.isNew;
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
  readonly #products = new Map<Product, { offer: Offer; offers: number }>();
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
      if (this.#better?.(offer, known.offer) === true) known.offer = offer;
    } else if (this.#products.size < this.#limit) {
      this.#products.set(product, { offer, offers: 1 });
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

  /** The page: each product's best offer and its offers read, in page order. */
  page(): GroupedProduct<Offer>[] {
    return [...this.#products.values()];
  }
}
