/**
 * @module
 * The composition root: wires the ports to their adapters and builds every use case once. The
 * only file that picks a storage engine. Routes, workers and the CLI all receive the same
 * `useCases` (ADR 0920).
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Clock,
  createUseCases,
  type IdGenerator,
  type KeySecrets,
  type Store,
  type UseCases,
} from '@drawdown/billing-core';
import { openStore, type StoreConfig } from '@drawdown/billing-store';
import { createEnvironmentClocks } from './infrastructure/environment-clocks.js';
import { keySecrets } from './infrastructure/key-secrets.js';
import { systemClock } from './infrastructure/system-clock.js';
import { createUlidIds } from './infrastructure/ulid-ids.js';
import { createInvoiceLinkSigner, type InvoiceLinkSigner } from './rendering/invoice-links.js';
import type { WebhookDeliveryOptions } from './workers/webhook-delivery/delivery-worker.js';
import { createDestinationGuard, type DestinationGuard } from './workers/webhook-delivery/destination-guard.js';
import { wakeOnEvents } from './workers/webhook-delivery/wake-on-events.js';

export interface StorageSettings {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** Deliver live webhooks to loopback and private-network destinations too (local development only). */
  readonly allowPrivateWebhooks?: boolean | undefined;
  /** Webhook delivery tuning; only `resolveHost` matters here (tests replace DNS). */
  readonly webhookDelivery?: Partial<Pick<WebhookDeliveryOptions, 'resolveHost'>> | undefined;
}

export function storeConfig(settings: StorageSettings): StoreConfig {
  return settings.databaseUrl
    ? { engine: 'postgres', url: settings.databaseUrl }
    : { engine: 'sqlite', file: join(settings.dataDir, 'drawdown.sqlite') };
}

function logError(message: string, error: unknown): void {
  console.error(`[drawdown] ${message}:`, error instanceof Error ? (error.stack ?? error.message) : error);
}

export interface CoreServices {
  /** Every use case, bound to the adapters below: what routes, workers and the CLI call. */
  readonly useCases: UseCases;
  /** Signs invoice links and verifies them, with the deployment's secret from the store. */
  readonly invoiceLinks: InvoiceLinkSigner;
  /** Which webhook destinations may be saved and connected to. */
  readonly destinationGuard: DestinationGuard;
  /** Called after every committed transaction that wrote an outbox event (the delivery worker wakes). */
  onEventsWritten(listener: () => void): void;
  /** The adapters themselves: for workers' plumbing, tests and benchmarks, never for business rules. */
  readonly store: Store;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly secrets: KeySecrets;
}

export async function composeServices(settings: StorageSettings): Promise<CoreServices> {
  const opened = await openStore(storeConfig(settings));
  const listeners: (() => void)[] = [];
  // Requests that write events wake the delivery worker, so their webhooks leave at once.
  const store = wakeOnEvents(opened, () => {
    for (const listener of listeners) listener();
  });
  const ids = createUlidIds();
  const destinationGuard = createDestinationGuard({
    allowPrivate: settings.allowPrivateWebhooks ?? false,
    resolveHost: settings.webhookDelivery?.resolveHost,
  });
  const useCases = createUseCases({
    store,
    ids,
    wallClock: systemClock,
    clockFor: createEnvironmentClocks(store.sandboxClocks, systemClock),
    secrets: keySecrets,
    webhookDestinations: destinationGuard,
    pause: (milliseconds) => sleep(milliseconds),
    reportError: logError,
  });
  return {
    useCases,
    invoiceLinks: createInvoiceLinkSigner((name, candidate) =>
      store.billingSettings.obtainServiceSecret(name, candidate),
    ),
    destinationGuard,
    onEventsWritten: (listener) => {
      listeners.push(listener);
    },
    store,
    ids,
    clock: systemClock,
    secrets: keySecrets,
  };
}
