/**
 * @module
 * Opens a Store on SQLite or PostgreSQL and brings its schema up to date.
 */
import type { Repositories, Store } from '@drawdown/billing-core';
import { migrate } from './migrations/migrate.js';
import { migrationStatus, schemaState } from './migrations/migration-status.js';
import { SqlAccountRepository, SqlApiKeyRepository } from './repositories/access-repositories.js';
import {
  addressesTable,
  businessesTable,
  customersTable,
  discountGroupsTable,
  discountsTable,
  metersTable,
  pricesTable,
  productsTable,
  transactionRevisionsTable,
  usageBalanceUnitsTable,
} from './repositories/catalogue-tables.js';
import { SqlCreditBalanceRepository } from './repositories/credit-balance-repository.js';
import { DocumentCollection } from './repositories/document-collection.js';
import {
  SqlEmailJobRepository,
  SqlEmailReminderRepository,
  SqlEmailSettingsRepository,
} from './repositories/email-repository.js';
import { SqlEventLog } from './repositories/event-log.js';
import { SqlMetricRollupRepository } from './repositories/metric-rollup-repository.js';
import { SqlNotificationRepository } from './repositories/notification-repository.js';
import { SqlNotificationSettingRepository } from './repositories/notification-setting-repository.js';
import {
  SqlProviderCustomerRepository,
  SqlProviderNotificationLog,
  SqlProviderSettingsRepository,
} from './repositories/payment-provider-repositories.js';
import {
  checkoutSettingsTable,
  paymentMethodsTable,
  SqlPaymentAttemptRepository,
  SqlProviderRefundRepository,
  SqlRecoveryRunRepository,
  sandboxPaymentsTable,
  sellerDetailsTable,
  taxIdChecksTable,
} from './repositories/payment-repositories.js';
import { RecentlyRecorded } from './repositories/recently-recorded.js';
import { SqlReportRepository } from './repositories/report-repository.js';
import { SqlSandboxClockRepository } from './repositories/sandbox-clock-repository.js';
import {
  SqlSimulationRunEventRepository,
  SqlSimulationRunRepository,
  SqlSimulationSpendingRepository,
  simulationsCollection,
} from './repositories/simulation-repositories.js';
import { SqlSubscriptionRepository } from './repositories/subscription-repository.js';
import { SqlClientTokenRepository, SqlCustomerAuthTokenRepository } from './repositories/token-repositories.js';
import { adjustmentsTable } from './repositories/transaction-adjustments.js';
import { SqlTransactionRepository } from './repositories/transaction-repository.js';
import { SqlBillingSettingsRepository } from './repositories/transaction-settings.js';
import { SqlUsageBalanceRepository } from './repositories/usage-balance-repository.js';
import { SqlUsageEventRepository } from './repositories/usage-event-repository.js';
import { PostgresUsageIngest, SqliteUsageIngest } from './repositories/usage-ingest.js';
import { PostgresDatabase } from './sql/postgres-database.js';
import type { SqlDatabase, SqlExecutor } from './sql/sql-database.js';
import { SqliteDatabase } from './sql/sqlite-database.js';

export type StoreConfig =
  | {
      readonly engine: 'sqlite';
      readonly file: string;
      readonly synchronous?: 'FULL' | 'NORMAL';
      readonly backgroundCheckpoints?: boolean;
      /** Durable commits whose WAL fsync runs off the event loop (ADR 0732); the service's choice. */
      readonly syncOffEventLoop?: boolean;
      /** The WAL file's size limit in bytes (ADR 1488); 64 MiB when absent. */
      readonly walLimitBytes?: number;
    }
  | {
      readonly engine: 'postgres';
      /** One host, or several (libpq's form) with `target_session_attrs=read-write` to follow the primary (ADR 1520). */
      readonly url: string;
      readonly maxConnections?: number;
      readonly connectTimeoutMs?: number;
      /** 0 turns the statement timeout off (migrations on large tables). */
      readonly statementTimeoutMs?: number;
    };

export function repositoriesOn(executor: SqlExecutor, recentlyRecorded?: RecentlyRecorded): Repositories {
  return {
    accounts: new SqlAccountRepository(executor),
    apiKeys: new SqlApiKeyRepository(executor),
    products: new DocumentCollection(executor, productsTable),
    prices: new DocumentCollection(executor, pricesTable),
    customers: new DocumentCollection(executor, customersTable),
    addresses: new DocumentCollection(executor, addressesTable),
    businesses: new DocumentCollection(executor, businessesTable),
    transactionRevisions: new DocumentCollection(executor, transactionRevisionsTable),
    usageBalanceUnits: new DocumentCollection(executor, usageBalanceUnitsTable),
    meters: new DocumentCollection(executor, metersTable),
    discounts: new DocumentCollection(executor, discountsTable),
    discountGroups: new DocumentCollection(executor, discountGroupsTable),
    events: new SqlEventLog(executor),
    notificationSettings: new SqlNotificationSettingRepository(executor),
    notifications: new SqlNotificationRepository(executor),
    subscriptions: new SqlSubscriptionRepository(executor),
    usageBalances: new SqlUsageBalanceRepository(executor),
    usageEvents: new SqlUsageEventRepository(executor, recentlyRecorded),
    sandboxClocks: new SqlSandboxClockRepository(executor),
    transactions: new SqlTransactionRepository(executor),
    adjustments: new DocumentCollection(executor, adjustmentsTable),
    billingSettings: new SqlBillingSettingsRepository(executor),
    simulations: simulationsCollection(executor),
    simulationRuns: new SqlSimulationRunRepository(executor),
    simulationRunEvents: new SqlSimulationRunEventRepository(executor),
    simulationSpending: new SqlSimulationSpendingRepository(executor),
    metricRollups: new SqlMetricRollupRepository(executor),
    reports: new SqlReportRepository(executor),
    creditBalances: new SqlCreditBalanceRepository(executor),
    paymentMethods: new DocumentCollection(executor, paymentMethodsTable),
    paymentAttempts: new SqlPaymentAttemptRepository(executor),
    sandboxPayments: new DocumentCollection(executor, sandboxPaymentsTable),
    checkoutSettings: new DocumentCollection(executor, checkoutSettingsTable),
    clientTokens: new SqlClientTokenRepository(executor),
    customerAuthTokens: new SqlCustomerAuthTokenRepository(executor),
    providerSettings: new SqlProviderSettingsRepository(executor),
    providerCustomers: new SqlProviderCustomerRepository(executor),
    providerNotifications: new SqlProviderNotificationLog(executor),
    sellerDetails: new DocumentCollection(executor, sellerDetailsTable),
    taxIdChecks: new DocumentCollection(executor, taxIdChecksTable),
    recoveryRuns: new SqlRecoveryRunRepository(executor),
    providerRefunds: new SqlProviderRefundRepository(executor),
    emailJobs: new SqlEmailJobRepository(executor),
    emailSettings: new SqlEmailSettingsRepository(executor),
    emailReminders: new SqlEmailReminderRepository(executor),
  };
}

