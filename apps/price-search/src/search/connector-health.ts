/**
 * @module
 * Passive health: each connector's status is the outcome of its most recent calls, so /health costs no
 * marketplace request. A connector never called yet is `unknown`.
 */
import type { Clock } from '../shared/clock.js';

/** How a connector is doing. */
export type ConnectorStatus = 'ok' | 'failing' | 'unknown';

/** The outcome of one call. */
export type CallOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** The health of one connector as /health reports it. */
export interface ConnectorHealthReport {
  readonly status: ConnectorStatus;
  readonly lastSuccessAt: string | undefined;
  readonly lastFailureAt: string | undefined;
  readonly lastError: string | undefined;
  readonly consecutiveFailures: number;
}

interface MutableReport {
  lastSuccessAt: string | undefined;
  lastFailureAt: string | undefined;
  lastError: string | undefined;
  consecutiveFailures: number;
}

/** Remembers the outcome of connector calls. */
export class ConnectorHealth {
  readonly #reports = new Map<string, MutableReport>();

  constructor(private readonly clock: Clock) {}

  /** Records the outcome of one call to `connectorId`. */
  record(connectorId: string, outcome: CallOutcome): void {
    const report = this.#reports.get(connectorId) ?? {
      lastSuccessAt: undefined,
      lastFailureAt: undefined,
      lastError: undefined,
      consecutiveFailures: 0,
    };
    const at = this.clock.now().toISOString();
    if (outcome.ok) {
      report.lastSuccessAt = at;
      report.consecutiveFailures = 0;
    } else {
      report.lastFailureAt = at;
      report.lastError = outcome.error;
      report.consecutiveFailures += 1;
    }
    this.#reports.set(connectorId, report);
  }

  /** The current report of `connectorId`. */
  report(connectorId: string): ConnectorHealthReport {
    const report = this.#reports.get(connectorId);
    if (report === undefined) {
      return {
        status: 'unknown',
        lastSuccessAt: undefined,
        lastFailureAt: undefined,
        lastError: undefined,
        consecutiveFailures: 0,
      };
    }
    return { ...report, status: report.consecutiveFailures > 0 ? 'failing' : 'ok' };
  }
}
