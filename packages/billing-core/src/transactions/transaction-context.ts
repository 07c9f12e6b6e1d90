/**
 * @module
 * What transaction use cases read beyond their slice.
 */

/** The checkout page a transaction's `checkout.url` points at (ADR 1412). */
export interface PaymentLinkPorts {
  /**
   * The checkout page Drawdown serves for this environment (`…/checkout`), which
   * `checkout.url` points at unless the account set its own payment link (ADR 1412).
   * Absent, transactions get no `checkout` (contexts built outside the service).
   */
  readonly defaultPaymentLink?: string | undefined;
}