export function openDatabase(config: StoreConfig): SqlDatabase {
  if (config.engine === 'sqlite') {
    return new SqliteDatabase(config.file, {
      ...(config.synchronous ? { synchronous: config.synchronous } : {}),
      ...(config.backgroundCheckpoints ? { backgroundCheckpoints: true } : {}),
      ...(config.syncOffEventLoop ? { syncOffEventLoop: true } : {}),
      ...(config.walLimitBytes === undefined ? {} : { walLimitBytes: config.walLimitBytes }),
    });
  }
  return new PostgresDatabase(config.url, {
    ...(config.maxConnections ? { maxConnections: config.maxConnections } : {}),
    ...(config.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: config.connectTimeoutMs }),
    ...(config.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: config.statementTimeoutMs }),
  });
}

/** A Store over an open database whose schema is already current. */
export function storeOn(database: SqlDatabase): Store {
  // SQLite: the ingest's new events are handed to the drawdown in memory (ADR 0734).
  const recentlyRecorded = database instanceof SqliteDatabase ? new RecentlyRecorded() : undefined;
  // The repositories hold nothing but their executor, and SQLite's transactions all run on its
  // one writer: there they are made once per executor, not once per transaction (ADR 0734).
  // PostgreSQL gives each transaction an executor of its own.
  const repositoriesOf = new WeakMap<SqlExecutor, Repositories>();
  const repositoriesFor = (tx: SqlExecutor): Repositories => {
    if (tx.dialect !== 'sqlite') return repositoriesOn(tx);
    let repositories = repositoriesOf.get(tx);
    if (!repositories) {
      repositories = repositoriesOn(tx, recentlyRecorded);
      repositoriesOf.set(tx, repositories);
    }
    return repositories;
  };
  return {
    ...repositoriesOn(database),
    transaction: (work) => database.transaction((tx) => work(repositoriesFor(tx))),
    usageIngest:
      database instanceof SqliteDatabase
        ? new SqliteUsageIngest(database, recentlyRecorded)
        : new PostgresUsageIngest(database as PostgresDatabase),
    close: () => database.close(),
  };
}

/**
 * What opening does with the schema: `migrate` applies pending migrations; `require` refuses a
 * database with pending migrations or migrations this build does not know (a newer build's).
 */
export type SchemaPolicy = 'migrate' | 'require';

/** The database's schema is not this build's; nothing was changed. */
export class SchemaMismatch extends Error {
  override readonly name = 'SchemaMismatch';

  constructor(
    readonly state: 'behind' | 'ahead',
    readonly migrations: readonly string[],
  ) {
    super(
      state === 'behind'
        ? `The database has ${migrations.length} pending migration(s) (${migrations.join(', ')}); run \`drawdown migrate\` (or start with --migrate).`
        : `The database was migrated by a newer build (${migrations.join(', ')} unknown to this one); run that build, or restore a backup taken before the upgrade.`,
    );
  }
}

/** Brings the schema up to date, or checks that it is, per `policy`. */
export async function prepareSchema(database: SqlDatabase, policy: SchemaPolicy): Promise<void> {
  const status = await migrationStatus(database);
  const state = schemaState(status);
  if (state === 'ahead') throw new SchemaMismatch('ahead', status.unknown);
  if (state === 'behind') {
    if (policy === 'require') throw new SchemaMismatch('behind', status.pending);
    await migrate(database);
  }
}

/** Opens the database with its schema prepared per `policy`, and the Store over it. */
export async function openStoreOn(
  config: StoreConfig,
  policy: SchemaPolicy,
): Promise<{ readonly store: Store; readonly database: SqlDatabase }> {
  const database = openDatabase(config);
  try {
    await prepareSchema(database, policy);
  } catch (error) {
    await database.close();
    throw error;
  }
  return { store: storeOn(database), database };
}

/** Opens the database, applies pending migrations and returns the Store. */
export async function openStore(config: StoreConfig): Promise<Store> {
  return (await openStoreOn(config, 'migrate')).store;
}
