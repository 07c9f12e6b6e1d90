/**
 * @module
 * A customer's usage balances (read-only): at most one per unit, so one page usually holds all.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type { ListUsageBalancesParams, UsageBalance, UsagePeriod } from '../types/usage.js';
import { Resource, segment } from './resource.js';

export class UsageBalancesResource extends Resource {
  /** A unit with no entry means the customer has no balance of it. */
  list(customerId: string, params?: ListUsageBalancesParams, options?: RequestOptions): Collection<UsageBalance> {
    return this.collection<UsageBalance>(`/customers/${segment(customerId)}/usage-balances`, params, options);
  }

  /** The balance's usage per billing period, newest first, at most twelve (Drawdown's own, ADR 1442). */
  periods(customerId: string, id: string, options?: RequestOptions): Promise<readonly UsagePeriod[]> {
    return this.data({
      method: 'GET',
      path: `/customers/${segment(customerId)}/usage-balances/${segment(id)}/periods`,
      ...options,
    });
  }

  get(customerId: string, id: string, options?: RequestOptions): Promise<UsageBalance> {
    return this.data({
      method: 'GET',
      path: `/customers/${segment(customerId)}/usage-balances/${segment(id)}`,
      ...options,
    });
  }
}
