import { describe, expect, it } from 'vitest';
import type { Condition } from '../listing/listing.js';
import type { Pence } from '../money/pence.js';
import { parseQuery, type SortIntent, withMaxPrice } from './parse-query.js';

interface Expected {
  readonly max?: number;
  readonly min?: number;
  readonly condition?: Condition;
  readonly sort?: SortIntent;
}

// [query, expected search text, budget in pence / condition / sort]. Anything not stated is expected absent.
const table: ReadonlyArray<readonly [string, string, Expected]> = [
  // Ceilings with a cue before the amount
  ['headphones under £50', 'headphones', { max: 5000 }],
  ['kettle below 50 pounds', 'kettle', { max: 5000 }],
  ['usb c cable <£30', 'usb c cable', { max: 3000 }],
  ['usb c cable < £30', 'usb c cable', { max: 3000 }],
  ['airpods <= £120', 'airpods', { max: 12000 }],
  ['airpods ≤ £120', 'airpods', { max: 12000 }],
  ['bluetooth speaker less than £40', 'bluetooth speaker', { max: 4000 }],
  ['bluetooth speaker less than 40', 'bluetooth speaker', { max: 4000 }],
  ['desk lamp up to £25', 'desk lamp', { max: 2500 }],
  ['desk lamp upto 25 quid', 'desk lamp', { max: 2500 }],
  ['air fryer no more than £80', 'air fryer', { max: 8000 }],
  ['air fryer not more than 80 pounds', 'air fryer', { max: 8000 }],
  ['gaming mouse cheaper than £35', 'gaming mouse', { max: 3500 }],
  ['monitor at most £150', 'monitor', { max: 15000 }],
  ['ps5 controller under 50', 'ps5 controller', { max: 5000 }],
  ['robot vacuum max £200', 'robot vacuum', { max: 20000 }],
  ['robot vacuum maximum £200', 'robot vacuum', { max: 20000 }],
  ['robot vacuum with a max of £200', 'robot vacuum', { max: 20000 }],
  ['laptop budget £400', 'laptop', { max: 40000 }],
  ['laptop budget of 400', 'laptop', { max: 40000 }],
  ['my budget is 400 for a laptop', 'laptop', { max: 40000 }],
  ['coffee machine within £300', 'coffee machine', { max: 30000 }],
  ['sub £100 smartwatch', 'smartwatch', { max: 10000 }],
  ['trainers for under £60', 'trainers', { max: 6000 }],
  ['lego set under a tenner', 'lego set', { max: 1000 }],
  ['phone case under a fiver', 'phone case', { max: 500 }],
  // Ceilings with a cue after the amount
  ['macbook pro £1,299.99 max', 'macbook pro', { max: 129999 }],
  ['macbook pro 1299.99 pounds max', 'macbook pro', { max: 129999 }],
  ['hair dryer £40 or less', 'hair dryer', { max: 4000 }],
  ['hair dryer 40 or less', 'hair dryer', { max: 4000 }],
  ['toaster £30 and under', 'toaster', { max: 3000 }],
  ['toaster 30 and under', 'toaster', { max: 3000 }],
  ['blender £60 tops', 'blender', { max: 6000 }],
  ['sofa £500 budget', 'sofa', { max: 50000 }],
  ['tablet £250 or cheaper', 'tablet', { max: 25000 }],
  // Bare amounts marked as money are ceilings
  ['kettle £30', 'kettle', { max: 3000 }],
  ['50 quid headphones', 'headphones', { max: 5000 }],
  ['50quid headphones', 'headphones', { max: 5000 }],
  ['echo dot for £25', 'echo dot', { max: 2500 }],
  ['nintendo switch 250 gbp', 'nintendo switch', { max: 25000 }],
  ['nintendo switch gbp 250', 'nintendo switch', { max: 25000 }],
  ['nintendo switch 250gbp', 'nintendo switch', { max: 25000 }],
  ['£1,299 gaming laptop', 'gaming laptop', { max: 129900 }],
  ['£1.5k gaming pc', 'gaming pc', { max: 150000 }],
  ['gaming pc 2 grand', 'gaming pc', { max: 200000 }],
  ['gaming pc under 2k', 'gaming pc', { max: 200000 }],
  ['£49.99 wireless earbuds', 'wireless earbuds', { max: 4999 }],
  ['£49.9 wireless earbuds', 'wireless earbuds', { max: 4990 }],
  // Written amounts
  ['headphones for less than fifty quid', 'headphones', { max: 5000 }],
  ['headphones under fifty pounds', 'headphones', { max: 5000 }],
  ['headphones under fifty', 'headphones', { max: 5000 }],
  ['drone under a hundred quid', 'drone', { max: 10000 }],
  ['e-bike under two grand', 'e-bike', { max: 200000 }],
  ['tv under a grand', 'tv', { max: 100000 }],
  ['printer under two hundred and fifty pounds', 'printer', { max: 25000 }],
  ['watch under twenty-five quid', 'watch', { max: 2500 }],
  ['watch under twenty five quid', 'watch', { max: 2500 }],
  ['xbox one controller under thirty quid', 'xbox one controller', { max: 3000 }],
  // Ranges
  ['headphones between £20 and £40', 'headphones', { min: 2000, max: 4000 }],
  ['headphones between 20 and 40 pounds', 'headphones', { min: 2000, max: 4000 }],
  ['headphones between 20 and 40', 'headphones', { min: 2000, max: 4000 }],
  ['headphones between twenty and forty quid', 'headphones', { min: 2000, max: 4000 }],
  ['tv £300-£500', 'tv', { min: 30000, max: 50000 }],
  ['tv £300 - £500', 'tv', { min: 30000, max: 50000 }],
  ['tv £300–£500', 'tv', { min: 30000, max: 50000 }],
  ['tv 300-500 pounds', 'tv', { min: 30000, max: 50000 }],
  ['tv £300 to £500', 'tv', { min: 30000, max: 50000 }],
  ['tv from £300 to £500', 'tv', { min: 30000, max: 50000 }],
  ['tv from 300 to 500', 'tv', { min: 30000, max: 50000 }],
  ['tv between £500 and £300', 'tv', { min: 30000, max: 50000 }],
  // Floors
  ['road bike over £500', 'road bike', { min: 50000 }],
  ['road bike above 500', 'road bike', { min: 50000 }],
  ['road bike more than £500', 'road bike', { min: 50000 }],
  ['road bike at least £500', 'road bike', { min: 50000 }],
  ['road bike £500+', 'road bike', { min: 50000 }],
  ['road bike from £500', 'road bike', { min: 50000 }],
  ['road bike £500 or more', 'road bike', { min: 50000 }],
  ['road bike over £500 under £900', 'road bike', { min: 50000, max: 90000 }],
  // Approximate amounts: 90% to 110%
  ['kettle around £50', 'kettle', { min: 4500, max: 5500 }],
  ['kettle about £40', 'kettle', { min: 3600, max: 4400 }],
  // Several ceilings keep the lowest; a floor above the ceiling is dropped
  ['speaker under £80 max £60', 'speaker', { max: 6000 }],
  ['speaker over £90 under £60', 'speaker', { max: 6000 }],
  // Model numbers are never prices
  ['iphone 13', 'iphone 13', {}],
  ['iphone 13 under £400', 'iphone 13', { max: 40000 }],
  ['iphone 13 under 400', 'iphone 13', { max: 40000 }],
  ['lenovo thinkpad t480', 'lenovo thinkpad t480', {}],
  ['thinkpad t480 under £300', 'thinkpad t480', { max: 30000 }],
  ['rtx 4090', 'rtx 4090', {}],
  ['rtx 4090 24gb', 'rtx 4090 24gb', {}],
  ['rtx 4090 24 gb', 'rtx 4090 24 gb', {}],
  ['iphone 15 pro max', 'iphone 15 pro max', {}],
  ['iphone 15 pro max 256', 'iphone 15 pro max 256', {}],
  ['iphone 15 pro max £800', 'iphone 15 pro max', { max: 80000 }],
  ['galaxy s24 ultra', 'galaxy s24 ultra', {}],
  ['sony wh-1000xm5', 'sony wh-1000xm5', {}],
  ['sony wh-1000xm5 under £250', 'sony wh-1000xm5', { max: 25000 }],
  ['ps5 slim', 'ps5 slim', {}],
  ['dyson v15 detect', 'dyson v15 detect', {}],
  ['airpods pro 2', 'airpods pro 2', {}],
  ['nintendo switch 2', 'nintendo switch 2', {}],
  ['pixel 8 pro 128gb', 'pixel 8 pro 128gb', {}],
  ['ipad air 11 inch', 'ipad air 11 inch', {}],
  ['laptop under 14 inch', 'laptop under 14 inch', {}],
  ['tv over 65 inches', 'tv over 65 inch', {}],
  ['tv over 65" under £700', 'tv over 65 inch', { max: 70000 }],
  ['power bank 20000 mah', 'power bank 20000 mah', {}],
  ['samsung 990 pro 2tb', 'samsung 990 pro 2tb', {}],
  ['4k tv', '4k tv', {}],
  ['xbox series x', 'xbox series x', {}],
  ['xbox one', 'xbox one', {}],
  ['under armour hoodie', 'under armour hoodie', {}],
  ['under armour hoodie under £40', 'under armour hoodie', { max: 4000 }],
  ['500 piece jigsaw', '500 piece jigsaw', {}],
  ['canon eos r50 2 year warranty', 'canon eos r50 2 year warranty', {}],
  // Conditions
  ['refurbished iphone 13', 'iphone 13', { condition: 'refurbished' }],
  ['refurb macbook air', 'macbook air', { condition: 'refurbished' }],
  ['renewed kindle paperwhite', 'kindle paperwhite', { condition: 'refurbished' }],
  ['reconditioned dyson v11', 'dyson v11', { condition: 'refurbished' }],
  ['certified pre-owned iphone 14', 'iphone 14', { condition: 'refurbished' }],
  ['used ps5', 'ps5', { condition: 'used' }],
  ['second hand ps5', 'ps5', { condition: 'used' }],
  ['second-hand ps5', 'ps5', { condition: 'used' }],
  ['pre-owned ps5', 'ps5', { condition: 'used' }],
  ['preowned rolex', 'rolex', { condition: 'used' }],
  ['pre-loved mulberry bag', 'mulberry bag', { condition: 'used' }],
  ['switch oled like new', 'switch oled', { condition: 'used' }],
  ['brand new airpods', 'airpods', { condition: 'new' }],
  ['new airpods', 'airpods', { condition: 'new' }],
  ['sealed pokemon booster box', 'pokemon booster box', { condition: 'new' }],
  ['bnib jordan 1', 'jordan 1', { condition: 'new' }],
  ['new balance 574 trainers', 'new balance 574 trainers', {}],
  ['new new balance 574', 'new balance 574', { condition: 'new' }],
  ['new look dress', 'new look dress', {}],
  ['new or used ps5', 'ps5', {}],
  ['used thinkpad t480 under £300', 'thinkpad t480', { condition: 'used', max: 30000 }],
  ['refurbished iphone 13 between £200 and £300', 'iphone 13', { condition: 'refurbished', min: 20000, max: 30000 }],
  // Sort intent
  ['cheapest ps5', 'ps5', { sort: 'price_asc' }],
  ['cheap laptop', 'laptop', { sort: 'price_asc' }],
  ['lowest price airpods pro', 'airpods pro', { sort: 'price_asc' }],
  ['airpods pro best price', 'airpods pro', { sort: 'price_asc' }],
  ['budget gaming headset', 'gaming headset', { sort: 'price_asc' }],
  ['bargain air fryer', 'air fryer', { sort: 'price_asc' }],
  ['cheapest used iphone 12 under £200', 'iphone 12', { sort: 'price_asc', condition: 'used', max: 20000 }],
  [
    'cheapest refurbished macbook air m1 under a grand',
    'macbook air m1',
    {
      sort: 'price_asc',
      condition: 'refurbished',
      max: 100000,
    },
  ],
  // Filler words and punctuation
  ['Find me a Dyson V15 please!', 'dyson v15', {}],
  ["I'm looking for the best noise cancelling headphones in stock", 'noise cancelling headphones', {}],
  ['what is the price of a ps5 in the uk?', 'ps5', {}],
  ['HEADPHONES UNDER £50', 'headphones', { max: 5000 }],
  ['  lots   of   spaces  £20  ', 'lots spaces', { max: 2000 }],
  ["men's running shoes", "men's running shoes", {}],
  ['jabra on-ear headphones', 'jabra on-ear headphones', {}],
  ['usb-c to lightning cable', 'usb-c lightning cable', {}],
];

