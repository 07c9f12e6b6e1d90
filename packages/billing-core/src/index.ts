/**
 * @module
 * The billing domain: pure rules and use cases over storage ports. No I/O, no clock, no
 * randomness of its own; the service supplies those through the ports.
 */
export type { Account, ApiKey } from './access/account.js';
export {
  type AccessDependencies,
  authenticate,
  type CreateApiKeyInput,
  createAccount,
  createApiKey,
  type KeySecrets,
  revokeApiKey,
} from './access/api-keys.js';
export {
  ALL_PERMISSIONS,
  grantablePermissions,
  isPermission,
  type Permission,
  permits,
  requiresEarlyAccess,
} from './access/permissions.js';
export {
  type CreateAddressInput,
  createAddress,
  getAddress,
  listAddresses,
  type UpdateAddressInput,
  updateAddress,
} from './catalogue/addresses.js';
export {
  type CreateCustomerInput,
  createCustomer,
  getCustomer,
  listCustomers,
  type UpdateCustomerInput,
  updateCustomer,
} from './catalogue/customers.js';
export type {
  Address,
  Allowance,
  CatalogueStatus,
  CatalogueType,
  CustomData,
  Customer,
  Duration,
  Interval,
  Meter,
  Money,
  Price,
  Product,
  TaxCategory,
  TaxMode,
  UnitPriceOverride,
  UsageBalanceUnit,
} from './catalogue/entities.js';
export { CATALOGUE_TYPES, INTERVALS, TAX_CATEGORIES, TAX_MODES } from './catalogue/entities.js';
export {
  type CreateMeterInput,
  createMeter,
  getMeter,
  listMeters,
  METER_ACTION_LENGTH,
  METER_ACTION_PATTERN,
  type UpdateMeterInput,
  updateMeter,
} from './catalogue/meters.js';
export {
  type CreatePriceInput,
  createPrice,
  DEFAULT_QUANTITY,
  getPrice,
  listPrices,
  MAX_ALLOWANCES_PER_PRICE,
  type UpdatePriceInput,
  updatePrice,
} from './catalogue/prices.js';
export {
  type CreateProductInput,
  createProduct,
  getProduct,
  listProducts,
  type UpdateProductInput,
  updateProduct,
} from './catalogue/products.js';
export {
  type CreateUsageBalanceUnitInput,
  createUsageBalanceUnit,
  getUsageBalanceUnit,
  listUsageBalanceUnits,
  type UpdateUsageBalanceUnitInput,
  updateUsageBalanceUnit,
} from './catalogue/usage-balance-units.js';
export type { EntityKind, StoredEvent } from './events/stored-event.js';
export { CURRENCY_MINOR_UNITS, type CurrencyCode, isSupportedCurrency } from './money/currencies.js';
export { Decimal } from './money/decimal.js';
export {
  ALLOWANCE_AMOUNT_PATTERN,
  MINOR_UNIT_AMOUNT_PATTERN,
  QUANTITY_PATTERN,
  RATE_PATTERN,
} from './money/decimal-patterns.js';
export { BillingError, type FieldError } from './shared/billing-error.js';
export { type Clock, toTimestamp } from './shared/clock.js';
export { ERROR_CODES, type ErrorCode, isErrorCode } from './shared/error-codes.js';
export { ID_PREFIXES, type IdGenerator, type IdPrefix, isIdOf } from './shared/ids.js';
export { type OperationContext, recordEvent } from './shared/operation-context.js';
export {
  ESTIMATED_TOTAL_CAP,
  type FilterCondition,
  type ListFilter,
  type ListQuery,
  type Page,
  type SortDirection,
} from './shared/pagination.js';
export {
  type AccountRepository,
  type AddressColumn,
  type ApiKeyRepository,
  type Collection,
  type CustomerColumn,
  DuplicateKeyError,
  type EventColumn,
  type EventLog,
  type IngestOutcome,
  type MeterColumn,
  type PendingUsageEvent,
  type PriceColumn,
  type ProductColumn,
  type Repositories,
  type SandboxClockRepository,
  type Store,
  type SubscriptionColumn,
  type SubscriptionRepository,
  type UsageBalanceColumn,
  type UsageBalanceRepository,
  type UsageBalanceUnitColumn,
  type UsageEventIngest,
  type UsageEventRepository,
} from './shared/repository.js';
export { ENVIRONMENTS, type Environment, type Scope } from './shared/scope.js';
export { addCycles, periodAt } from './subscriptions/billing-period.js';
export {
  type CancelInput,
  cancelSubscription,
  type PauseInput,
  pauseSubscription,
  type ResumeInput,
  resumeSubscription,
} from './subscriptions/pause-resume-cancel.js';
export { applyDueStep, runDueSubscriptions } from './subscriptions/process-due.js';
export { getSubscription, listSubscriptions } from './subscriptions/read-subscriptions.js';
export {
  advanceSandboxClock,
  readSandboxClock,
  type SandboxClockDependencies,
  type SandboxClockReading,
} from './subscriptions/sandbox-clock.js';
export { type StartSubscriptionInput, startSubscription } from './subscriptions/start-subscription.js';
export {
  type BillingPeriod,
  type CollectionMode,
  hasAllowances,
  NEXT_STATUSES,
  nextDueAt,
  type OnResume,
  type ScheduledChange,
  SUBSCRIPTION_STATUSES,
  type Subscription,
  type SubscriptionItem,
  type SubscriptionStatus,
} from './subscriptions/subscription.js';
export type { RequestedItem } from './subscriptions/subscription-items.js';
export {
  PRORATION_BILLING_MODES,
  type ProrationBillingMode,
  type UpdateSubscriptionInput,
  updateSubscription,
} from './subscriptions/update-subscription.js';
export { applyBalanceEffects } from './usage/apply-balance-effects.js';
export { applyPendingDrawdowns, type DrawdownDependencies } from './usage/apply-drawdowns.js';
export { allowancesByUnit, type BalanceEffect, balanceEffects } from './usage/balance-effects.js';
export {
  applyEntry,
  type BalanceState,
  type BalanceTotals,
  balanceTotals,
  EMPTY_BALANCE,
  type Grant,
  type LedgerEntry,
  replayLedger,
} from './usage/balance-ledger.js';
export { getUsageBalance, listUsageBalances } from './usage/read-usage-balances.js';
export { EVENTS_PER_REQUEST, recordUsageEvents } from './usage/record-usage-events.js';
export type { UsageBalance } from './usage/usage-balance.js';
export {
  canonicalTimestamp,
  checkEventWindow,
  MAX_EVENT_AGE_MS,
  MAX_EVENT_LEAD_MS,
  type RecordedUsageEvent,
  type ResolvedDrawdown,
  resolveDrawdowns,
  type UsageEventInput,
  type UsageEventResult,
  validateUsageEvent,
} from './usage/usage-event.js';
