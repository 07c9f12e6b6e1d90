import { describe, expect, it } from 'vitest';
import { planMatch, type TermIndex } from './term-understanding.js';
import { Vocabulary } from './vocabulary.js';

/** A catalogue of a few listings' words; `matches` is true when one listing has every quoted word, and counted. */
function fakeIndex(listings: readonly (readonly string[])[]) {
  const asked: string[] = [];
  const index: TermIndex = {
    matches(expression) {
      asked.push(expression);
      const conjuncts = expression.split(' AND ').map((part) => [...part.matchAll(/"([^"]+)"/g)].map((m) => m[1]));
      return listings.some((words) => conjuncts.every((options) => options.some((word) => words.includes(word ?? ''))));
    },
    vocabulary: () => Vocabulary.fromDocuments(listings),
  };
  return { index, asked };
}

describe('planMatch', () => {
  it('asks whether the words match together only when the plan is asked to join two of them (ADR 0229)', async () => {
    const { index, asked } = fakeIndex([
      ['acme', 'ziplock'],
      ['zip', 'tie'],
      ['lock', 'pin'],
    ]);
    const plan = await planMatch(['acme', 'zip', 'lock'], index);
    expect(plan.strict).toBe('"acme" AND "zip" AND "lock"');
    expect(asked.filter((expression) => expression.includes(' AND '))).toEqual([]);

    // Every word is known, but no listing has all three: "zip lock" is one catalogue word.
    const joined = await plan.joined();
    expect(asked).toContain('"acme" AND "zip" AND "lock"');
    expect(joined?.terms).toEqual(['acme', 'ziplock']);
    expect(joined?.strict).toBe('"acme" AND "ziplock"');
    expect(await joined?.joined()).toBeUndefined();
  });

  it('joins nothing when the words match together', async () => {
    const { index } = fakeIndex([['zip', 'lock', 'acme']]);
    const plan = await planMatch(['acme', 'zip', 'lock'], index);
    expect(await plan.joined()).toBeUndefined();
  });

  it('relaxes a query of three words or more by dropping a word no listing has, in another script only', async () => {
    const { index } = fakeIndex([
      ['bosch', 'cordless', 'drill'],
      ['bosch', 'hammer', 'drill'],
    ]);
    const plan = await planMatch(['bosch', 'drill', '黑色'], index);
    expect(plan.strict).toBe('"bosch" AND "drill" AND "黑色"');
    expect(await plan.relaxed()).toBe('("bosch" AND "drill")');
    // A Latin word the catalogue lacks could be the line or model asked for ("lego technic bugatti"): it stays
    // required, and the answer is empty rather than another model (issue 38).
    expect(await (await planMatch(['bosch', 'drill', 'zzqx'], index)).relaxed()).toBeUndefined();
  });

  it('has no relaxed expression for fewer than three words', async () => {
    const { index } = fakeIndex([['bosch', 'drill']]);
    const plan = await planMatch(['bosch', 'zzqx'], index);
    expect(await plan.relaxed()).toBeUndefined();
  });

  it('completes a code written without its first pieces, only when one code ends with it (ADR 0239)', async () => {
    const { index } = fakeIndex([
      ['sony', 'wh', '1000xm4', 'wh1000xm4', 'headphones'],
      ['sony', 'wh', '1000xm5', 'wh1000xm5', 'headphones'],
      ['sony', 'wf', '1000xm5', 'wf1000xm5', 'earbuds'],
    ]);
    const xm4 = await (await planMatch(['xm4', 'headphones'], index)).joined();
    expect(xm4?.terms).toEqual(['1000xm4', 'headphones']);
    // "xm5" ends two codes (headphones and earbuds): neither is guessed.
    expect(await (await planMatch(['xm5', 'headphones'], index)).joined()).toBeUndefined();
  });

  it('corrects a misspelt half of a name written in two words, joined (ADR 0239)', async () => {
    const { index } = fakeIndex([
      ['bose', 'quietcomfort', 'earbuds'],
      ['bose', 'soundlink', 'flex'],
    ]);
    const plan = await planMatch(['bose', 'quiet', 'confort', 'earbuds'], index);
    expect(plan.terms).toEqual(['bose', 'quietcomfort', 'earbuds']);
  });
});