describe('parseQuery', () => {
  it('covers at least 100 phrasings', () => {
    expect(table.length).toBeGreaterThanOrEqual(100);
  });

  it.each(table)('reads %j', (query, text, expected) => {
    const parsed = parseQuery(query);
    expect({
      text: parsed.text,
      max: parsed.budget.maxPence,
      min: parsed.budget.minPence,
      condition: parsed.condition,
      sort: parsed.sort,
    }).toEqual({
      text,
      max: expected.max,
      min: expected.min,
      condition: expected.condition,
      sort: expected.sort ?? 'relevance',
    });
  });

  it('returns no terms when the query only states a budget', () => {
    expect(parseQuery('cheapest under £50').terms).toEqual([]);
  });
});

describe('retailers named in the text', () => {
  it.each([
    ['ps5 at currys', 'ps5', ['currys_uk']],
    ['airpods on argos', 'airpods', ['argos_uk']],
    ['kindle from amazon', 'kindle', ['amazon_uk']],
    ['argos air fryer', 'air fryer', ['argos_uk']],
    ['dyson v8 ebay', 'dyson v8', ['ebay_uk']],
    ['ebay uk used macbook', 'macbook', ['ebay_uk']],
    ["macbook air from curry's", 'macbook air', ['currys_uk']],
    ['headphones on amazon uk', 'headphones', ['amazon_uk']],
    ['cheapest ps5 at argos or currys', 'ps5', ['argos_uk', 'currys_uk']],
    ['tv from pc world', 'tv', ['currys_uk']],
  ] as const)('reads %j as %j on %j', (query, text, networks) => {
    const parsed = parseQuery(query);
    expect({ text: parsed.text, networks: parsed.networks }).toEqual({ text, networks });
  });

  it.each([
    ['amazon echo dot', 'amazon echo dot'],
    ['amazon fire tv stick', 'amazon fire tv stick'],
  ])('leaves a brand or product name in the middle of %j as a search word', (query, text) => {
    const parsed = parseQuery(query);
    expect({ text: parsed.text, networks: parsed.networks }).toEqual({ text, networks: undefined });
  });
});

