import { describe, expect, it } from 'vitest';
import { buildMatchExpressions } from './match-expression.js';

describe('buildMatchExpressions', () => {
  it('requires every term, each quoted', () => {
    expect(buildMatchExpressions(['dyson', 'v15'])).toEqual(['"dyson" AND "v15"']);
  });

  it('turns a hyphenated model name into a phrase', () => {
    expect(buildMatchExpressions(['sony', 'wh-1000xm5'])).toEqual(['"sony" AND "wh 1000xm5"']);
  });

  it('cannot be used to inject FTS5 syntax', () => {
    expect(buildMatchExpressions(['title:x*', 'NEAR(a', '"b"'])).toEqual([
      '"title x" AND "near a" AND "b"',
      '("near a" AND "b") OR ("title x" AND "b") OR ("title x" AND "near a")',
    ]);
  });

  it('adds a relaxed expression that tolerates one missing term from three terms on', () => {
    expect(buildMatchExpressions(['gift', 'lego', 'titanic'])[1]).toBe(
      '("lego" AND "titanic") OR ("gift" AND "titanic") OR ("gift" AND "lego")',
    );
  });

  it('expands shoppers words to the spelling titles use', () => {
    expect(buildMatchExpressions(['ps5', 'slim'])).toEqual(['("ps5" OR "playstation 5") AND "slim"']);
  });

  it('returns nothing for terms without letters or digits', () => {
    expect(buildMatchExpressions(['-', '+'])).toEqual([]);
  });
});
