/**
 * @module
 * The whole store: every feature's repositories together. Each feature declares its own in its
 * `repositories.ts`; adapters implement them for SQLite and PostgreSQL (`@drawdown/billing-store`).
 */

import type { AccessRepositories } from '../access/repositories.js';
import type { CatalogueRepositories } from '../catalogue/repositories.js';
import type { DiscountRepositories } from '../discounts/repositories.js';
import type { EventRepositories } from '../events/repositories.js';
import type { InvoiceRepositories } from '../invoices/repositories.js';
import type { MetricRepositories } from '../metrics/repositories.js';
import type { NotificationRepositories } from '../notifications/repositories.js';
import type { PaymentRepositories } from '../payments/repositories.js';
import type { ReportRepositories } from '../reports/repositories.js';
import type { SimulationRepositories } from '../simulations/repositories.js';
import type { SubscriptionRepositories } from '../subscriptions/repositories.js';
import type { TaxRepositories } from '../tax/repositories.js';
import type { TransactionRepositories } from '../transactions/repositories.js';
import type { UsageEventIngest, UsageRepositories } from '../usage/repositories.js';

export { type Collection, DuplicateKeyError } from './collection.js';

export interface Repositories
  extends AccessRepositories,
    CatalogueRepositories,
    DiscountRepositories,
    EventRepositories,
    InvoiceRepositories,
    MetricRepositories,
    NotificationRepositories,
    PaymentRepositories,
    ReportRepositories,
    SimulationRepositories,
    SubscriptionRepositories,
    TaxRepositories,
    TransactionRepositories,
    UsageRepositories {}

/**
 * The whole store. Its own repositories read outside any transaction; `transaction` runs
 * work atomically: every write in it, outbox rows included, commits together or not at all.
 */
export interface Store extends Repositories {
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  readonly usageIngest: UsageEventIngest;
  close(): Promise<void>;
}
