/**
 * @module
 * Integer division with a named rounding rule. Money is BigInt minor units; every division in
 * the billing arithmetic goes through here, so the rule is never implicit.
 */

export type RoundingMode = 'half-even' | 'half-up' | 'down';

/**
 * `numerator / denominator` rounded to an integer by `mode`. `half-even` (banker's rounding)
 * sends exact halves to the even neighbour, so rounding errors do not drift one way over many
 * lines; `half-up` sends halves away from zero; `down` truncates toward zero.
 * @throws RangeError when the denominator is not positive.
 * @example divideRounded(5n, 2n, 'half-even') // 2n
 */
export function divideRounded(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  if (denominator <= 0n) throw new RangeError('divideRounded: the denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  const twiceRemainder = (magnitude % denominator) * 2n;
  if (mode !== 'down') {
    if (twiceRemainder > denominator) quotient += 1n;
    else if (twiceRemainder === denominator && (mode === 'half-up' || quotient % 2n === 1n)) quotient += 1n;
  }
  return negative ? -quotient : quotient;
}
