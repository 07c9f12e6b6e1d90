/**
 * @module
 * A usage balance: what one customer holds of one usage balance unit, combining the
 * allowances of all the customer's subscriptions. It belongs to the customer, not to a
 * subscription; its state is the fold of its ledger (`balance-ledger.ts`).
 */
import type { BalanceState } from './balance-ledger.js';

export interface UsageBalance {
  readonly id: string;
  readonly customerId: string;
  readonly usageBalanceUnitId: string;
  readonly state: BalanceState;
  readonly createdAt: string;
  readonly updatedAt: string;
}
