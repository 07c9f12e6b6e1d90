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
  DEFAULT_SANDBOX_JUMP_QUOTAS,
  DEFAULT_SIMULATION_BUDGET,
  type IdGenerator,
  type KeySecrets,
  type PaymentProvider,
  type SimulationBudget,
  type Store,
  type TaxIdVerification,
  type UseCases,
} from '@drawdown/billing-core';
import {
  backupSqlite,
  GroupCommit,
  MIGRATIONS,
  type MigrationStatus,
  migrate,
  migrationStatus,
  openDatabase,
  openStoreOn,
  pingDatabase,
  poolFigures,
  readQueueFigures,
  SchemaMismatch,
  type SchemaPolicy,
  type SchemaState,
  type SqlDatabase,
  SqliteDatabase,
  type StoreConfig,
  schemaState,
} from '@drawdown/billing-store';
import { wirePresenter } from './http/presenters.js';
import { createAuthenticatedKeyCache } from './infrastructure/authenticated-key-cache.js';
import { createEnvironmentClocks, forgetClockOnMove } from './infrastructure/environment-clocks.js';
import { keySecrets } from './infrastructure/key-secrets.js';
import { systemClock } from './infrastructure/system-clock.js';
import { createUlidIds } from './infrastructure/ulid-ids.js';
import { createViesVerifier, DEFAULT_VIES_URL } from './infrastructure/vies-verifier.js';
import { yieldToOthers } from './infrastructure/yield-to-others.js';
import {
  createFailureReporter,
  createLogger,
  type FailureReporter,
  type Logger,
  type LogLevel,
} from './operations/logger.js';
import type { PoolFigures, QueueFigures } from './operations/metrics.js';
import { accountPaymentProviders } from './payments/account-payment-providers.js';

export { SchemaMismatch, type MigrationStatus, type SchemaState };

import { NO_SPANS, type Spans } from './operations/spans.js';
import { tracedTransactions } from './operations/traced-store.js';
import type { Tracing } from './operations/tracing.js';
import {
  createDocumentPool,
  DEFAULT_DOCUMENT_QUEUE,
  DEFAULT_DOCUMENT_WORKER_MEMORY_MB,
  type DocumentPool,
  defaultDocumentThreads,
} from './rendering/document-pool.js';
import { createInvoiceLinkSigner, type InvoiceLinkSigner } from './rendering/invoice-links.js';
import { createPortalSessionSigner, type PortalSessionSigner } from './rendering/portal-session-links.js';
import type { DeliveryRecorder, WebhookDeliveryOptions } from './workers/webhook-delivery/delivery-worker.js';
import { createDestinationGuard, type DestinationGuard } from './workers/webhook-delivery/destination-guard.js';
import { wakeOnEvents } from './workers/webhook-delivery/wake-on-events.js';

export interface StorageSettings {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** Most PostgreSQL connections this process opens; the pool's default (10) when absent. */
  readonly databasePoolSize?: number | undefined;
  /** PostgreSQL: how long opening a connection may take (ADR 1520); 5 s when absent. */
  readonly databaseConnectTimeoutMs?: number | undefined;
  /** PostgreSQL: every statement's timeout, 0 for none (ADR 1520); 60 s when absent. */
  readonly databaseStatementTimeoutMs?: number | undefined;
  /** The least severe level logged; `info` when absent. */
  readonly logLevel?: LogLevel | undefined;
  /** Deliver webhooks of both environments to loopback, private and link-local destinations too (ADR 1485). */
  readonly allowPrivateWebhooks?: boolean | undefined;
  /** What webhook simulations may send (ADR 1486): the default when absent, no budget when null. */
  readonly simulationBudget?: SimulationBudget | null | undefined;
  /** Webhook delivery tuning; only `resolveHost` matters here (tests replace DNS). */
  readonly webhookDelivery?: Partial<Pick<WebhookDeliveryOptions, 'resolveHost'>> | undefined;
  /** The wall clock; the system's unless a test needs exact instants (prorated amounts). */
  readonly wallClock?: Clock | undefined;
  /** EU VAT ids checked with VIES (ADR 1437); the format check alone when absent or `off`. */
  readonly vatIdCheck?: 'vies' | 'off' | undefined;
  readonly viesUrl?: string | undefined;
  readonly vatIdCacheDays?: number | undefined;
  readonly vatIdTimeoutMs?: number | undefined;
  readonly vatIdUnavailable?: 'format' | 'charge' | undefined;
  /** The Stripe client's retries of an unanswered request; Stripe's client default (2) when absent. */
  readonly stripeNetworkRetries?: number | undefined;
  /** Worker threads rendering documents and decoding logos (ADR 1491); one fewer than the cores when absent. */
  readonly documentWorkers?: number | undefined;
  /** Documents that may wait for a thread before `documents_busy`. */
  readonly documentQueue?: number | undefined;
  /** Each document thread's JavaScript heap ceiling, in MiB. */
  readonly documentWorkerMemoryMb?: number | undefined;
  /** What one sandbox jump may run (ADR 1487); the core's default when absent. */
  readonly sandboxJumpSteps?: number | undefined;
  /** What one account's sandbox jumps may run in a UTC day (ADR 1487); the core's default when absent. */
  readonly sandboxDailySteps?: number | undefined;
  /** The SQLite WAL file's size limit in MiB (ADR 1488); 64 when absent. */
  readonly sqliteWalLimitMb?: number | undefined;
}

