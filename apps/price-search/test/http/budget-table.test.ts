import { describe, expect, it } from 'vitest';
import { createTestService, fixedConnector } from '../support/test-service.js';

// Query understanding seen from the outside: what a connector is asked for after an HTTP request.
// [query, max_price, expected text, min pence, max pence, condition, sort]
const table = [
  ['headphones under £50', undefined, 'headphones', undefined, 5000, undefined, 'relevance'],
  ['kettle below 50 pounds', undefined, 'kettle', undefined, 5000, undefined, 'relevance'],
  ['usb cable <£30', undefined, 'usb cable', undefined, 3000, undefined, 'relevance'],
  ['headphones between £20 and £40', undefined, 'headphones', 2000, 4000, undefined, 'relevance'],
  ['macbook pro £1,299.99 max', undefined, 'macbook pro', undefined, 129999, undefined, 'relevance'],
  ['tv £300-£500', undefined, 'tv', 30000, 50000, undefined, 'relevance'],
  ['headphones for less than fifty quid', undefined, 'headphones', undefined, 5000, undefined, 'relevance'],
  ['iphone 13', undefined, 'iphone 13', undefined, undefined, undefined, 'relevance'],
  ['thinkpad t480 under £300', undefined, 'thinkpad t480', undefined, 30000, undefined, 'relevance'],
  ['rtx 4090', undefined, 'rtx 4090', undefined, undefined, undefined, 'relevance'],
  ['cheapest used iphone 12 under £200', undefined, 'iphone 12', undefined, 20000, 'used', 'price_asc'],
  ['refurbished ipad', undefined, 'ipad', undefined, undefined, 'refurbished', 'relevance'],
  ['headphones under £300', 60, 'headphones', undefined, 6000, undefined, 'relevance'],
  ['tv £300-£500', 400, 'tv', 30000, 40000, undefined, 'relevance'],
  ['tv over £500', 400, 'tv', undefined, 40000, undefined, 'relevance'],
  ['iphone 13', 299.99, 'iphone 13', undefined, 29999, undefined, 'relevance'],
] as const;

describe('query understanding through POST /api/query', () => {
  it.each(table)('%j with max_price %j', async (text, maxPrice, terms, minPence, maxPence, condition, sort) => {
    const connector = fixedConnector('probe', ['ebay_uk'], []);
    const { query } = await createTestService({ demoFeed: false, extraConnectors: [connector] });
    const response = await query({
      query: text,
      networks: ['ebay_uk'],
      ...(maxPrice === undefined ? {} : { max_price: maxPrice }),
    });
    expect(response.status).toBe(200);
    expect(connector.queries).toHaveLength(1);
    const asked = connector.queries[0];
    expect({
      text: asked?.text,
      minPence: asked?.minPence,
      maxPence: asked?.maxPence,
      condition: asked?.condition,
      sort: asked?.sort,
    }).toEqual({ text: terms, minPence, maxPence, condition, sort });
  });
});
