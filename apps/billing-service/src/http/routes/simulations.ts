/**
 * @module
 * The webhook simulator: `/simulation-types`, `/simulations`, their runs and run events. A run
 * or a replay wakes the simulation delivery worker, which signs and sends the events.
 */
import { CreateSimulationBody, UpdateSimulationBody } from '@drawdown/billing-contract';
import {
  BillingError,
  type Simulation,
  type SimulationColumn,
  type SimulationInput,
  type SimulationRun,
  type SimulationRunColumn,
  type SimulationRunEvent,
  type SimulationRunEventColumn,
} from '@drawdown/billing-core';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readWireBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const simulationListSpec: ListSpec<SimulationColumn> = {
  idPrefix: 'ntfsim',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'ntfsim' },
    notification_setting_id: { kind: 'ids', column: 'notification_setting_id', prefix: 'ntfset' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
  },
};

const runListSpec: ListSpec<SimulationRunColumn> = {
  idPrefix: 'ntfsimrun',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: { id: { kind: 'ids', column: 'id', prefix: 'ntfsimrun' } },
  // `include=events` embeds each run's events (read by `includesEvents`).
  includes: ['events'],
};

const runEventListSpec: ListSpec<SimulationRunEventColumn> = {
  idPrefix: 'ntfsimevt',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: { id: { kind: 'ids', column: 'id', prefix: 'ntfsimevt' } },
};

function presentSimulation(simulation: Simulation): unknown {
  return {
    id: simulation.id,
    status: simulation.status,
    notificationSettingId: simulation.notificationSettingId,
    name: simulation.name,
    type: simulation.type,
    payload: simulation.payload,
    config: simulation.config,
    lastRunAt: simulation.lastRunAt,
    createdAt: simulation.createdAt,
    updatedAt: simulation.updatedAt,
  };
}

function presentRunEvent(event: SimulationRunEvent): unknown {
  return {
    id: event.id,
    status: event.status,
    eventType: event.eventType,
    payload: event.payload,
    request: event.request,
    response: event.response,
    createdAt: event.createdAt,
    updatedAt: event.updatedAt,
  };
}

function presentRun(run: SimulationRun, events?: readonly SimulationRunEvent[]): unknown {
  return {
    id: run.id,
    status: run.status,
    type: run.type,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    ...(events ? { events: events.map(presentRunEvent) } : {}),
  };
}

/** `include=events` is the only include runs have; anything else is refused, not ignored. */
function includesEvents(c: Context<AppEnv>): boolean {
  const include = c.req.query('include');
  if (include === undefined) return false;
  const values = include.split(',').map((value) => value.trim());
  if (values.some((value) => value !== 'events')) throw BillingError.invalidField('include', 'must be events');
  return true;
}

function toInput(body: {
  notification_setting_id?: string | undefined;
  name?: string | undefined;
  type?: string | undefined;
  status?: 'active' | 'archived' | undefined;
  payload?: Record<string, unknown> | null | undefined;
  config?: Record<string, unknown> | null | undefined;
}): SimulationInput {
  return {
    notificationSettingId: body.notification_setting_id,
    name: body.name,
    type: body.type,
    status: body.status,
    payload: body.payload,
    config: body.config,
  };
}

export function registerSimulationRoutes(app: Hono<AppEnv>, wakeDelivery: () => void): void {
  app.get('/simulation-types', need('notification_simulation.read'), async (c) =>
    respond(c, await c.var.useCases.listSimulationTypes(c.var.caller)),
  );
  app.get('/simulations', need('notification_simulation.read'), async (c) => {
    const { query, perPage } = parseListParams(c, simulationListSpec);
    return respondPage(c, await c.var.useCases.listSimulations(c.var.caller, query), perPage, presentSimulation);
  });
  app.post('/simulations', need('notification_simulation.write'), async (c) => {
    const body = await readWireBody(c, CreateSimulationBody);
    return respond(c, presentSimulation(await c.var.useCases.createSimulation(c.var.caller, toInput(body))), 201);
  });
  app.get('/simulations/:id', need('notification_simulation.read'), async (c) =>
    respond(c, presentSimulation(await c.var.useCases.getSimulation(c.var.caller, pathId(c, 'ntfsim')))),
  );
  app.patch('/simulations/:id', need('notification_simulation.write'), async (c) => {
    const id = pathId(c, 'ntfsim');
    const body = await readWireBody(c, UpdateSimulationBody);
    return respond(c, presentSimulation(await c.var.useCases.updateSimulation(c.var.caller, id, toInput(body))));
  });
  app.post('/simulations/:id/runs', need('notification_simulation.write'), async (c) => {
    const run = await c.var.useCases.createSimulationRun(c.var.caller, pathId(c, 'ntfsim'));
    wakeDelivery();
    return respond(c, presentRun(run), 201);
  });
  app.get('/simulations/:id/runs', need('notification_simulation.read'), async (c) => {
    const withEvents = includesEvents(c);
    const { query, perPage } = parseListParams(c, runListSpec);
    const page = await c.var.useCases.listSimulationRuns(c.var.caller, pathId(c, 'ntfsim'), query);
    const items = await Promise.all(
      page.items.map(async (run) => ({
        id: run.id,
        wire: presentRun(run, withEvents ? await c.var.useCases.listRunEvents(c.var.caller, run.id) : undefined),
      })),
    );
    return respondPage(c, { ...page, items }, perPage, (item) => item.wire);
  });
  app.get('/simulations/:id/runs/:run_id', need('notification_simulation.read'), async (c) => {
    const withEvents = includesEvents(c);
    const run = await c.var.useCases.getSimulationRun(
      c.var.caller,
      pathId(c, 'ntfsim'),
      pathId(c, 'ntfsimrun', 'run_id'),
    );
    return respond(
      c,
      presentRun(run, withEvents ? await c.var.useCases.listRunEvents(c.var.caller, run.id) : undefined),
    );
  });
  app.get('/simulations/:id/runs/:run_id/events', need('notification_simulation.read'), async (c) => {
    const { query, perPage } = parseListParams(c, runEventListSpec);
    const page = await c.var.useCases.listSimulationRunEvents(
      c.var.caller,
      pathId(c, 'ntfsim'),
      pathId(c, 'ntfsimrun', 'run_id'),
      query,
    );
    return respondPage(c, page, perPage, presentRunEvent);
  });
  app.get('/simulations/:id/runs/:run_id/events/:event_id', need('notification_simulation.read'), async (c) => {
    const event = await c.var.useCases.getSimulationRunEvent(
      c.var.caller,
      pathId(c, 'ntfsim'),
      pathId(c, 'ntfsimrun', 'run_id'),
      pathId(c, 'ntfsimevt', 'event_id'),
    );
    return respond(c, presentRunEvent(event));
  });
  app.post(
    '/simulations/:id/runs/:run_id/events/:event_id/replay',
    need('notification_simulation.write'),
    async (c) => {
      const event = await c.var.useCases.replaySimulationRunEvent(
        c.var.caller,
        pathId(c, 'ntfsim'),
        pathId(c, 'ntfsimrun', 'run_id'),
        pathId(c, 'ntfsimevt', 'event_id'),
      );
      wakeDelivery();
      return respond(c, presentRunEvent(event));
    },
  );
}
