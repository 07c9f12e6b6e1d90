/**
 * @module
 * Reading a customer's usage balances: at most one per unit, so one page holds them all.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { UsageBalanceColumn, UsageSlice } from './repositories.js';
import type { UsageBalance } from './usage-balance.js';

async function requireCustomer(context: Context<UsageSlice>, customerId: string): Promise<void> {
  if (!(await context.store.customers.findById(context.scope, customerId))) {
    throw BillingError.notFound('Customer', customerId);
  }
}

export async function listUsageBalances(
  context: Context<UsageSlice>,
  customerId: string,
  query: ListQuery<UsageBalanceColumn>,
): Promise<Page<UsageBalance>> {
  await requireCustomer(context, customerId);
  const filter = { ...query.filter, customer_id: [{ op: 'in', values: [customerId] } as const] };
  return context.store.usageBalances.list(context.scope, { ...query, filter });
}

export async function getUsageBalance(
  context: Context<UsageSlice>,
  customerId: string,
  id: string,
): Promise<UsageBalance> {
  const balance = await context.store.usageBalances.findById(context.scope, id);
  if (!balance || balance.customerId !== customerId) throw BillingError.notFound('Usage balance', id);
  return balance;
}
