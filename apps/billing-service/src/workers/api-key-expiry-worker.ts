/**
 * @module
 * Sends `api_key.expiring` seven days before a key expires and `api_key.expired` when it does,
 * for every account and both environments, each on its environment's clock (so a sandbox
 * clock moved forward expires its keys). Safe with several processes: the notice marker is
 * written under a row lock with the event.
 */
import {
  API_KEY_EXPIRING_NOTICE_MS,
  type Clock,
  type IdGenerator,
  noticeApiKeyExpiries,
  type Store,
  toTimestamp,
} from '@drawdown/billing-core';
import { createPerAccountWorker } from './per-account-worker.js';
import type { Worker } from './polling-worker.js';

export function createApiKeyExpiryWorker(
  dependencies: { store: Store; ids: IdGenerator; clock: Clock },
  options: { pollMs: number; onError: (message: string, error: unknown) => void },
): Worker {
  return createPerAccountWorker(dependencies, {
    ...options,
    name: 'api-key-expiry',
    findDueAccounts: (store, environment, until) =>
      store.apiKeys.findExpiryNoticeAccounts(
        environment,
        until,
        toTimestamp(Date.parse(until) + API_KEY_EXPIRING_NOTICE_MS),
      ),
    runDue: (context) => noticeApiKeyExpiries(context),
  });
}
