/**
 * @module
 * Exact arithmetic and display of the decimal strings that usage balances carry (`"1250.5"`).
 * Quantities never become Numbers: they are scaled BigInts, so a balance of any size or
 * precision is shown and compared exactly.
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A decimal as an integer coefficient and a count of fraction digits. */
export interface ScaledDecimal {
  readonly coefficient: bigint;
  readonly scale: number;
}

/** Reads a decimal string; anything else (including an empty or missing value) reads as zero. */
export function parseDecimal(text: string | null | undefined): ScaledDecimal {
  const match = DECIMAL.exec((text ?? '').trim());
  if (!match) return { coefficient: 0n, scale: 0 };
  const [, sign = '', integer = '0', fraction = ''] = match;
  const coefficient = BigInt(`${integer}${fraction}`);
  return { coefficient: sign === '-' ? -coefficient : coefficient, scale: fraction.length };
}

function rescale(value: ScaledDecimal, scale: number): bigint {
  return value.coefficient * 10n ** BigInt(scale - value.scale);
}

/** The sum of two decimals, exactly. */
export function addDecimals(left: ScaledDecimal, right: ScaledDecimal): ScaledDecimal {
  const scale = Math.max(left.scale, right.scale);
  return { coefficient: rescale(left, scale) + rescale(right, scale), scale };
}

/** The decimal as a plain string without trailing fraction zeros (`"12.50"` → `"12.5"`). */
export function decimalToString(value: ScaledDecimal): string {
  const negative = value.coefficient < 0n;
  const digits = (negative ? -value.coefficient : value.coefficient).toString().padStart(value.scale + 1, '0');
  const integer = digits.slice(0, digits.length - value.scale);
  const fraction = digits.slice(digits.length - value.scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`;
}

/** The larger of two decimals, exactly. */
export function maxDecimal(left: ScaledDecimal, right: ScaledDecimal): ScaledDecimal {
  const scale = Math.max(left.scale, right.scale);
  return rescale(left, scale) >= rescale(right, scale) ? left : right;
}

export function isPositive(value: ScaledDecimal): boolean {
  return value.coefficient > 0n;
}

/**
 * `part / whole` in basis points (0 to 10000), rounded down, exact for any size; 0 when the
 * whole is not positive. A positive part never rounds to 0, so a sliver of use stays visible.
 */
export function basisPoints(part: ScaledDecimal, whole: ScaledDecimal): number {
  const scale = Math.max(part.scale, whole.scale);
  const numerator = rescale(part, scale);
  const denominator = rescale(whole, scale);
  if (denominator <= 0n || numerator <= 0n) return 0;
  const points = (numerator * 10_000n) / denominator;
  if (points >= 10_000n) return 10_000;
  return points === 0n ? 1 : Number(points);
}

interface QuantityFormatter {
  readonly integer: Intl.NumberFormat;
  readonly decimalSeparator: string;
  readonly digits: readonly string[];
}

const formatters = new Map<string, QuantityFormatter>();

function formatterFor(locale: string): QuantityFormatter {
  const cached = formatters.get(locale);
  if (cached) return cached;
  const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const decimalSeparator =
    new Intl.NumberFormat(locale, { minimumFractionDigits: 1 })
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.';
  const digitFormat = new Intl.NumberFormat(locale, {
    useGrouping: false,
    numberingSystem: integer.resolvedOptions().numberingSystem,
  });
  const digits = Array.from({ length: 10 }, (_, digit) => digitFormat.format(digit));
  const created = { integer, decimalSeparator, digits };
  // Bounded: locales come from request headers.
  if (formatters.size > 256) formatters.clear();
  formatters.set(locale, created);
  return created;
}

/**
 * A decimal string in the viewer's locale, exactly: grouping and digits from Intl, the fraction
 * digits from the string itself (`"1234567.25"` in de-DE → `"1.234.567,25"`).
 */
export function formatQuantity(text: string, locale: string): string {
  const value = parseDecimal(text);
  const plain = decimalToString(value);
  const negative = plain.startsWith('-');
  const [integer = '0', fraction = ''] = (negative ? plain.slice(1) : plain).split('.');
  const formatter = formatterFor(locale);
  let result = formatter.integer.format(BigInt(integer));
  if (fraction) {
    let localFraction = '';
    for (const character of fraction) localFraction += formatter.digits[character.charCodeAt(0) - 48] ?? character;
    result += `${formatter.decimalSeparator}${localFraction}`;
  }
  return negative ? `-${result}` : result;
}
