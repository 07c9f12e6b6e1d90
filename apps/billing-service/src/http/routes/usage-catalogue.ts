import {
  CreateMeterBody,
  CreateUsageBalanceUnitBody,
  UpdateMeterBody,
  UpdateUsageBalanceUnitBody,
} from '@drawdown/billing-contract';
import type { MeterColumn, UsageBalanceUnitColumn } from '@drawdown/billing-core';
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
    return respondPage(c, await c.var.useCases.listUsageBalanceUnits(c.var.caller, query), perPage);
  });
  app.post('/usage-balance-units', need('usage_balance_unit.write'), async (c) => {
    return respond(
      c,
      await c.var.useCases.createUsageBalanceUnit(c.var.caller, await readBody(c, CreateUsageBalanceUnitBody)),
      201,
    );
  });
  app.get('/usage-balance-units/:id', need('usage_balance_unit.read'), async (c) => {
    return respond(c, await c.var.useCases.getUsageBalanceUnit(c.var.caller, pathId(c, 'ubu')));
  });
  app.patch('/usage-balance-units/:id', need('usage_balance_unit.write'), async (c) => {
    const id = pathId(c, 'ubu');
    return respond(
      c,
      await c.var.useCases.updateUsageBalanceUnit(c.var.caller, id, await readBody(c, UpdateUsageBalanceUnitBody)),
    );
  });

  app.get('/meters', need('meter.read'), async (c) => {
    const { query, perPage } = parseListParams(c, meterListSpec);
    return respondPage(c, await c.var.useCases.listMeters(c.var.caller, query), perPage);
  });
  app.post('/meters', need('meter.write'), async (c) => {
    return respond(c, await c.var.useCases.createMeter(c.var.caller, await readBody(c, CreateMeterBody)), 201);
  });
  app.get('/meters/:id', need('meter.read'), async (c) => {
    return respond(c, await c.var.useCases.getMeter(c.var.caller, pathId(c, 'mtr')));
  });
  app.patch('/meters/:id', need('meter.write'), async (c) => {
    const id = pathId(c, 'mtr');
    return respond(c, await c.var.useCases.updateMeter(c.var.caller, id, await readBody(c, UpdateMeterBody)));
  });
}