describe('any script', () => {
  it.each([
    ['pokémon cards', ['pokémon', 'cards']],
    ['耳机', ['耳机']],
    ['наушники sony', ['наушники', 'sony']],
    ['ＰＳ５ controller', ['ps5', 'controller']],
  ])('keeps the words of %j', (query, terms) => {
    expect(parseQuery(query).terms).toEqual(terms);
  });
});

describe('withMaxPrice', () => {
  it('replaces a ceiling found in the text', () => {
    expect(withMaxPrice(parseQuery('headphones under £50'), 3000 as Pence).budget).toEqual({
      maxPence: 3000,
      minPence: undefined,
    });
  });

  it('keeps a floor from the text below the new ceiling', () => {
    expect(withMaxPrice(parseQuery('tv £300-£500'), 40000 as Pence).budget).toEqual({
      minPence: 30000,
      maxPence: 40000,
    });
  });

  it('drops a floor from the text above the new ceiling', () => {
    expect(withMaxPrice(parseQuery('tv over £500'), 40000 as Pence).budget).toEqual({
      minPence: undefined,
      maxPence: 40000,
    });
  });

  it('leaves the query unchanged without max_price', () => {
    const parsed = parseQuery('tv under £500');
    expect(withMaxPrice(parsed, undefined)).toBe(parsed);
  });
});

