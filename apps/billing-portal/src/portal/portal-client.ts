/**
 * @module
 * The part of the Drawdown SDK client the portal uses. A structural type, so a host passes its
 * `Drawdown` instance and tests may pass a narrower one.
 */
import type { Drawdown } from '@drawdown/sdk';

/** A Drawdown SDK client; its key needs `transaction.read` and `usage_balance.read` (and, for unit names, `usage_balance_unit.read`). */
export type PortalClient = Pick<Drawdown, 'transactions' | 'currencies' | 'usageBalances' | 'usageBalanceUnits'>;
