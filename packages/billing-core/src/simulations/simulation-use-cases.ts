/**
 * @module
 * The use cases of webhook simulations (ADR 1301), bound once, with the simulation delivery
 * worker's steps.
 */

import type { Context } from '../shared/context.js';
import type { Scope } from '../shared/scope.js';
import type { Caller, UseCaseBase } from '../shared/use-case-base.js';
import type { SimulationSlice } from './repositories.js';
import type { EntityPresenter, SimulationRunEvent } from './simulation.js';
import type { SimulationBudget } from './simulation-budget.js';
import {
  type ClaimedSimulationRun,
  claimDueSimulationRuns,
  finishSimulationRun,
  recordSimulatedDelivery,
  type SimulatedDeliveryOutcome,
} from './simulation-delivery.js';
import {
  createSimulation,
  createSimulationRun,
  getSimulation,
  getSimulationRun,
  getSimulationRunEvent,
  listRunEvents,
  listSimulationRunEvents,
  listSimulationRuns,
  listSimulations,
  listSimulationTypes,
  replaySimulationRunEvent,
  type SimulationContext,
  type SimulationInput,
  updateSimulation,
} from './simulations.js';

/** What simulations need from the outside world. */
export interface SimulationPorts {
  /** The wire form of entities, which simulations copy into their payloads. */
  readonly entityPresenter: EntityPresenter;
  /** What simulation runs and replays may send (ADR 1486); null: no budget. */
  readonly simulationBudget: SimulationBudget | null;
}

export function simulationUseCases(base: UseCaseBase<Context<SimulationSlice>>, ports: SimulationPorts) {
  const { bind } = base;
  const simulationContext = (context: Context<SimulationSlice>): SimulationContext => ({
    ...context,
    presenter: ports.entityPresenter,
    wallClock: base.wallClock,
    budget: ports.simulationBudget,
  });
  const delivery = { store: base.store, wallClock: base.wallClock };
  return {
    listSimulationTypes: async (caller: Caller) => listSimulationTypes(caller.account),
    createSimulation: bind((context, input: SimulationInput) => createSimulation(simulationContext(context), input)),
    updateSimulation: bind((context, id: string, input: SimulationInput) =>
      updateSimulation(simulationContext(context), id, input),
    ),
    getSimulation: bind(getSimulation),
    listSimulations: bind(listSimulations),
    createSimulationRun: bind((context, simulationId: string) =>
      createSimulationRun(simulationContext(context), simulationId),
    ),
    getSimulationRun: bind(getSimulationRun),
    listSimulationRuns: bind(listSimulationRuns),
    listRunEvents: bind(listRunEvents),
    listSimulationRunEvents: bind(listSimulationRunEvents),
    getSimulationRunEvent: bind(getSimulationRunEvent),
    replaySimulationRunEvent: bind((context, simulationId: string, runId: string, eventId: string) =>
      replaySimulationRunEvent(simulationContext(context), simulationId, runId, eventId),
    ),
    /** The simulation delivery worker's steps: claim due runs, record each delivery, close the run. */
    claimDueSimulationRuns: (options: { readonly limit: number; readonly leaseMs: number }) =>
      claimDueSimulationRuns(delivery, options),
    recordSimulatedDelivery: (
      scope: Scope,
      event: SimulationRunEvent,
      requestBody: string,
      outcome: SimulatedDeliveryOutcome,
    ) => recordSimulatedDelivery(delivery, scope, event, requestBody, outcome),
    finishSimulationRun: (claim: ClaimedSimulationRun) => finishSimulationRun(delivery, claim),
  };
}