/**
 * Due steps (renewals, scheduled changes) run in one database transaction, per engine (ADR 1488):
 * one on SQLite, where a step never waits and each is followed by a yield so other requests run
 * (ADR 0900); ten on PostgreSQL, where each step's commit is a round trip and a WAL flush.
 */
export function dueStepsPerTransaction(settings: Pick<StorageSettings, 'databaseUrl'>): number {
  return settings.databaseUrl ? 10 : 1;
}

/**
 * Under load a drawdown batch starts at most every this many milliseconds (ADRs 0713, 0735):
 * 25 on SQLite, where each batch is a commit and a WAL sync on the service's own core, so fewer
 * and larger batches cost less CPU per event; 10 on PostgreSQL, where 25 put the drawdown lag's
 * p99 over its 50 ms target on a quiet machine (60 ms) and the CPU saved was the database's.
 */
export function drawdownBusyIntervalMs(settings: Pick<StorageSettings, 'databaseUrl'>): number {
  return settings.databaseUrl ? 10 : 25;
}

const DAY_MS = 86_400_000;

/** The VIES check the settings ask for, or none (ADR 1437). */
function taxIdVerificationOf(settings: StorageSettings): TaxIdVerification | undefined {
  if (settings.vatIdCheck !== 'vies') return undefined;
  return {
    verifier: createViesVerifier({
      baseUrl: settings.viesUrl ?? DEFAULT_VIES_URL,
      timeoutMs: settings.vatIdTimeoutMs ?? 5_000,
    }),
    cacheLifetimeMs: (settings.vatIdCacheDays ?? 30) * DAY_MS,
    unavailableFallback: settings.vatIdUnavailable ?? 'format',
  };
}

export function storeConfig(settings: StorageSettings): StoreConfig {
  return settings.databaseUrl
    ? {
        engine: 'postgres',
        url: settings.databaseUrl,
        ...(settings.databasePoolSize ? { maxConnections: settings.databasePoolSize } : {}),
        ...(settings.databaseConnectTimeoutMs ? { connectTimeoutMs: settings.databaseConnectTimeoutMs } : {}),
        ...(settings.databaseStatementTimeoutMs === undefined
          ? {}
          : { statementTimeoutMs: settings.databaseStatementTimeoutMs }),
      }
    : // Checkpoints and commits' fsyncs off the event loop (ADRs 0714, 0732), and the WAL file cut
      // back after bursts (ADR 1488).
      {
        engine: 'sqlite',
        file: sqliteFile(settings.dataDir),
        backgroundCheckpoints: true,
        syncOffEventLoop: true,
        walLimitBytes: (settings.sqliteWalLimitMb ?? 64) * 1024 * 1024,
      };
}

/** The SQLite database of a data folder. */
export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'drawdown.sqlite');
}

/** The database as operations see it: answers or not, its schema, its queues, its pool. */
export interface DatabaseProbe {
  /** Resolves when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  schemaState(): Promise<SchemaState>;
  readQueues(): Promise<QueueFigures>;
  /** The PostgreSQL pool's use; null on SQLite. */
  readPool(): PoolFigures | null;
}

function probe(database: SqlDatabase): DatabaseProbe {
  return {
    ping: (timeoutMs) => pingDatabase(database, timeoutMs),
    schemaState: async () => schemaState(await migrationStatus(database)),
    readQueues: () => readQueueFigures(database),
    readPool: () => poolFigures(database),
  };
}

/** Applies pending migrations (refusing a schema a newer build migrated); returns the ids applied. */
export async function migrateDatabase(settings: StorageSettings): Promise<readonly string[]> {
  // A migration may rewrite a large table: no statement timeout (ADR 1520).
  const database = openDatabase(storeConfig({ ...settings, databaseStatementTimeoutMs: 0 }));
  try {
    const before = await migrationStatus(database);
    if (schemaState(before) === 'ahead') throw new SchemaMismatch('ahead', before.unknown);
    return await migrate(database, MIGRATIONS);
  } finally {
    await database.close();
  }
}

