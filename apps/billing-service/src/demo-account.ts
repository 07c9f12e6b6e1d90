/**
 * @module
 * The first start of an empty store creates a demo account in early access, with one live
 * and one sandbox key holding every permission, so a newcomer can call the API at once.
 */
import type { CoreServices } from './compose-services.js';

export interface DemoAccount {
  readonly accountId: string;
  readonly liveKey: string;
  readonly sandboxKey: string;
}

/** Creates the demo account when the store has no account yet; otherwise does nothing. */
export async function ensureDemoAccount(services: CoreServices): Promise<DemoAccount | null> {
  const { useCases } = services;
  if ((await useCases.listAccounts()).length > 0) return null;
  const account = await useCases.createAccount({ name: 'Demo', earlyAccess: true });
  const live = await useCases.createApiKey({
    accountId: account.id,
    environment: 'live',
    name: 'Demo live key',
    permissions: ['all'],
  });
  const sandbox = await useCases.createApiKey({
    accountId: account.id,
    environment: 'sandbox',
    name: 'Demo sandbox key',
    permissions: ['all'],
  });
  return { accountId: account.id, liveKey: live.token, sandboxKey: sandbox.token };
}
