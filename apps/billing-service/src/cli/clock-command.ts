/**
 * @module
 * `drawdown clock show|advance`: sandbox time control from the command line, against the same
 * data folder or database as the running server.
 */
import { BillingError, type Caller, toTimestamp, type UseCases } from '@drawdown/billing-core';
import { printResult } from './output.js';

const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 } as const;

/** Parses `90s`, `15m`, `12h`, `30d` or `2w` into milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,9})(s|m|h|d|w)$/.exec(text);
  if (!match) throw new BillingError('invalid_field', `--by must look like 30d, 12h, 15m, 90s or 2w; got ${text}`);
  const [, amount, unit] = match as unknown as [string, string, keyof typeof UNIT_SECONDS];
  return Number(amount) * UNIT_SECONDS[unit] * 1000;
}

export async function runClockCommand(
  useCases: UseCases,
  subcommand: string | undefined,
  options: { account?: string | undefined; by?: string | undefined; to?: string | undefined; json: boolean },
): Promise<number> {
  if (!options.account) throw new BillingError('invalid_field', `clock ${subcommand ?? ''} needs --account`);
  const account = await useCases.requireAccount(options.account);
  const caller: Caller = { account, scope: { accountId: account.id, environment: 'sandbox' } };
  if (subcommand === 'show') {
    const reading = await useCases.readSandboxClock(caller);
    printResult(options.json, { now: toTimestamp(reading.now), offset_seconds: Math.round(reading.offsetMs / 1000) }, [
      ['Sandbox now', toTimestamp(reading.now)],
      ['Ahead of wall clock', `${Math.round(reading.offsetMs / 1000)} s`],
    ]);
    return 0;
  }
  if (subcommand !== 'advance') throw new BillingError('invalid_field', 'clock needs show or advance');
  if ((options.by === undefined) === (options.to === undefined)) {
    throw new BillingError('invalid_field', 'clock advance needs exactly one of --by or --to');
  }
  // A relative move is measured from the reading the advance itself takes, so --by 0s is never "back".
  const target = options.to === undefined ? { by: parseDuration(options.by ?? '') } : Date.parse(options.to);
  if (typeof target === 'number' && Number.isNaN(target)) {
    throw new BillingError('invalid_field', `--to must be an RFC 3339 time; got ${options.to}`);
  }
  const result = await useCases.advanceSandboxClock(caller, target, 'success');
  printResult(options.json, { now: toTimestamp(result.now), steps_run: result.stepsRun }, [
    ['Sandbox now', toTimestamp(result.now)],
    ['Renewals and changes run', String(result.stepsRun)],
  ]);
  return 0;
}
