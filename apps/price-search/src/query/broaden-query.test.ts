import { describe, expect, it } from 'vitest';
import { broadenQuery } from './broaden-query.js';

describe('broadenQuery', () => {
  it('drops the condition, the model code and middle words, and keeps the ceiling', () => {
    expect(broadenQuery('refurbished lenovo thinkpad t480 laptop under £300')).toEqual({
      query: 'lenovo laptop',
      maxPence: 30000,
    });
  });

  it('drops numbers in model names', () => {
    expect(broadenQuery('iphone 13 mini')).toEqual({ query: 'iphone mini', maxPence: undefined });
  });

  it('drops a sort word and a floor', () => {
    expect(broadenQuery('cheapest road bike over £500')).toEqual({ query: 'road bike', maxPence: undefined });
  });

  it('returns undefined when nothing can be dropped', () => {
    expect(broadenQuery('kettle')).toBeUndefined();
    expect(broadenQuery('kettle under £30')).toBeUndefined();
  });

  it('returns undefined when only numbers are left', () => {
    expect(broadenQuery('4090')).toBeUndefined();
  });
});