/** The database's migrations compared with this build's, changing nothing. */
export async function databaseMigrationStatus(
  settings: StorageSettings,
): Promise<MigrationStatus & { readonly state: SchemaState }> {
  const database = openDatabase(storeConfig(settings));
  try {
    const status = await migrationStatus(database);
    return { ...status, state: schemaState(status) };
  } finally {
    await database.close();
  }
}

/** Copies the SQLite database of `settings` online to `destination` (ADR 1405). */
export function backupDatabase(
  settings: StorageSettings,
  destination: string,
): Promise<{ readonly file: string; readonly totalPages: number }> {
  if (settings.databaseUrl) {
    throw new Error(
      'drawdown backup copies the SQLite database; back up PostgreSQL with pg_dump (docs/deployment.md, "Backups")',
    );
  }
  return backupSqlite(sqliteFile(settings.dataDir), destination);
}

export interface ComposeOptions {
  /**
   * `migrate` (the default for library callers and `npm start`) applies pending migrations;
   * `require` refuses a database whose schema is not this build's (`drawdown` commands without
   * --migrate; ADR 1404).
   */
  readonly schema?: SchemaPolicy | undefined;
  /** Where the process logs; JSON lines on standard error at `settings.logLevel` when absent. */
  readonly logger?: Logger | undefined;
  /** The live environment's payment provider (ADR 1410); without one, live payments are reported. */
  readonly livePaymentProvider?: PaymentProvider | undefined;
  /** Traces requests, worker batches, webhook attempts and database transactions (ADR 1452); none when absent. */
  readonly tracing?: Tracing | undefined;
}

export interface CoreServices {
  /** Every use case, bound to the adapters below: what routes, workers and the CLI call. */
  readonly useCases: UseCases;
  /** Signs invoice links and verifies them, with the deployment's secret from the store. */
  readonly invoiceLinks: InvoiceLinkSigner;
  /**
   * The worker threads that render PDFs and decode logos (ADR 1491), started with the first
   * document. Whoever closes the store closes it first (`startService`'s close does).
   */
  readonly documents: DocumentPool;
  /** Signs customer portal session tokens (Ed25519, ADR 1443), with the deployment's seed from the store. */
  readonly portalSessions: PortalSessionSigner;
  /** Which webhook destinations may be saved and connected to. */
  readonly destinationGuard: DestinationGuard;
  /** Where the delivery worker records finished attempts, several to a commit (ADR 0925). */
  readonly deliveryRecorder: DeliveryRecorder;
  /** Where an environment is reached from outside: the checkout page's address in `checkout.url` (ADR 1412). */
  setPublicBaseUrl(environment: 'live' | 'sandbox', url: string): void;
  /** Called after every committed transaction that wrote an outbox event (the delivery worker wakes). */
  onEventsWritten(listener: () => void): void;
  /** The process's structured log (ADR 1400). */
  readonly logger: Logger;
  /** Reports unexpected failures through `logger`, a few lines per failure per window. */
  readonly reportError: FailureReporter;
  /** The adapters themselves: for workers' plumbing, tests and benchmarks, never for business rules. */
  readonly store: Store;
  /** What operations read from the database directly: health, schema, queue depths, the pool. */
  readonly database: DatabaseProbe;
  readonly ids: IdGenerator;
  readonly clock: Clock;
  readonly secrets: KeySecrets;
  /** The tracing the services were composed with (`startService` traces requests and shuts it down). */
  readonly tracing: Tracing | undefined;
  /** Where workers and deliveries open spans: the tracing, or nowhere. */
  readonly spans: Spans;
  /** How soon a busy drawdown worker starts its next batch, per engine (ADRs 0713, 0735). */
  readonly drawdownBusyIntervalMs: number;
}

/** At most this many finished attempts share one commit; the worker's in-flight limit is usually lower. */
const DELIVERY_RECORD_BATCH = 256;

/**
 * The delivery worker's recorder: the store's group commit over `recordDeliveryAttempts`, so
 * attempts that end together share one commit (on SQLite every commit is an fsync). One commit at
 * a time on either engine, as the worker did by hand; a batch that fails is recorded again
 * attempt by attempt, so one attempt that cannot be recorded leaves its neighbours recorded
 * (ADR 0901, ADR 0925).
 */
export function createDeliveryRecorder(useCases: Pick<UseCases, 'recordDeliveryAttempts'>): DeliveryRecorder {
  return new GroupCommit((attempts) => useCases.recordDeliveryAttempts(attempts), {
    maxBatch: DELIVERY_RECORD_BATCH,
    maxInFlight: 1,
  });
}

