/**
 * @module
 * What tax stores: VIES verdicts on VAT ids (ADR 1437).
 */

/** A stored verdict, one per VAT id and account environment; `id` is the prefixed id (`FR40303265045`). */
export interface TaxIdCheck {
  readonly id: string;
  readonly status: 'valid' | 'invalid' | 'unverified';
  readonly name: string | null;
  readonly address: string | null;
  readonly requestDate: string | null;
  /** Why it is unverified, when it is. */
  readonly reason: string | null;
  /** When the register last gave a verdict (or, unverified, when it was last asked). */
  readonly checkedAt: string;
}
