/**
 * Decimal arithmetic agrees with BigInt arithmetic on integers scaled to one common scale,
 * and the text form round-trips.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { Decimal } from './decimal.js';
import { QUANTITY_PATTERN } from './decimal-patterns.js';

const MAX_SCALE = 12;
/** Large enough for a product of two decimals of MAX_SCALE each. */
const COMMON_SCALE = 2 * MAX_SCALE;

/** Plain decimal text: a sign, whole digits without leading zeros, and 0 to 12 fraction digits. */
const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.bigInt({ min: 1n, max: 10n ** 40n }).map(String)),
    fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: MAX_SCALE }),
  )
  .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`);

const decimal = decimalText.map((text) => Decimal.parse(text));

/** The exact value as an integer count of 10^-COMMON_SCALE. */
function scaled(value: Decimal): bigint {
  return value.coefficient * 10n ** BigInt(COMMON_SCALE - value.scale);
}

function sign(value: bigint): -1 | 0 | 1 {
  return value < 0n ? -1 : value > 0n ? 1 : 0;
}

describe('Decimal properties', () => {
  test.prop([decimalText])('parse then toString gives text that parses to the same value', (text) => {
    const once = Decimal.parse(text);
    const again = Decimal.parse(once.toString());
    expect(again.equals(once)).toBe(true);
    expect(again.toString()).toBe(once.toString());
  });

  test.prop([decimal])('toString is canonical: no trailing fractional zeros, no negative zero', (value) => {
    const text = value.toString();
    expect(text).not.toMatch(/\.\d*0$/);
    expect(text).not.toMatch(/^-0$/);
    expect(text).toMatch(/^-?(0|[1-9]\d*)(\.\d+)?$/);
  });

  test.prop([decimal, decimal])('add matches BigInt addition', (a, b) => {
    expect(scaled(a.add(b))).toBe(scaled(a) + scaled(b));
  });

  test.prop([decimal, decimal])('subtract matches BigInt subtraction', (a, b) => {
    expect(scaled(a.subtract(b))).toBe(scaled(a) - scaled(b));
  });

  test.prop([decimal, decimal])('multiply matches BigInt multiplication', (a, b) => {
    // a × b at scale 2·S is (A × B) where A, B are at scale S; bring it back to S exactly.
    const product = a.multiply(b);
    expect(product.coefficient * 10n ** BigInt(2 * COMMON_SCALE - product.scale)).toBe(scaled(a) * scaled(b));
  });

  test.prop([decimal, decimal])('add and multiply are commutative', (a, b) => {
    expect(a.add(b).equals(b.add(a))).toBe(true);
    expect(a.multiply(b).equals(b.multiply(a))).toBe(true);
  });

  test.prop([decimal, decimal, decimal])('add and multiply are associative', (a, b, c) => {
    expect(
      a
        .add(b)
        .add(c)
        .equals(a.add(b.add(c))),
    ).toBe(true);
    expect(
      a
        .multiply(b)
        .multiply(c)
        .equals(a.multiply(b.multiply(c))),
    ).toBe(true);
  });

  test.prop([decimal, decimal, decimal])('multiply distributes over add', (a, b, c) => {
    expect(a.multiply(b.add(c)).equals(a.multiply(b).add(a.multiply(c)))).toBe(true);
  });

  test.prop([decimal])('zero and one are identities; a − a is zero', (a) => {
    expect(a.add(Decimal.zero).equals(a)).toBe(true);
    expect(a.multiply(Decimal.parse('1')).equals(a)).toBe(true);
    expect(a.subtract(a).isZero()).toBe(true);
    expect(a.negate().negate().equals(a)).toBe(true);
  });

  test.prop([decimal, decimal])('compare agrees with BigInt order and is antisymmetric', (a, b) => {
    expect(a.compare(b)).toBe(sign(scaled(a) - scaled(b)));
    expect(b.compare(a)).toBe(-a.compare(b) || 0);
    expect(a.equals(b)).toBe(a.toString() === b.toString());
  });

  test.prop([decimal, decimal, decimal])('compare is transitive', (a, b, c) => {
    const [low, middle, high] = [a, b, c].sort((x, y) => x.compare(y)) as [Decimal, Decimal, Decimal];
    expect(low.compare(middle)).toBeLessThanOrEqual(0);
    expect(middle.compare(high)).toBeLessThanOrEqual(0);
    expect(low.compare(high)).toBeLessThanOrEqual(0);
  });

  test.prop([decimal, decimal])('min and max pick one of the two, in order', (a, b) => {
    expect(a.min(b).compare(a.max(b))).toBeLessThanOrEqual(0);
    expect([a, b].some((value) => value.equals(a.min(b)))).toBe(true);
    expect(a.min(b).add(a.max(b)).equals(a.add(b))).toBe(true);
  });

  test.prop([fc.double({ noNaN: true, noDefaultInfinity: true, min: 0 })])(
    'the quantity pattern never accepts a float artefact with more than 9 decimal places',
    (value) => {
      const text = String(value);
      const fraction = /\.(\d+)$/.exec(text)?.[1] ?? '';
      if (fraction.length > 9 || /e/i.test(text)) expect(QUANTITY_PATTERN.test(text)).toBe(false);
    },
  );
});
