import { describe, expect, it } from 'vitest';
import { isBetterOffer, offerTerms, ProductGrouping } from './product-grouping.js';

interface Offer {
  readonly id: string;
  readonly condition: string;
  readonly pricePence: number;
}

const offer = (id: string, condition: string, pricePence: number): Offer => ({ id, condition, pricePence });
const byRelevance = (candidate: Offer, current: Offer) => isBetterOffer(offerTerms(candidate), offerTerms(current));

/** Feeds rows until the grouping says stop; the rows it took. */
function feed(grouping: ProductGrouping<string, Offer>, rows: ReadonlyArray<readonly [string, Offer]>): number {
  let taken = 0;
  for (const [product, row] of rows) {
    taken += 1;
    if (!grouping.add(product, row)) break;
  }
  return taken;
}

describe('isBetterOffer', () => {
  it('prefers the cheaper offer, whatever its condition (every offer read meets the query; ADR 0238)', () => {
    expect(isBetterOffer({ isNew: true, pricePence: 900 }, { isNew: false, pricePence: 100 })).toBe(false);
    expect(isBetterOffer({ isNew: false, pricePence: 100 }, { isNew: true, pricePence: 900 })).toBe(true);
    expect(isBetterOffer({ isNew: true, pricePence: 499 }, { isNew: true, pricePence: 500 })).toBe(true);
    // An equal offer does not replace the one already shown: the better-ranked row stays.
    expect(isBetterOffer({ isNew: true, pricePence: 500 }, { isNew: true, pricePence: 500 })).toBe(false);
  });

  it('counts only "new" as new', () => {
    expect(offerTerms(offer('a', 'refurbished', 100))).toEqual({ isNew: false, pricePence: 100 });
    expect(offerTerms(offer('b', 'new', 100))).toEqual({ isNew: true, pricePence: 100 });
  });
});

describe('ProductGrouping', () => {
  it('places each product at its first row and shows its best offer among the rows read', () => {
    const grouping = new ProductGrouping<string, Offer>(2, 10, byRelevance);
    feed(grouping, [
      ['kettle', offer('k1', 'used', 1500)],
      ['toaster', offer('t1', 'new', 3000)],
      ['kettle', offer('k2', 'new', 2500)],
      ['kettle', offer('k3', 'new', 2000)],
      ['toaster', offer('t2', 'used', 1000)],
    ]);
    expect(grouping.page().map(({ offer: shown, offers }) => [shown.id, offers])).toEqual([
      ['k1', 3],
      ['t2', 2],
    ]);
    expect(grouping.products()).toEqual(['kettle', 'toaster']);
    expect(grouping.rows).toBe(5);
  });

  it('keeps the first row of each product when no choice is given (cheapest first)', () => {
    const grouping = new ProductGrouping<string, Offer>(3, 10, undefined);
    feed(grouping, [
      ['kettle', offer('k1', 'used', 100)],
      ['toaster', offer('t1', 'new', 150)],
      ['kettle', offer('k2', 'new', 200)],
    ]);
    expect(grouping.page()).toEqual([
      { offer: offer('k1', 'used', 100), offers: 2 },
      { offer: offer('t1', 'new', 150), offers: 1 },
    ]);
  });

  it('answers a query that names one product with its offers, one entry each, cheapest first (ADR 0238)', () => {
    const grouping = new ProductGrouping<string, Offer>(5, 10, byRelevance);
    feed(grouping, [
      ['kettle', offer('k1', 'new', 2500)],
      ['kettle', offer('k2', 'used', 1500)],
      ['kettle', offer('k3', 'refurbished', 2000)],
    ]);
    expect(grouping.page().map(({ offer: shown, offers }) => [shown.id, offers])).toEqual([
      ['k2', 3],
      ['k3', 3],
      ['k1', 3],
    ]);
    // A full page says nothing about other products: one product on a page of one stays one entry.
    const single = new ProductGrouping<string, Offer>(1, 10, byRelevance);
    feed(single, [
      ['kettle', offer('k1', 'new', 2500)],
      ['kettle', offer('k2', 'used', 1500)],
    ]);
    expect(single.page().map(({ offer: shown }) => shown.id)).toEqual(['k2']);
  });

  it('reads the row that completes the page and `lookahead` more, counting offers only among them', () => {
    const grouping = new ProductGrouping<string, Offer>(2, 2, undefined);
    const rows: Array<[string, Offer]> = [
      ['a', offer('a1', 'new', 1)],
      ['a', offer('a2', 'new', 2)],
      ['b', offer('b1', 'new', 3)], // completes the page
      ['a', offer('a3', 'new', 4)], // lookahead 1
      ['b', offer('b2', 'new', 5)], // lookahead 2: the grouping takes it and says stop
      ['a', offer('a4', 'new', 6)],
      ['b', offer('b3', 'new', 7)],
    ];
    expect(feed(grouping, rows)).toBe(5);
    expect(grouping.rows).toBe(5);
    expect(grouping.page().map(({ offer: shown, offers }) => [shown.id, offers])).toEqual([
      ['a1', 3],
      ['b1', 2],
    ]);
  });

  it('reads every row while the page is short, and names the products those rows were of', () => {
    const grouping = new ProductGrouping<string, Offer>(5, 0, byRelevance);
    const rows: Array<[string, Offer]> = Array.from({ length: 40 }, (_, index) => [
      `p${index % 3}`,
      offer(`o${index}`, 'new', 1000 - index),
    ]);
    expect(feed(grouping, rows)).toBe(40);
    expect(grouping.products()).toEqual(['p0', 'p1', 'p2']);
    expect(grouping.page().map(({ offer: shown, offers }) => [shown.id, offers])).toEqual([
      ['o39', 14],
      ['o37', 13],
      ['o38', 13],
    ]);
  });
});
