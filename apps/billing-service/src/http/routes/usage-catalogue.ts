import {
  CreateMeterBody,
  CreateUsageBalanceUnitBody,
  UpdateMeterBody,
  UpdateUsageBalanceUnitBody,
} from '@drawdown/billing-contract';
import {
  createMeter,
  createUsageBalanceUnit,
  getMeter,
  getUsageBalanceUnit,
  listMeters,
  listUsageBalanceUnits,
  type MeterColumn,
  type UsageBalanceUnitColumn,
  updateMeter,
  updateUsageBalanceUnit,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const unitListSpec: ListSpec<UsageBalanceUnitColumn> = {
  idPrefix: 'ubu',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'ubu' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
  },
  defaults: { status: 'active' },
};

const meterListSpec: ListSpec<MeterColumn> = {
  idPrefix: 'mtr',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'mtr' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
    usage_balance_unit_id: { kind: 'ids', column: 'usage_balance_unit_id', prefix: 'ubu' },
    action: { kind: 'text', column: 'action' },
  },
};

/** Usage balance units and meters: the early-access catalogue of usage-based billing. */
export function registerUsageCatalogueRoutes(app: Hono<AppEnv>): void {
  app.get('/usage-balance-units', need('usage_balance_unit.read'), async (c) => {
    const { query, perPage } = parseListParams(c, unitListSpec);
    return respondPage(c, await listUsageBalanceUnits(c.var.context, query), perPage);
  });
  app.post('/usage-balance-units', need('usage_balance_unit.write'), async (c) => {
    return respond(c, await createUsageBalanceUnit(c.var.context, await readBody(c, CreateUsageBalanceUnitBody)), 201);
  });
  app.get('/usage-balance-units/:id', need('usage_balance_unit.read'), async (c) => {
    return respond(c, await getUsageBalanceUnit(c.var.context, pathId(c, 'ubu')));
  });
  app.patch('/usage-balance-units/:id', need('usage_balance_unit.write'), async (c) => {
    const id = pathId(c, 'ubu');
    return respond(c, await updateUsageBalanceUnit(c.var.context, id, await readBody(c, UpdateUsageBalanceUnitBody)));
  });

  app.get('/meters', need('meter.read'), async (c) => {
    const { query, perPage } = parseListParams(c, meterListSpec);
    return respondPage(c, await listMeters(c.var.context, query), perPage);
  });
  app.post('/meters', need('meter.write'), async (c) => {
    return respond(c, await createMeter(c.var.context, await readBody(c, CreateMeterBody)), 201);
  });
  app.get('/meters/:id', need('meter.read'), async (c) => {
    return respond(c, await getMeter(c.var.context, pathId(c, 'mtr')));
  });
  app.patch('/meters/:id', need('meter.write'), async (c) => {
    const id = pathId(c, 'mtr');
    return respond(c, await updateMeter(c.var.context, id, await readBody(c, UpdateMeterBody)));
  });
}
