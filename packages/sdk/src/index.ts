/**
 * @module
 * `@drawdown/sdk`: a typed client of the Drawdown billing service, with the seeds' client rules
 * built in (usage-event retries and the 429 hold, webhook verification, the cached currency list
 * and exact amount formatting). No runtime dependencies; Node 20+ and edge runtimes with `fetch`
 * and Web Crypto.
 */
export { DEFAULT_ENVIRONMENTS, Drawdown, type DrawdownOptions, type Environment } from './client.js';
export type { BackoffPolicy } from './core/backoff.js';
export { Collection } from './core/collection.js';
export {
  type ConnectionErrorCode,
  DrawdownApiError,
  type DrawdownApiErrorInit,
  DrawdownConnectionError,
  type FieldError,
} from './core/errors.js';
export type { RequestOptions } from './core/http-client.js';
export type { TimestampRange } from './core/query.js';
export type { Runtime } from './core/runtime.js';
export { FALLBACK_LOCALE, localeFromAcceptLanguage } from './currencies/accept-language.js';
export { clearFormatterCache, formatAmount } from './currencies/format-amount.js';
export { fallbackDecimalPlaces } from './currencies/minor-units.js';
export type {
  AddressesResource,
  CustomersResource,
  MetersResource,
  PricesResource,
  ProductsResource,
  UsageBalanceUnitsResource,
} from './resources/catalogue.js';
export {
  CURRENCY_CACHE_TTL_MS,
  CURRENCY_RETRY_AFTER_FAILURE_MS,
  type CurrenciesResource,
  type Currency,
  type DecimalPlacesSource,
} from './resources/currencies.js';
export type { EventsResource, EventTypesResource, ListEventsParams } from './resources/events.js';
export type { NotificationSettingsResource, NotificationsResource } from './resources/notifications.js';
export type { BusinessesResource, CustomerPortalSessionsResource } from './resources/portal-sessions.js';
export type {
  AdvancedSandboxClock,
  AdvanceSandboxClockInput,
  SandboxClock,
  SandboxClockResource,
} from './resources/sandbox-clock.js';
export type { SubscriptionsResource } from './resources/subscriptions.js';
export type { ClientTokensResource } from './resources/tokens.js';
export type {
  AdjustmentsResource,
  CheckoutSettingsResource,
  PaymentMethodsResource,
  SellerDetailsResource,
  TaxSettingsResource,
  TransactionsResource,
} from './resources/transactions.js';
export type { UsageBalancesResource } from './resources/usage-balances.js';
export type { UsageEventsResource } from './resources/usage-events.js';
export {
  type ChangeStatement,
  type ChangeStatementLine,
  type ChangeStatementTax,
  changeStatement,
} from './statements/change-statement.js';
export type {
  Address,
  Allowance,
  CatalogueType,
  CreateAddressInput,
  CreateCustomerInput,
  CreateMeterInput,
  CreatePriceInput,
  CreateProductInput,
  CreateUsageBalanceUnitInput,
  Customer,
  ListAddressesParams,
  ListCustomersParams,
  ListMetersParams,
  ListPricesParams,
  ListProductsParams,
  ListUsageBalanceUnitsParams,
  Meter,
  Price,
  Product,
  TaxCategory,
  TaxMode,
  UnitPriceOverride,
  UpdateAddressInput,
  UpdateCustomerInput,
  UpdateMeterInput,
  UpdatePriceInput,
  UpdateProductInput,
  UpdateUsageBalanceUnitInput,
  UsageBalanceUnit,
} from './types/catalogue.js';
export {
  type ApiKeyData,
  type DrawdownEvent,
  type EntityData,
  EVENT_TYPE_NAMES,
  type EventDataByType,
  type EventOf,
  isKnownEventType,
  type KnownEvent,
  type KnownEventType,
  MalformedEventError,
  parseEvent,
  type UnknownEvent,
} from './types/events.js';
export type {
  CreateNotificationSettingInput,
  EventType,
  ListNotificationSettingsParams,
  ListNotificationsParams,
  Notification,
  NotificationLog,
  NotificationSetting,
  NotificationStatus,
  TrafficSource,
  UpdateNotificationSettingInput,
} from './types/notifications.js';
export type {
  Business,
  CreateBusinessInput,
  CustomerPortalSession,
  PortalSessionVerificationKey,
  UpdateBusinessInput,
  VerifiedPortalSession,
} from './types/portal-sessions.js';
export type { CatalogueStatus, CustomData, Duration, Interval, Money, PageParams, TimePeriod } from './types/shared.js';
export type {
  BillingDetails,
  CancellationReasonCode,
  CancelSubscriptionInput,
  CollectionMode,
  ListSubscriptionsParams,
  OnResume,
  PauseSubscriptionInput,
  PreviewedDetails,
  PreviewedLineItem,
  PreviewedTransaction,
  PreviewTotals,
  ProrationBillingMode,
  ResumeSubscriptionInput,
  ScheduledChange,
  ScheduledChangeAction,
  Subscription,
  SubscriptionCancellationReason,
  SubscriptionItem,
  SubscriptionItemInput,
  SubscriptionStatus,
  SubscriptionUpdatePreview,
  SubscriptionWithIncludes,
  UpdateSubscriptionInput,
} from './types/subscriptions.js';
export { CANCELLATION_REASONS } from './types/subscriptions.js';
export type {
  ClientToken,
  ClientTokenStatus,
  CreateClientTokenInput,
  CustomerAuthToken,
  ListClientTokensParams,
} from './types/tokens.js';
export {
  type Adjustment,
  type AdjustmentAction,
  BILLING_HISTORY_STATUSES,
  type CheckoutSettings,
  type CreateAdjustmentInput,
  type CreateTransactionInput,
  type DefaultTaxMode,
  type InvoicePdf,
  type ListAdjustmentsParams,
  type ListPaymentMethodsParams,
  type ListTransactionsParams,
  type NonCataloguePriceInput,
  type PaymentMethod,
  type RecordPaymentInput,
  type SavedCard,
  type SellerAddress,
  type SellerDetails,
  type SellerLogoFile,
  type TaxSettings,
  type Transaction,
  type TransactionDetails,
  type TransactionItemInput,
  type TransactionLineItem,
  type TransactionOrigin,
  type TransactionPayment,
  type TransactionStatus,
  type TransactionTotals,
  type UpdateCheckoutSettingsInput,
  type UpdateSellerDetailsInput,
  type UpdateTaxSettingsInput,
  type UpdateTransactionInput,
} from './types/transactions.js';
export type {
  BalancePart,
  ListUsageBalancesParams,
  UsageBalance,
  UsageEvent,
  UsageEventInput,
  UsageEventResult,
  UsagePeriod,
} from './types/usage.js';
export {
  DEFAULT_USAGE_RETRY,
  type ReportUsageOptions,
  TIMESTAMP_TOO_OLD,
  type UsageAccepted,
  type UsageExpired,
  type UsageGaveUp,
  type UsageRejected,
  type UsageReport,
  type UsageRetryPolicy,
} from './usage/report-usage.js';
export {
  MemoryUsageBufferStore,
  type UsageBuffer,
  UsageBufferClosedError,
  type UsageBufferFlushResult,
  type UsageBufferOptions,
  type UsageBufferStore,
} from './usage/usage-buffer.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  type SignWebhookOptions,
  signWebhookPayload,
  unmarshalWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from './webhooks/signature.js';
