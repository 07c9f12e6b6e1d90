import { AdvanceSandboxClockBody, SandboxPaymentOutcomeBody } from '@drawdown/billing-contract';
import { toTimestamp } from '@drawdown/billing-core';
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
export function registerSandboxClockRoutes(app: Hono<AppEnv>): void {
  app.get('/sandbox-clock', need('sandbox_clock.read'), async (c) => {
    return respond(c, present(await c.var.useCases.readSandboxClock(c.var.caller)));
  });
  // The sandbox's simulated card: how the charges the sandbox makes by itself settle (ADR 1003).
  app.get('/sandbox-payment-outcome', need('sandbox_clock.read'), async (c) => {
    return respond(c, { outcome: await c.var.useCases.readSandboxPaymentOutcome(c.var.caller) });
  });
  app.put('/sandbox-payment-outcome', need('sandbox_clock.write'), async (c) => {
    const { outcome } = await readBody(c, SandboxPaymentOutcomeBody);
    return respond(c, { outcome: await c.var.useCases.setSandboxPaymentOutcome(c.var.caller, outcome) });
  });
  app.post('/sandbox-clock/advance', need('sandbox_clock.write'), async (c) => {
    const body = await readBody(c, AdvanceSandboxClockBody);
    const target = 'to' in body ? Date.parse(body.to) : { by: body.seconds * 1000 };
    return respond(
      c,
      present(await c.var.useCases.advanceSandboxClock(c.var.caller, target, body.renewalPayments ?? 'success')),
    );
  });
}
