import { describe, expect, it } from 'vitest';
import {
  byPrice,
  byRelevance,
  categoryLeaf,
  matchesOnlyByParentCategory,
  type RankedCandidate,
  rankByRelevance,
  relevanceScores,
} from './ranking-rule.js';

const text = (searchTitle: string, category = 'Home > Kettles', brand = '') => ({
  searchTitle,
  aliases: '',
  brand,
  category,
});

const candidate = (overrides: Partial<RankedCandidate>): RankedCandidate => ({
  position: 1,
  pricePence: 1000,
  isNew: true,
  accessory: false,
  score: 10,
  ...overrides,
});

describe('the ranking rule (ADR 0235)', () => {
  it('orders ties by condition, then price, then catalogue order, and never leaves two candidates equal', () => {
    const order = byRelevance(false);
    expect(order(candidate({ score: 9 }), candidate({ score: 10 }))).toBeGreaterThan(0);
    expect(order(candidate({ isNew: false }), candidate({ isNew: true }))).toBeGreaterThan(0);
    expect(order(candidate({ pricePence: 999 }), candidate({ pricePence: 1000 }))).toBeLessThan(0);
    expect(order(candidate({ position: 2 }), candidate({ position: 1 }))).toBeGreaterThan(0);
    expect(order(candidate({ position: 1 }), candidate({ position: 1 }))).toBe(0);
    expect(byPrice({ pricePence: 5, position: 9 }, { pricePence: 5, position: 3 })).toBeGreaterThan(0);
  });

  it('puts accessories after products only when asked to', () => {
    const accessory = candidate({ accessory: true, score: 20 });
    const product = candidate({ accessory: false, score: 10 });
    expect(byRelevance(true)(accessory, product)).toBeGreaterThan(0);
    expect(byRelevance(false)(accessory, product)).toBeLessThan(0);
  });

  it('scores a title match over a category match, and a shorter title over a longer one', () => {
    const [inTitle, inCategory] = relevanceScores(
      ['kettle'],
      [text('russell hobbs kettle'), text('russell hobbs brushed steel jug', 'Home > Kettles')],
    );
    expect(inTitle).toBeGreaterThan(inCategory as number);
    const [short, long] = relevanceScores(
      ['espresso', 'machine'],
      [text('sage bambino espresso machine'), text('sage the bambino plus espresso machine brushed stainless steel')],
    );
    expect(short).toBeGreaterThan(long as number);
  });

  it('reads a query word that names the category’s last segment as what the product is', () => {
    expect(categoryLeaf('Video Games > Games')).toBe('Games');
    const [game, console] = relevanceScores(
      ['nintendo', 'switch', 'games'],
      [
        text('mario kart 8 deluxe nintendo switch', 'Video Games > Games'),
        text('nintendo switch lite', 'Video Games > Consoles'),
      ],
    );
    expect(game).toBeGreaterThan(console as number);
  });

  it('matches a term by its synonyms, plurals and run-together spelling', () => {
    const [ps5, none] = relevanceScores(['ps5'], [text('sony playstation 5 slim'), text('xbox series x')]);
    expect(ps5).toBeGreaterThan(0);
    expect(none).toBe(0);
    const [plural] = relevanceScores(['kettles'], [text('smeg kettle')]);
    expect(plural).toBeGreaterThan(0);
  });

  it('ranks candidates of any shape by their facts, stable on equal ones', () => {
    const rows = [
      { id: 'b', position: 2 },
      { id: 'a', position: 1 },
      { id: 'c', position: 3 },
    ];
    const ranked = rankByRelevance(rows, ['kettle'], false, (row) => ({
      ...text('smeg kettle'),
      position: row.position,
      pricePence: 1000,
      isNew: true,
      accessory: false,
    }));
    expect(ranked.map((row) => row.id)).toEqual(['a', 'b', 'c']);
  });

  it('leaves out a candidate whose only match for a word is a parent category, unless that word is a usage word', () => {
    const console = text('sony playstation 5 slim console', 'Video Games > Consoles');
    expect(matchesOnlyByParentCategory(['ps5', 'games'], console)).toBe(true);
    // "garden" says where a pizza oven is used, not what it is (ADR 0239).
    const oven = text('ooni koda 12 gas pizza oven', 'Garden > Outdoor Cooking');
    expect(matchesOnlyByParentCategory(['pizza', 'oven', 'garden'], oven)).toBe(false);
  });
});