describe('parseQuery: what shoppers and agents say (issue 38)', () => {
  it.each([
    ['how much is a dyson airwrap', 'dyson airwrap'],
    ['birthday present for my 10 year old, a nintendo switch game under £50', 'nintendo switch game'],
    ['lego for a 6-year-old', 'lego'],
    ['headphones for my teenage son', 'headphones'],
    ['something to make coffee', 'coffee machine'],
    ['gift for a coffee lover', 'coffee machine'],
    ['something to cut the grass', 'lawn mower'],
    ['48in oled tv', '48 inch oled tv'],
    ['65" tv', '65 inch tv'],
    ['27-inch monitor', '27 inch monitor'],
    ['9.5 litre air fryer', '9.5l air fryer'],
    ['canon eos r50 2 year warranty', 'canon eos r50 2 year warranty'],
    // ADR 0239: possessives of audience words, seasons, question phrases made of product words, a letter after a
    // number, and intents per kind of product.
    ["a drone for my husband's birthday", 'drone'],
    ['something to keep the house cool in summer', 'air conditioner'],
    ['how much would a steam deck set me back', 'steam deck'],
    ['going rate for an xbox series s', 'xbox series s'],
    ['pixel 8 a', 'pixel 8 a'],
    ['galaxy a 55 128gb', 'galaxy 55 128gb'],
    ['a present for a keen photographer', 'camera'],
    ['something for the condensation in my bedroom', 'dehumidifier bedroom'],
    ['a card reader for sd cards', 'card reader sd cards'],
  ])('reads "%s" as "%s"', (query, text) => {
    expect(parseQuery(query).text).toBe(text);
  });

  it.each([
    [
      'iphone 15 vs pixel 9',
      [
        ['iphone', '15'],
        ['pixel', '9'],
      ],
    ],
    ['xbox series x or ps5', [['xbox', 'series', 'x'], ['ps5']]],
    [
      'ninja or cosori air fryer',
      [
        ['ninja', 'air', 'fryer'],
        ['cosori', 'air', 'fryer'],
      ],
    ],
    [
      'samsung galaxy s22 vs s21',
      [
        ['samsung', 'galaxy', 's22'],
        ['samsung', 'galaxy', 's21'],
      ],
    ],
    [
      'iphone 13 or 14',
      [
        ['iphone', '13'],
        ['iphone', '14'],
      ],
    ],
  ])('compares the two sides of "%s"', (query, sides) => {
    expect(parseQuery(query).compared).toEqual(sides);
  });

  it('compares nothing when "or" joins conditions or retailers', () => {
    expect(parseQuery('new or used iphone').compared).toBeUndefined();
    expect(parseQuery('cheapest ps5 at argos or currys').compared).toBeUndefined();
  });
});
