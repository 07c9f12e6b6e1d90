/**
 * @module
 * Making the demo account from the command line (`drawdown init`, `serve --demo`): its keys
 * go to standard output, or to the file the operator named (created readable by its owner only,
 * never overwritten).
 */
import { existsSync, writeFileSync } from 'node:fs';
import type { CoreServices } from '../compose-services.js';

import { cliIo, printResult } from './output.js';

export interface DemoOptions {
  readonly liveKey: boolean;
  /** Write the keys here instead of printing them. */
  readonly keysFile: string | undefined;
  readonly json: boolean;
  /**
   * The demo account's live tax choice (ADR 1439): `location` charges tax by the buyer's
   * location, `none` records the choice of charging none; absent, live charges wait for a choice.
   */
  readonly liveTax?: 'location' | 'none' | undefined;
}

/** Refuses a keys file that exists, before anything is made: keys made and not shown are lost. */
export function checkKeysFile(options: DemoOptions): void {
  if (options.keysFile && existsSync(options.keysFile))
    throw new Error(`${options.keysFile} exists already; name a new file for the demo keys`);
}

export async function makeDemoAccount(services: CoreServices, options: DemoOptions): Promise<void> {
  const demo = await services.useCases.createDemoAccount({ liveKey: options.liveKey });
  if (!demo.created) {
    printResult(options.json, { demo: { accountId: demo.accountId, created: false } }, [
      ['Demo account', `${demo.accountId} exists already; its keys were shown when it was made`],
    ]);
    return;
  }
  if (options.liveTax !== undefined) {
    const account = await services.useCases.requireAccount(demo.accountId);
    await services.useCases.updateTaxSettings(
      { account, scope: { accountId: demo.accountId, environment: 'live' } },
      options.liveTax === 'none' ? { rateSource: 'account', defaultRate: '0' } : { rateSource: 'location' },
    );
  } else if (demo.liveKey) {
    // A live key can charge nothing until tax is chosen: say how, beside the keys.
    cliIo().stderr(
      `drawdown: live charges wait until you choose the live tax settings: drawdown accounts tax-settings set --account ${demo.accountId} --env live (--rate-source location | --no-tax), or PATCH /tax-settings with the live key\n`,
    );
  }
  const keys = { sandbox: demo.sandboxKey, ...(demo.liveKey ? { live: demo.liveKey } : {}) };
  if (options.keysFile) {
    try {
      // `wx`: fails if the file exists, so an old key file is never silently replaced.
      writeFileSync(options.keysFile, `${JSON.stringify({ accountId: demo.accountId, keys }, null, 2)}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
    } catch (error) {
      // The keys exist now and are shown only once: if the file cannot be written, print them.
      cliIo().stderr(
        `drawdown: could not write ${options.keysFile} (${error instanceof Error ? error.message : String(error)}); the keys follow.\n`,
      );
      printKeys(demo.accountId, demo.sandboxKey, demo.liveKey);
      return;
    }
    printResult(options.json, { demo: { accountId: demo.accountId, created: true, keysFile: options.keysFile } }, [
      ['Demo account', `Created demo account ${demo.accountId} (early access); its keys are in ${options.keysFile}`],
    ]);
    return;
  }
  if (options.json) {
    printResult(true, { demo: { accountId: demo.accountId, created: true, keys } }, []);
    return;
  }
  printKeys(demo.accountId, demo.sandboxKey, demo.liveKey);
}

function printKeys(accountId: string, sandboxKey: string, liveKey: string | null): void {
  cliIo().stdout(
    `\nCreated demo account ${accountId} (early access). Its API keys are shown once:\n` +
      `  sandbox: ${sandboxKey}\n${liveKey ? `  live:    ${liveKey}\n` : ''}`,
  );
}
