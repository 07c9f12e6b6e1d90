/**
 * @module
 * The part of the Drawdown SDK client the portal uses. A structural type, so a host passes its
 * `Drawdown` instance and tests may pass a narrower one.
 */
import type { Drawdown } from '@drawdown/sdk';

/**
 * A Drawdown SDK client. Its key needs `transaction.read` and `usage_balance.read` for the history
 * and usage (and `usage_balance_unit.read` for unit names); the self-service parts need
 * `subscription.write`, `price.read`, `customer.read`, `address.write`, `business.write`,
 * `adjustment.read` and, for portal session links, `customer_portal_session.read` (ADR 1441); name
 * and email `customer.write` (ADR 0809); the card on file `payment_method.read` (ADR 0807); the
 * seller's name and logo and the checkout's return address `transaction.read` (ADRs 0810, 0813);
 * a first plan `transaction.write` (ADR 0812). A part whose permission the key lacks is left off.
 */
export type PortalClient = Pick<
  Drawdown,
  | 'transactions'
  | 'currencies'
  | 'usageBalances'
  | 'usageBalanceUnits'
  | 'subscriptions'
  | 'prices'
  | 'customers'
  | 'addresses'
  | 'businesses'
  | 'adjustments'
  | 'customerPortalSessions'
  | 'paymentMethods'
  | 'sellerDetails'
  | 'checkoutSettings'
>;
