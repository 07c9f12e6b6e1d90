/**
 * @module
 * The whole store: the intersection of every feature's slice. Each feature declares its own
 * repositories and names the slice it uses in its `repositories.ts`; adapters implement this
 * whole for SQLite and PostgreSQL (`@drawdown/billing-store`), and only the composition of the
 * use cases (`use-cases.ts`) sees it whole.
 */

import type { AccessSlice } from './access/repositories.js';
import type { CatalogueSlice } from './catalogue/repositories.js';
import type { DiscountSlice } from './discounts/repositories.js';
import type { EmailSlice } from './email/repositories.js';
import type { EventSlice } from './events/repositories.js';
import type { InvoiceSlice } from './invoices/repositories.js';
import type { MetricSlice } from './metrics/repositories.js';
import type { NotificationSlice } from './notifications/repositories.js';
import type { PaymentSlice } from './payments/repositories.js';
import type { PortalSlice } from './portal/repositories.js';
import type { ReportSlice } from './reports/repositories.js';
import type { Context, Transactional } from './shared/context.js';
import type { SimulationSlice } from './simulations/repositories.js';
import type { SubscriptionSlice } from './subscriptions/repositories.js';
import type { TaxSlice } from './tax/repositories.js';
import type { TaxIdPorts } from './tax/tax-id-checks.js';
import type { TransactionSlice } from './transactions/repositories.js';
import type { PaymentLinkPorts } from './transactions/transaction-context.js';
import type { UsageEventIngest, UsageSlice } from './usage/repositories.js';

/** Every repository: the intersection of the features' slices. */
export interface Repositories
  extends AccessSlice,
    CatalogueSlice,
    DiscountSlice,
    EmailSlice,
    EventSlice,
    InvoiceSlice,
    MetricSlice,
    NotificationSlice,
    PaymentSlice,
    PortalSlice,
    ReportSlice,
    SimulationSlice,
    SubscriptionSlice,
    TaxSlice,
    TransactionSlice,
    UsageSlice {}

/**
 * The whole store. Its own repositories read outside any transaction; `transaction` runs
 * work atomically: every write in it, outbox rows included, commits together or not at all.
 */
export interface Store extends Repositories, Transactional<Repositories> {
  /** Durable acceptance of usage events, outside any transaction (group commit). */
  readonly usageIngest: UsageEventIngest;
  close(): Promise<void>;
}

/** What the use-case root gives every use case: the whole store, and the ports some features read. */
export interface OperationContext extends Context<Repositories>, TaxIdPorts, PaymentLinkPorts {
  readonly store: Store;
}
