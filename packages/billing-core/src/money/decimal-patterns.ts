/**
 * @module
 * The wire shapes a decimal string may take. Each pattern is the seed's, or ours where the
 * seed names none (ADR 0004).
 */

/** A usage quantity: no leading zeros, up to 35 integer digits and 9 decimal places. */
export const QUANTITY_PATTERN = /^(0|[1-9]\d{0,34})(\.\d{1,9})?$/;

/** Meter rates and allowance amounts share the quantity shape (ADR 0004). */
export const RATE_PATTERN = QUANTITY_PATTERN;
export const ALLOWANCE_AMOUNT_PATTERN = QUANTITY_PATTERN;

/** An amount in the currency's lowest unit: a non-negative integer without leading zeros. */
export const MINOR_UNIT_AMOUNT_PATTERN = /^(0|[1-9]\d{0,17})$/;
