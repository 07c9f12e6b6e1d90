import { setTimeout as sleep } from 'node:timers/promises';
import { AdvanceSandboxClockBody, SandboxPaymentOutcomeBody } from '@drawdown/billing-contract';
import {
  advanceSandboxClock,
  type Clock,
  readSandboxClock,
  readSandboxPaymentOutcome,
  setSandboxPaymentOutcome,
  toTimestamp,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';
import { readBody } from '../request-body.js';
import { need } from '../route-helpers.js';

function present(reading: { now: number; offsetMs: number; stepsRun?: number }) {
  return {
    now: toTimestamp(reading.now),
    offsetSeconds: Math.round(reading.offsetMs / 1000),
    ...(reading.stepsRun === undefined ? {} : { stepsRun: reading.stepsRun }),
  };
}

/**
 * Sandbox time control, served on the sandbox address only: read the account's sandbox clock,
 * or move it forward (to a time, or by a number of seconds) and run everything that fell due.
 */
export function registerSandboxClockRoutes(app: Hono<AppEnv>, wallClock: Clock): void {
  app.get('/sandbox-clock', need('sandbox_clock.read'), async (c) => {
    const { store, ids, account } = c.var.context;
    return respond(c, present(await readSandboxClock({ store, ids, account, wallClock, pause: sleep })));
  });
  // The sandbox's simulated card: how the charges the sandbox makes by itself settle (ADR 1003).
  app.get('/sandbox-payment-outcome', need('sandbox_clock.read'), async (c) => {
    return respond(c, { outcome: await readSandboxPaymentOutcome(c.var.context) });
  });
  app.put('/sandbox-payment-outcome', need('sandbox_clock.write'), async (c) => {
    const { outcome } = await readBody(c, SandboxPaymentOutcomeBody);
    return respond(c, { outcome: await setSandboxPaymentOutcome(c.var.context, outcome) });
  });
  app.post('/sandbox-clock/advance', need('sandbox_clock.write'), async (c) => {
    const body = await readBody(c, AdvanceSandboxClockBody);
    const { store, ids, account } = c.var.context;
    const dependencies = { store, ids, account, wallClock, pause: sleep };
    const target = 'to' in body ? Date.parse(body.to) : { by: body.seconds * 1000 };
    return respond(c, present(await advanceSandboxClock(dependencies, target, body.renewalPayments)));
  });
}
