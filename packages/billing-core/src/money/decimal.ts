/**
 * @module
 * Exact decimal numbers for quantities, rates, allowances and balances.
 *
 * A Decimal is an immutable BigInt coefficient scaled by 10^-scale. Nothing here ever
 * passes through a JavaScript number, so `0.1 + 0.2` is `0.3` and a 35-digit quantity
 * keeps every digit.
 */

const CANONICAL = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?$/;

export class Decimal {
  private constructor(
    /** The digits, as an integer. */
    readonly coefficient: bigint,
    /** How many of the digits sit after the decimal point. */
    readonly scale: number,
  ) {}

  static readonly zero = new Decimal(0n, 0);

  /**
   * Parses a plain decimal string such as `"12"`, `"-0.5"` or `"1.250"`.
   * Exponents, leading zeros, `+` signs and blanks are refused: callers validate wire
   * input against the stricter patterns in `decimal-patterns.ts` first.
   * @throws RangeError when the text is not a plain decimal.
   */
  static parse(text: string): Decimal {
    const match = CANONICAL.exec(text);
    if (!match) throw new RangeError(`Not a decimal: ${JSON.stringify(text)}`);
    const [, sign, whole, fraction = ''] = match;
    const digits = BigInt(`${whole}${fraction}`);
    return new Decimal(sign === '-' ? -digits : digits, fraction.length);
  }

  static fromBigInt(value: bigint): Decimal {
    return new Decimal(value, 0);
  }

  add(other: Decimal): Decimal {
    const scale = Math.max(this.scale, other.scale);
    return new Decimal(this.scaledTo(scale) + other.scaledTo(scale), scale);
  }

  subtract(other: Decimal): Decimal {
    return this.add(other.negate());
  }

  multiply(other: Decimal): Decimal {
    return new Decimal(this.coefficient * other.coefficient, this.scale + other.scale);
  }

  negate(): Decimal {
    return new Decimal(-this.coefficient, this.scale);
  }

  /** -1, 0 or 1 as this is below, equal to or above `other`. */
  compare(other: Decimal): -1 | 0 | 1 {
    const scale = Math.max(this.scale, other.scale);
    const left = this.scaledTo(scale);
    const right = other.scaledTo(scale);
    return left < right ? -1 : left > right ? 1 : 0;
  }

  equals(other: Decimal): boolean {
    return this.compare(other) === 0;
  }

  isZero(): boolean {
    return this.coefficient === 0n;
  }

  isPositive(): boolean {
    return this.coefficient > 0n;
  }

  isNegative(): boolean {
    return this.coefficient < 0n;
  }

  min(other: Decimal): Decimal {
    return this.compare(other) <= 0 ? this : other;
  }

  max(other: Decimal): Decimal {
    return this.compare(other) >= 0 ? this : other;
  }

  /** The canonical text: no exponent, no trailing fractional zeros, `"0"` for zero. */
  toString(): string {
    let coefficient = this.coefficient;
    let scale = this.scale;
    while (scale > 0 && coefficient % 10n === 0n) {
      coefficient /= 10n;
      scale -= 1;
    }
    const negative = coefficient < 0n;
    const digits = (negative ? -coefficient : coefficient).toString().padStart(scale + 1, '0');
    const whole = digits.slice(0, digits.length - scale);
    const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
    return `${negative ? '-' : ''}${whole}${fraction}`;
  }

  toJSON(): string {
    return this.toString();
  }

  /** Refuses coercion so that `a < b` or `a + b` cannot silently compare or join text. */
  valueOf(): never {
    throw new TypeError('Decimal: use compare(), add() or toString(), not arithmetic operators');
  }

  private scaledTo(scale: number): bigint {
    return this.coefficient * 10n ** BigInt(scale - this.scale);
  }
}
