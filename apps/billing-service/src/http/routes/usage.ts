import { RecordUsageEventsBody } from '@drawdown/billing-contract';
import type { UsageBalanceColumn } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { presentUsageBalance } from '../presenters.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

// The seed: at most one balance per unit, so one page of up to 200 holds them all.
const balanceListSpec: ListSpec<UsageBalanceColumn> = {
  idPrefix: 'ubl',
  defaultPerPage: 200,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'ubl' },
    usage_balance_unit_id: { kind: 'ids', column: 'usage_balance_unit_id', prefix: 'ubu' },
  },
};

/** Usage balances (read-only) and usage events (accepted now, drawn down shortly after). */
export function registerUsageRoutes(app: Hono<AppEnv>): void {
  app.get('/customers/:customer/usage-balances', need('usage_balance.read'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const { query, perPage } = parseListParams(c, balanceListSpec);
    return respondPage(
      c,
      await c.var.useCases.listUsageBalances(c.var.caller, customerId, query),
      perPage,
      presentUsageBalance,
    );
  });
  app.get('/customers/:customer/usage-balances/:id', need('usage_balance.read'), async (c) => {
    const balance = await c.var.useCases.getUsageBalance(c.var.caller, pathId(c, 'ctm', 'customer'), pathId(c, 'ubl'));
    return respond(c, presentUsageBalance(balance));
  });
  // Drawdown's own: the balance's usage per billing period, newest first (ADR 1442).
  app.get('/customers/:customer/usage-balances/:id/periods', need('usage_balance.read'), async (c) => {
    const periods = await c.var.useCases.listUsagePeriods(c.var.caller, pathId(c, 'ctm', 'customer'), pathId(c, 'ubl'));
    return respond(c, periods);
  });
  app.post('/usage-events', need('usage_event.write'), async (c) => {
    // Unstorable text in an event is that event's rejection, not the request's (ADR 0901).
    const { events } = await readBody(c, RecordUsageEventsBody, { unstorableTextPerItemOf: 'events' });
    // c.get, not c.var: Hono's c.var copies every variable on each read, and this is the hot path.
    const results = await c.get('useCases').recordUsageEvents(c.get('caller'), events);
    return respond(c, { events: results }, 202);
  });
}
