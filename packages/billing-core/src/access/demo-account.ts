/**
 * @module
 * The demo account, made only when an operator asks (`drawdown init`, `serve --demo`, `npm
 * start`): an account in early access with an all-permission sandbox key, and a live key only
 * when that is asked for too. It is made once per installation: the account, its keys and the
 * record that it is the demo account commit in one transaction, and the record's primary key
 * lets only one of two racing first starts through (ADR 1403).
 */
import { toTimestamp } from '../shared/clock.js';
import type { StoreOf } from '../shared/context.js';
import { type AccessDependencies, createAccount, createApiKey } from './api-keys.js';
import type { AccessSlice } from './repositories.js';

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

class DemoAccountTaken extends Error {
  constructor(readonly accountId: string) {
    super(`The demo account ${accountId} exists already.`);
  }
}

/** Makes the demo account unless the installation has one; idempotent across processes. */
export async function createDemoAccount(
  dependencies: AccessDependencies,
  request: DemoAccountRequest,
): Promise<DemoAccount> {
  const existing = await dependencies.store.accounts.demoAccountId();
  if (existing) return { created: false, accountId: existing };
  try {
    return await dependencies.store.transaction(async (tx) => {
      // The transaction's repositories, so the account, its keys (and their events) and the claim
      // commit together; a nested transaction runs inside this one rather than waiting for it.
      const store: StoreOf<AccessSlice> = { ...dependencies.store, ...tx, transaction: (work) => work(tx) };
      const inTransaction = { ...dependencies, store };
      const account = await createAccount(inTransaction, { name: 'Demo', earlyAccess: true });
      if (!(await tx.accounts.claimDemoAccount(account.id, toTimestamp(dependencies.clock.now())))) {
        // Another first start won; throwing rolls back the account made above.
        throw new DemoAccountTaken((await tx.accounts.demoAccountId()) ?? '');
      }
      const key = (environment: 'live' | 'sandbox') =>
        createApiKey(inTransaction, {
          accountId: account.id,
          environment,
          name: `Demo ${environment} key`,
          permissions: ['all'],
        });
      const sandbox = await key('sandbox');
      const live = request.liveKey ? await key('live') : null;
      return { created: true as const, accountId: account.id, sandboxKey: sandbox.token, liveKey: live?.token ?? null };
    });
  } catch (error) {
    if (error instanceof DemoAccountTaken) return { created: false, accountId: error.accountId };
    throw error;
  }
}
