/**
 * @module
 * The demo account, made only when asked (`drawdown init`, `serve --demo`, `npm start`): an
 * account in early access with an all-permission sandbox key, and a live key only when that is
 * asked for too. It is made once per installation: the account, its keys and the record that it
 * is the demo account commit in one transaction, and the record's primary key lets only one of
 * two racing first starts through (ADR 1403).
 */
import { createAccount, createApiKey, toTimestamp } from '@drawdown/billing-core';
import type { CoreServices } from './compose-services.js';

export interface DemoAccountRequest {
  /** Also make an all-permission live key (never by default: live keys move real money). */
  readonly liveKey: boolean;
}

export type DemoAccount =
  | {
      readonly created: true;
      readonly accountId: string;
      readonly sandboxKey: string;
      readonly liveKey: string | null;
    }
  | {
      /** Made earlier (by this or another process); its keys were shown then. */
      readonly created: false;
      readonly accountId: string;
    };

/** Makes the demo account unless the installation has one; idempotent across processes. */
export async function ensureDemoAccount(services: CoreServices, request: DemoAccountRequest): Promise<DemoAccount> {
  const existing = await services.store.accounts.demoAccountId();
  if (existing) return { created: false, accountId: existing };
  return services.store
    .transaction(async (tx) => {
      // The repositories of the transaction, so the account, keys and claim commit together.
      const inTransaction = { ...services, store: { ...services.store, ...tx } };
      const account = await createAccount(inTransaction, { name: 'Demo', earlyAccess: true });
      if (!(await tx.accounts.claimDemoAccount(account.id, toTimestamp(services.clock.now())))) {
        const winner = await tx.accounts.demoAccountId();
        // Returning (not throwing) would commit the account made above; roll it back.
        throw new DemoAccountTaken(winner ?? '');
      }
      const sandbox = await createApiKey(inTransaction, {
        accountId: account.id,
        environment: 'sandbox',
        name: 'Demo sandbox key',
        permissions: ['all'],
      });
      const live = request.liveKey
        ? await createApiKey(inTransaction, {
            accountId: account.id,
            environment: 'live',
            name: 'Demo live key',
            permissions: ['all'],
          })
        : null;
      return { created: true as const, accountId: account.id, sandboxKey: sandbox.token, liveKey: live?.token ?? null };
    })
    .catch((error: unknown) => {
      if (error instanceof DemoAccountTaken) return { created: false as const, accountId: error.accountId };
      throw error;
    });
}

class DemoAccountTaken extends Error {
  constructor(readonly accountId: string) {
    super(`The demo account ${accountId} exists already.`);
  }
}
