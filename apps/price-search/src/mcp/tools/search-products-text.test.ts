import { describe, expect, it } from 'vitest';
import type { RuleFollowingResult } from '../../client/rule-following-client.js';
import type { WireListing } from '../../listing/listing.js';
import { poundsText, summaryText } from './search-products.js';

const listing = {
  product: 'Apple iPhone 16 Pro Max 256GB Natural Titanium',
  price: 1079.99,
  currency: 'GBP',
  condition: 'New',
  network: 'currys_uk',
  url: 'https://currys.example.co.uk/p/1',
} as WireListing;

const result = (broadened: boolean, results: WireListing[]): RuleFollowingResult => ({
  results,
  meta: {
    query: 'iphone 15 pro 256gb',
    searched_query: broadened ? 'iphone pro' : 'iphone 15 pro 256gb',
    broadened,
    returned: results.length,
    networks_searched: ['currys_uk'],
    networks_failed: [],
  },
});

describe('the search_products text (issue 38)', () => {
  it('says plainly that a broadened answer is other products, and what it searched', () => {
    const text = summaryText(result(true, [listing]));
    expect(text.split('\n')[0]).toContain('No listings found for "iphone 15 pro 256gb"');
    expect(text.split('\n')[0]).toContain('broadened to "iphone pro"');
    expect(text.split('\n')[0]).toContain('NOT "iphone 15 pro 256gb"');
    expect(text.split('\n')[1]).toContain('Apple iPhone 16 Pro Max');
  });

  it('says when neither search found anything, and lists plain answers without a preamble', () => {
    expect(summaryText(result(true, []))).toBe(
      'No listings found for "iphone 15 pro 256gb", nor for the broader search "iphone pro" that was tried next.',
    );
    expect(summaryText(result(false, []))).toBe('No listings found for "iphone 15 pro 256gb".');
    expect(summaryText(result(false, [listing]))).toMatch(/^Apple iPhone 16 Pro Max/);
  });

  it('shows each price through whole pence, never a float rounding', () => {
    expect(summaryText(result(false, [listing]))).toBe(
      'Apple iPhone 16 Pro Max 256GB Natural Titanium — £1079.99 (New, currys_uk) https://currys.example.co.uk/p/1',
    );
    expect(poundsText(1299.9)).toBe('£1299.90');
    expect(poundsText(0.07)).toBe('£0.07');
    expect(poundsText(1.005)).toBe('£1.005');
  });
});
