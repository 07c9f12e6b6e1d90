/**
 * @module
 * Whole pence: the only money representation below the HTTP and MCP edges. Sources give decimal strings
 * ("279.00"), clients give pounds as JSON numbers; both become integer pence here, and only the
 * response edge turns pence back into a number of pounds.
 */

/** An amount in whole pence. Integers compare exactly, so budgets are always checked in pence. */
export type Pence = number & { readonly __brand: 'Pence' };

/** Largest amount accepted anywhere (one million pounds): keeps every sum far below 2^53. */
export const MAX_PENCE = 100_000_000 as Pence;

const DECIMAL_POUNDS = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * Parses a decimal string of pounds with at most two decimal places into pence.
 * @example penceFromDecimal('1299.9') // 129990
 */
export function penceFromDecimal(text: string): Pence | undefined {
  const match = DECIMAL_POUNDS.exec(text.trim());
  if (!match) return undefined;
  const pounds = Number(match[1]);
  const fraction = (match[2] ?? '').padEnd(2, '0');
  const pence = pounds * 100 + Number(fraction);
  return pence <= MAX_PENCE ? (pence as Pence) : undefined;
}

/**
 * Converts a JSON number of pounds into pence through its shortest decimal spelling, so that 0.1 + 0.2
 * style float noise never leaks in: 49.99 is read as the text "49.99", not as 49.989999….
 * Returns undefined for values with more than two decimal places, non-finite or negative values.
 */
export function penceFromPounds(pounds: number): Pence | undefined {
  if (!Number.isFinite(pounds) || pounds < 0) return undefined;
  return penceFromDecimal(String(pounds));
}

/** The response edge: pence as a JSON number of pounds (integer pence / 100 prints exactly, e.g. 49.99). */
export function poundsFromPence(pence: Pence): number {
  return pence / 100;
}

/** Pence as a two-decimal string, the form marketplace filters expect ("50.00"). */
export function formatPence(pence: Pence): string {
  const pounds = Math.floor(pence / 100);
  const rest = pence % 100;
  return `${pounds}.${String(rest).padStart(2, '0')}`;
}

/** Multiplies pence by a rational factor, rounding half up to whole pence (integers only, no floats). */
export function scalePence(pence: Pence, numerator: number, denominator: number): Pence {
  return Math.floor((pence * numerator * 2 + denominator) / (2 * denominator)) as Pence;
}
