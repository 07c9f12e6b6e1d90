/**
 * @module
 * Meters link one action to one usage balance unit at a rate. The unit and the aggregation are
 * fixed at creation; rate and action may change and affect only usage accepted afterwards.
 * No two meters share an action and unit, archived ones included; there is no delete.
 */

import { recordEvent } from '../events/record-event.js';
import { RATE_PATTERN } from '../money/decimal-patterns.js';
import { BillingError } from '../shared/billing-error.js';
import { DuplicateKeyError } from '../shared/collection.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { requireDecimal } from './catalogue-rules.js';
import type { CatalogueStatus, Meter } from './entities.js';
import { usableUsageBalanceUnit } from './references.js';
import type { CatalogueSlice, MeterColumn } from './repositories.js';

export const METER_ACTION_PATTERN = /^[a-z][a-z0-9_]*$/;
export const METER_ACTION_LENGTH = { minimum: 2, maximum: 64 } as const;

export interface CreateMeterInput {
  readonly usageBalanceUnitId: string;
  readonly name: string;
  readonly description?: string | null | undefined;
  readonly action: string;
  readonly unitName: string;
  readonly rate: string;
  readonly aggregation?: string | undefined;
}

export interface UpdateMeterInput {
  readonly name?: string | undefined;
  readonly description?: string | null | undefined;
  readonly action?: string | undefined;
  readonly unitName?: string | undefined;
  readonly rate?: string | undefined;
  readonly status?: CatalogueStatus | undefined;
  readonly usageBalanceUnitId?: string | undefined;
  readonly aggregation?: string | undefined;
}

/** Whether `action` is a meter action: `^[a-z][a-z0-9_]*$`, 2 to 64 characters (seed 000). */
export function isMeterAction(action: string): boolean {
  return (
    action.length >= METER_ACTION_LENGTH.minimum &&
    action.length <= METER_ACTION_LENGTH.maximum &&
    METER_ACTION_PATTERN.test(action)
  );
}

function validateAction(action: string): void {
  if (action.length < METER_ACTION_LENGTH.minimum || action.length > METER_ACTION_LENGTH.maximum) {
    throw BillingError.invalidField('action', 'must be 2 to 64 characters long');
  }
  if (!METER_ACTION_PATTERN.test(action)) {
    throw BillingError.invalidField('action', 'must match ^[a-z][a-z0-9_]*$');
  }
}

function validateAggregation(aggregation: string | undefined): void {
  if (aggregation !== undefined && aggregation !== 'sum') {
    throw BillingError.invalidField('aggregation', 'must be sum, the only aggregation available');
  }
}

function duplicateMeter(action: string): BillingError {
  return new BillingError(
    'meter_action_usage_balance_unit_duplicate',
    `Another meter already draws down this usage balance unit for action ${action}.`,
  );
}

export async function createMeter(context: Context<CatalogueSlice>, input: CreateMeterInput): Promise<Meter> {
  validateAction(input.action);
  requireDecimal('rate', input.rate, RATE_PATTERN, { positive: true });
  validateAggregation(input.aggregation);
  return context.store.transaction(async (tx) => {
    await usableUsageBalanceUnit(tx, context.scope, input.usageBalanceUnitId);
    const now = nowTimestamp(context);
    const meter: Meter = {
      id: context.ids.newId('mtr'),
      usageBalanceUnitId: input.usageBalanceUnitId,
      name: input.name,
      description: input.description ?? null,
      action: input.action,
      unitName: input.unitName,
      rate: input.rate,
      aggregation: 'sum',
      status: 'active',
      createdAt: now,
      updatedAt: now,
    };
    try {
      await tx.meters.insert(context.scope, meter);
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw duplicateMeter(meter.action);
      throw error;
    }
    await recordEvent(context, tx, 'meter.created', 'meter', meter);
    return meter;
  });
}

export async function updateMeter(
  context: Context<CatalogueSlice>,
  id: string,
  input: UpdateMeterInput,
): Promise<Meter> {
  if (input.action !== undefined) validateAction(input.action);
  if (input.rate !== undefined) requireDecimal('rate', input.rate, RATE_PATTERN, { positive: true });
  return context.store.transaction(async (tx) => {
    const current = await tx.meters.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Meter', id);
    if (input.usageBalanceUnitId !== undefined && input.usageBalanceUnitId !== current.usageBalanceUnitId) {
      throw new BillingError('meter_immutable_field', 'A meter’s usage_balance_unit_id cannot change.', [
        { field: 'usage_balance_unit_id', message: 'is immutable' },
      ]);
    }
    if (input.aggregation !== undefined && input.aggregation !== current.aggregation) {
      throw new BillingError('meter_immutable_field', 'A meter’s aggregation cannot change.', [
        { field: 'aggregation', message: 'is immutable' },
      ]);
    }
    if (current.status === 'archived') {
      throw new BillingError('meter_archived', `Meter ${id} is archived and cannot be changed.`);
    }
    const next: Meter = {
      ...current,
      name: input.name ?? current.name,
      description: input.description === undefined ? current.description : input.description,
      action: input.action ?? current.action,
      unitName: input.unitName ?? current.unitName,
      rate: input.rate ?? current.rate,
      status: input.status ?? current.status,
      updatedAt: nowTimestamp(context),
    };
    try {
      await tx.meters.update(context.scope, next);
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw duplicateMeter(next.action);
      throw error;
    }
    await recordEvent(context, tx, 'meter.updated', 'meter', next);
    return next;
  });
}

export async function getMeter(context: Context<CatalogueSlice>, id: string): Promise<Meter> {
  const meter = await context.store.meters.findById(context.scope, id);
  if (!meter) throw BillingError.notFound('Meter', id);
  return meter;
}

export function listMeters(context: Context<CatalogueSlice>, query: ListQuery<MeterColumn>): Promise<Page<Meter>> {
  return context.store.meters.list(context.scope, query);
}
