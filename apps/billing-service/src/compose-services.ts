/**
 * @module
 * Wires the ports to their adapters. The only file that picks a storage engine.
 */
import { join } from 'node:path';
import type { KeyAuthenticationDependencies, Store } from '@drawdown/billing-core';
import { openStore, type StoreConfig } from '@drawdown/billing-store';
import { createAuthenticatedKeyCache } from './infrastructure/authenticated-key-cache.js';
import { keySecrets } from './infrastructure/key-secrets.js';
import { systemClock } from './infrastructure/system-clock.js';
import { createUlidIds } from './infrastructure/ulid-ids.js';

export interface StorageSettings {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
}

export function storeConfig(settings: StorageSettings): StoreConfig {
  return settings.databaseUrl
    ? { engine: 'postgres', url: settings.databaseUrl }
    : // Checkpoints off the event loop (ADR 0714).
      { engine: 'sqlite', file: join(settings.dataDir, 'drawdown.sqlite'), backgroundCheckpoints: true };
}

export interface CoreServices extends KeyAuthenticationDependencies {
  readonly store: Store;
}

export async function composeServices(settings: StorageSettings): Promise<CoreServices> {
  const store = await openStore(storeConfig(settings));
  return {
    store,
    ids: createUlidIds(),
    clock: systemClock,
    secrets: keySecrets,
    authenticatedKeys: createAuthenticatedKeyCache(),
  };
}