export async function composeServices(settings: StorageSettings, options: ComposeOptions = {}): Promise<CoreServices> {
  const logger = options.logger ?? createLogger({ level: settings.logLevel ?? 'info' });
  const reportError = createFailureReporter(logger);
  const { store: opened, database } = await openStoreOn(storeConfig(settings), options.schema ?? 'migrate');
  // Database files that others could read were narrowed to 0600 on opening (ADR 1481): say so once.
  for (const narrowed of database instanceof SqliteDatabase ? database.narrowedFiles : []) {
    logger.warn(
      { file: narrowed.file, previousMode: `0${narrowed.previousMode.toString(8)}`, mode: '0600' },
      'database file was readable by others: narrowed to owner only',
    );
  }
  const listeners: (() => void)[] = [];
  const spans = options.tracing ?? NO_SPANS;
  // Requests that write events wake the delivery worker, so their webhooks leave at once.
  const woken = wakeOnEvents(opened, () => {
    for (const listener of listeners) listener();
  });
  // Without tracing, transactions are not wrapped at all (ADR 0715).
  const traced = options.tracing
    ? tracedTransactions(woken, options.tracing, settings.databaseUrl ? 'postgresql' : 'sqlite')
    : woken;
  const wallClock = settings.wallClock ?? systemClock;
  // Sandbox clock offsets kept for a second; a move through this store forgets its account at once (ADR 0729).
  const environmentClocks = createEnvironmentClocks(traced.sandboxClocks, wallClock);
  const store = forgetClockOnMove(traced, environmentClocks);
  const ids = createUlidIds();
  const destinationGuard = createDestinationGuard({
    allowPrivate: settings.allowPrivateWebhooks ?? false,
    resolveHost: settings.webhookDelivery?.resolveHost,
  });
  const documents = createDocumentPool({
    threads: settings.documentWorkers ?? defaultDocumentThreads(),
    queue: settings.documentQueue ?? DEFAULT_DOCUMENT_QUEUE,
    memoryMb: settings.documentWorkerMemoryMb ?? DEFAULT_DOCUMENT_WORKER_MEMORY_MB,
    onError: reportError,
  });
  // The environments' public addresses are known once the servers are bound (ADR 1412).
  const publicBaseUrls: Partial<Record<'live' | 'sandbox', string>> = {};
  const useCases = createUseCases({
    store,
    ids,
    wallClock,
    clockFor: environmentClocks.clockFor,
    secrets: keySecrets,
    authenticatedKeys: createAuthenticatedKeyCache(),
    webhookDestinations: destinationGuard,
    pause: (milliseconds) => sleep(milliseconds),
    yieldToOthers,
    reportError,
    entityPresenter: wirePresenter,
    simulationBudget: settings.simulationBudget === undefined ? DEFAULT_SIMULATION_BUDGET : settings.simulationBudget,
    // Logo files are decoded on the document threads, after the core has checked their header (ADR 1490).
    images: documents.images,
    // Each account's configured provider (ADR 1420), unless the caller supplies one for all.
    livePaymentProvider:
      options.livePaymentProvider ??
      accountPaymentProviders({
        store,
        now: () => wallClock.now(),
        ...(settings.stripeNetworkRetries === undefined ? {} : { networkRetries: settings.stripeNetworkRetries }),
      }),
    defaultPaymentLink: (environment) => {
      const base = publicBaseUrls[environment];
      return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/checkout`;
    },
    taxIdVerification: taxIdVerificationOf(settings),
    sandboxJumpQuotas: {
      stepsPerJump: settings.sandboxJumpSteps ?? DEFAULT_SANDBOX_JUMP_QUOTAS.stepsPerJump,
      stepsPerDay: settings.sandboxDailySteps ?? DEFAULT_SANDBOX_JUMP_QUOTAS.stepsPerDay,
    },
    dueStepsPerTransaction: dueStepsPerTransaction(settings),
  });
  return {
    useCases,
    invoiceLinks: createInvoiceLinkSigner((name, candidate) =>
      store.billingSettings.obtainServiceSecret(name, candidate),
    ),
    documents,
    portalSessions: createPortalSessionSigner((name, candidate) =>
      store.billingSettings.obtainServiceSecret(name, candidate),
    ),
    destinationGuard,
    deliveryRecorder: createDeliveryRecorder(useCases),
    setPublicBaseUrl: (environment, url) => {
      publicBaseUrls[environment] = url;
    },
    onEventsWritten: (listener) => {
      listeners.push(listener);
    },
    logger,
    reportError,
    store,
    database: probe(database),
    ids,
    clock: wallClock,
    secrets: keySecrets,
    tracing: options.tracing,
    spans,
    drawdownBusyIntervalMs: drawdownBusyIntervalMs(settings),
  };
}
