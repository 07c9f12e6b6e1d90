/**
 * @module
 * Usage balance units are what customers hold a balance of, for example calls or credits.
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { merge } from './catalogue-rules.js';
import type { CatalogueStatus, UsageBalanceUnit } from './entities.js';
import type { CatalogueSlice, UsageBalanceUnitColumn } from './repositories.js';

export interface CreateUsageBalanceUnitInput {
  readonly name: string;
  readonly unitName: string;
}

export interface UpdateUsageBalanceUnitInput {
  readonly name?: string | undefined;
  readonly unitName?: string | undefined;
  readonly status?: CatalogueStatus | undefined;
}

export async function createUsageBalanceUnit(
  context: Context<CatalogueSlice>,
  input: CreateUsageBalanceUnitInput,
): Promise<UsageBalanceUnit> {
  const now = nowTimestamp(context);
  const unit: UsageBalanceUnit = {
    id: context.ids.newId('ubu'),
    name: input.name,
    unitName: input.unitName,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
  return context.store.transaction(async (tx) => {
    await tx.usageBalanceUnits.insert(context.scope, unit);
    await recordEvent(context, tx, 'usage_balance_unit.created', 'usage_balance_unit', unit);
    return unit;
  });
}

export async function updateUsageBalanceUnit(
  context: Context<CatalogueSlice>,
  id: string,
  input: UpdateUsageBalanceUnitInput,
): Promise<UsageBalanceUnit> {
  return context.store.transaction(async (tx) => {
    const current = await tx.usageBalanceUnits.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Usage balance unit', id);
    const next = merge(current, { ...input, updatedAt: nowTimestamp(context) });
    await tx.usageBalanceUnits.update(context.scope, next);
    await recordEvent(context, tx, 'usage_balance_unit.updated', 'usage_balance_unit', next);
    return next;
  });
}

export async function getUsageBalanceUnit(context: Context<CatalogueSlice>, id: string): Promise<UsageBalanceUnit> {
  const unit = await context.store.usageBalanceUnits.findById(context.scope, id);
  if (!unit) throw BillingError.notFound('Usage balance unit', id);
  return unit;
}

export function listUsageBalanceUnits(
  context: Context<CatalogueSlice>,
  query: ListQuery<UsageBalanceUnitColumn>,
): Promise<Page<UsageBalanceUnit>> {
  return context.store.usageBalanceUnits.list(context.scope, query);
}
