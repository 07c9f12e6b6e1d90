import { describe, expect, it } from 'vitest';
import { buildMatchExpressions, mergeSynonymPhrases, termExpression } from './match-expression.js';

describe('buildMatchExpressions', () => {
  it('requires every term, each quoted in the index spelling', () => {
    expect(buildMatchExpressions(['dyson', 'v15'])).toEqual(['"dyson" AND ("v 15" OR "v15")']);
  });

  it('turns a hyphenated model name into a phrase, with its run-together spelling as an alternative', () => {
    expect(buildMatchExpressions(['sony', 'wh-1000xm5'])).toEqual(['"sony" AND ("wh 1000xm 5" OR "wh1000xm5")']);
  });

  it('splits codes where letters meet digits, keeping short unit suffixes on their digits', () => {
    expect(termExpression('flip6')).toBe('("flip 6" OR "flip6")');
    expect(termExpression('s24ultra')).toBe('("s 24 ultra" OR "s24ultra")');
    expect(termExpression('256gb')).toBe('"256gb"');
    expect(termExpression('3s')).toBe('"3s"');
  });

  it('cannot be used to inject FTS5 syntax', () => {
    expect(buildMatchExpressions(['title:x*', 'NEAR(a', '"b"'])).toEqual([
      '"title x" AND "near a" AND "b"',
      '("near a" AND "b") OR ("title x" AND "b") OR ("title x" AND "near a")',
    ]);
  });

  it('adds a relaxed expression that drops one unknown word from three terms on', () => {
    const unknown = (term: string) => term === 'gift';
    expect(buildMatchExpressions(['gift', 'lego', 'titanic'], unknown)[1]).toBe('("lego" AND "titanic")');
  });

  it('adds a relaxed expression without usage words when a product word remains', () => {
    expect(buildMatchExpressions(['kettle', 'kitchen'], () => false)).toEqual(['"kettle" AND "kitchen"', '("kettle")']);
    expect(buildMatchExpressions(['wireless'], () => false)).toEqual(['"wireless"']);
    expect(buildMatchExpressions(['macbook', 'air'], () => false)).toHaveLength(1);
  });

  it('never drops a known word or a model code, so another model cannot stand in for the one asked for', () => {
    expect(buildMatchExpressions(['iphone', '14', 'pro'], () => false)).toHaveLength(1);
    expect(buildMatchExpressions(['iphone', '14', 'pro'], (term) => term === '14')).toHaveLength(1);
  });

  it('expands shoppers words to the spelling titles use', () => {
    expect(buildMatchExpressions(['ps5', 'slim'])).toEqual(['("ps 5" OR "ps5" OR "playstation 5") AND "slim"']);
    expect(termExpression('bbq')).toBe('("bbq" OR "barbecue")');
  });

  it('merges two-word synonym phrases into one term', () => {
    expect(mergeSynonymPhrases(['vintage', 'record', 'player'])).toEqual(['vintage', 'record player']);
    expect(termExpression('record player')).toBe('("record player" OR "turntable")');
  });

  it('finds the synonyms of a plural as those of its singular (ADR 0239)', () => {
    expect(mergeSynonymPhrases(['games', 'consoles'])).toEqual(['games consoles']);
    expect(termExpression('games consoles')).toBe('("games consoles" OR "console")');
    expect(termExpression('hair stylers')).toBe('("hair stylers" OR "airwrap" OR "flexstyle")');
  });

  it('folds accents and compatibility forms', () => {
    expect(termExpression('pokémon')).toBe('"pokemon"');
    expect(termExpression('ＰＳ５')).toBe(termExpression('ps5'));
  });

  it('returns nothing for terms without letters or digits', () => {
    expect(buildMatchExpressions(['-', '+'])).toEqual([]);
  });
});
