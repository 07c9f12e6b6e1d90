/**
 * @module
 * Invoice numbers: `<year>-<sequence>`, the sequence counted per account, environment and
 * year from 1 and padded to five digits (`2026-00042`; the 100,000th is `2026-100000`). The
 * year is the billing year on the account environment's clock (ADR 0404).
 */

export const INVOICE_NUMBER_DIGITS = 5;

export function formatInvoiceNumber(year: number, sequence: number): string {
  return `${year}-${String(sequence).padStart(INVOICE_NUMBER_DIGITS, '0')}`;
}
