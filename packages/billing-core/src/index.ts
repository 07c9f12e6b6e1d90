/**
 * @module
 * The billing domain: pure rules and use cases over storage ports. No I/O, no clock, no
 * randomness of its own; the service supplies those through the ports.
 */
export type { Account, ApiKey } from './access/account.js';
export { CLIENT_TOKEN_STATUSES, type ClientToken, type ClientTokenStatus } from './access/account.js';
export {
  type AccessDependencies,
  API_KEY_EXPIRING_NOTICE_MS,
  type ApiKeyEventEntity,
  apiKeyStatus,
  authenticate,
  type CreateApiKeyInput,
  createAccount,
  createApiKey,
  type KeyAuthenticationDependencies,
  type KeySecrets,
  noticeApiKeyExpiries,
  revokeApiKey,
} from './access/api-keys.js';
export type { AuthenticatedKey, AuthenticatedKeyCache, KeyReadTicket } from './access/authenticated-key-cache.js';
export type { CreateClientTokenInput, UpdateClientTokenInput } from './access/client-tokens.js';
export {
  CUSTOMER_AUTH_TOKEN_LIFETIME_MS,
  type CustomerAuthToken,
  type VerifiedCustomer,
} from './access/customer-auth-tokens.js';
export { createDemoAccount, type DemoAccount, type DemoAccountRequest } from './access/demo-account.js';
export {
  ALL_PERMISSIONS,
  grantablePermissions,
  isPermission,
  type Permission,
  permits,
  requiresEarlyAccess,
} from './access/permissions.js';
export type {
  AccountRepository,
  ApiKeyExpiryNotice,
  ApiKeyRepository,
  ClientTokenColumn,
  ClientTokenRepository,
  CustomerAuthTokenRepository,
  StoredClientToken,
  StoredCustomerAuthToken,
} from './access/repositories.js';
export {
  type CreateAddressInput,
  createAddress,
  getAddress,
  listAddresses,
  type UpdateAddressInput,
  updateAddress,
} from './catalogue/addresses.js';
export {
  type CreateBusinessInput,
  createBusiness,
  getBusiness,
  listBusinesses,
  type UpdateBusinessInput,
  updateBusiness,
} from './catalogue/businesses.js';
export { withPriceProduct, withProductPrices } from './catalogue/catalogue-includes.js';
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
  Business,
  BusinessContact,
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
  isMeterAction,
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
export type {
  AddressColumn,
  BusinessColumn,
  CustomerColumn,
  MeterColumn,
  PriceColumn,
  ProductColumn,
  UsageBalanceUnitColumn,
} from './catalogue/repositories.js';
export {
  type CreateUsageBalanceUnitInput,
  createUsageBalanceUnit,
  getUsageBalanceUnit,
  listUsageBalanceUnits,
  type UpdateUsageBalanceUnitInput,
  updateUsageBalanceUnit,
} from './catalogue/usage-balance-units.js';
export {
  allocate,
  type DiscountableLine,
  type DiscountTerms,
  discountLines,
  FLAT_AMOUNT_PATTERN,
  PERCENTAGE_PATTERN,
} from './discounts/apply-discount.js';
export {
  DISCOUNT_MODES,
  DISCOUNT_STATUSES,
  DISCOUNT_TYPES,
  type Discount,
  type DiscountGroup,
  type DiscountMode,
  type DiscountStatus,
  type DiscountType,
  discountAt,
  discountStatusAt,
} from './discounts/discount.js';
export {
  type CreateDiscountInput,
  createDiscount,
  createDiscountGroup,
  DISCOUNT_CODE_PATTERN,
  type DiscountTermsInput,
  getDiscount,
  getDiscountGroup,
  listDiscountGroups,
  listDiscounts,
  type UpdateDiscountGroupInput,
  type UpdateDiscountInput,
  updateDiscount,
  updateDiscountGroup,
} from './discounts/discounts.js';
export type { DiscountColumn, DiscountGroupColumn } from './discounts/repositories.js';
export { composeEmail, type EmailContent, type EmailLinks, headerSafe } from './email/email-content.js';
export { afterEmailAttempt, type ClaimEmailsInput, type EmailOutcome, messageIdOf } from './email/email-delivery.js';
export { type EmailOccurrence, emailOccurrenceOf } from './email/email-occurrences.js';
export { REMINDER_BATCH_SIZE } from './email/email-reminders.js';
export { type EmailSender, emailKindsOn, type UpdateEmailSettingsInput } from './email/email-settings.js';
export { EMAIL_LANGUAGES, EMAIL_WORDS, type EmailLanguage, emailLanguageOf } from './email/email-words.js';
export {
  DEFAULT_EMAIL_SETTINGS,
  EMAIL_KINDS,
  type EmailFacts,
  type EmailJob,
  type EmailKind,
  type EmailSettings,
  type EmailSkipReason,
  type EmailStatus,
  type RenderedEmail,
} from './email/entities.js';
export type {
  EmailClaim,
  EmailJobColumn,
  EmailJobRepository,
  EmailReminderRepository,
  EmailReminderState,
  EmailRepositories,
  EmailSettingsRepository,
  EmailSlice,
} from './email/repositories.js';
export {
  describeEventType,
  EVENT_API_VERSIONS,
  EVENT_TYPE_NAMES,
  EVENT_TYPES,
  type EventEmitter,
  type EventTypeDefinition,
  type EventTypeDescription,
  type EventTypeName,
  emittedEventTypes,
  isEventTypeAvailable,
  isEventTypeName,
  listEventTypes,
} from './events/event-types.js';
export { listEvents } from './events/list-events.js';
export { recordEvent } from './events/record-event.js';
export type { EventColumn, EventLog } from './events/repositories.js';
export type { EntityKind, StoredEvent } from './events/stored-event.js';
export {
  buildCreditNoteDocument,
  type CreditNoteLinkClaims,
  creditNoteLinkPayload,
  creditNoteNumber,
  getCreditNoteDocument,
  issueCreditNoteLink,
} from './invoices/credit-note.js';
export {
  LOGO_FORMATS,
  type LogoFormat,
  type PaymentInstructions,
  type ReferenceRate,
  type SellerAddress,
  type SellerDetails,
  type SellerLogo,
} from './invoices/entities.js';
export {
  type InvoiceUnavailableReason,
  invoiceUnavailableReason,
  requireInvoice,
} from './invoices/invoice-availability.js';
export {
  buildInvoiceDocument,
  getInvoiceDocument,
  type InvoiceDocument,
  type InvoiceLine,
  type InvoiceParties,
  type InvoiceParty,
  type InvoicePaymentInstructions,
  type InvoiceSummaryRow,
} from './invoices/invoice-document.js';
export {
  INVOICE_LABELS,
  INVOICE_LANGUAGES,
  type InvoiceLabels,
  type InvoiceLanguage,
  labelsFor,
} from './invoices/invoice-labels.js';
export {
  INVOICE_DISPOSITIONS,
  INVOICE_LINK_LIFETIME_MS,
  type InvoiceDisposition,
  type InvoiceLinkClaims,
  invoiceLinkPayload,
  issueInvoiceLink,
  requireUnexpired,
} from './invoices/invoice-links.js';
export {
  type DecodedImage,
  type ImageDecoder,
  LOGO_LIMITS,
  SELLER_DETAILS_CLEARED,
  type SellerDetailsView,
  sellerLinkProblem,
  type UpdateSellerDetailsInput,
} from './invoices/seller-details.js';
export {
  adjustmentMetricDeltas,
  dayOf,
  METRIC_NAMES,
  type MetricDay,
  type MetricDelta,
  type MetricName,
  monthlyRecurringRevenue,
  subscriptionMetricDeltas,
  transactionMetricDeltas,
} from './metrics/metric-rollups.js';
export {
  conversionRate,
  getMetrics,
  MAX_METRIC_DAYS,
  METRIC_ENDPOINTS,
  type MetricEndpoint,
  type MetricsDatapoint,
  type MetricsQuery,
  type MetricsTimeseries,
} from './metrics/metrics.js';
export type { MetricRollupRepository } from './metrics/repositories.js';
export {
  BALANCE_CURRENCIES,
  CURRENCY_MINOR_UNITS,
  type CurrencyCode,
  type CurrencyInfo,
  isSupportedCurrency,
  listCurrencies,
  minorUnitsOf,
} from './money/currencies.js';
export { Decimal } from './money/decimal.js';
export {
  ALLOWANCE_AMOUNT_PATTERN,
  MINOR_UNIT_AMOUNT_PATTERN,
  QUANTITY_PATTERN,
  RATE_PATTERN,
} from './money/decimal-patterns.js';
export { ISO_4217 } from './money/iso-4217.js';
export { parseMinorUnits, toMajorUnitText } from './money/minor-units.js';
export { formatMinorUnits, resolveLocale } from './money/money-format.js';
export { divideRounded, type RoundingMode } from './money/rounding.js';
export {
  type ClaimInput,
  chooseClaims,
  claimDueNotifications,
  type DeliveryDependencies,
  type FinishedAttempt,
  fanOutEvents,
  receivesEvent,
  recordDeliveryAttempt,
  recordDeliveryAttempts,
} from './notifications/delivery.js';
export {
  type DeliveryOutcome,
  NOTIFICATION_ORIGINS,
  NOTIFICATION_SETTING_TYPES,
  NOTIFICATION_STATUSES,
  type Notification,
  type NotificationLog,
  type NotificationOrigin,
  type NotificationSetting,
  type NotificationSettingType,
  type NotificationStatus,
  TRAFFIC_SOURCES,
  type TrafficSource,
} from './notifications/entities.js';
export {
  type CreateNotificationSettingInput,
  createNotificationSetting,
  type DestinationPolicy,
  type DestinationVerdict,
  deleteNotificationSetting,
  ENDPOINT_SECRET_KEY_PATTERN,
  getNotificationSetting,
  listNotificationSettings,
  MAX_DESTINATION_LENGTH,
  type NotificationSettingContext,
  parseDestinationUrl,
  rotateNotificationSettingSecret,
  type SecretSource,
  type UpdateNotificationSettingInput,
  updateNotificationSetting,
} from './notifications/notification-settings.js';
export {
  getNotification,
  listNotificationLogs,
  listNotifications,
  replayNotification,
} from './notifications/notifications.js';
export type {
  DeliveryClaim,
  DueNotification,
  EventToFanOut,
  NotificationColumn,
  NotificationLogColumn,
  NotificationRepository,
  NotificationSettingColumn,
  NotificationSettingRepository,
  NotificationWithEvent,
} from './notifications/repositories.js';
export {
  type AttemptResult,
  type AttemptTimes,
  afterAttempt,
  DEFAULT_RETRY_SCHEDULES,
  isDelivered,
  LIVE_RETRY_SCHEDULE,
  type RetrySchedule,
  retryCeilingMs,
  retryDelayMs,
  SANDBOX_RETRY_SCHEDULE,
} from './notifications/retry-policy.js';
export {
  RECOVERY_GRACE_MS,
  type RecoveryReport,
  recoverPaymentAttempts,
} from './payments/authorised-changes.js';
export {
  applyOutcome,
  type BrowserCheckoutStart,
  type BrowserCheckoutSubmission,
  type CheckoutPorts,
  type CheckoutSeller,
  type CheckoutView,
  useMethodForSubscription,
} from './payments/checkout.js';
export {
  type CheckoutBusinessInput,
  type CheckoutTaxIdProblem,
  type CheckoutTaxIdResult,
  checkCheckoutBusiness,
  checkoutCompanyName,
  checkoutTaxIdentifier,
} from './payments/checkout-business.js';
export { type CheckoutSettingsView, checkoutReturnUrl } from './payments/checkout-settings.js';
export { type RecurringTerms, recurringTerms } from './payments/checkout-terms.js';
export type {
  NotificationOutcome,
  ProviderRefundRecord,
  ProviderRefundStatus,
  ProviderSettings,
  SandboxPayment,
  StripeProviderSettings,
} from './payments/entities.js';
export {
  type CheckoutDetails,
  type CheckoutSubmission,
  IN_FLIGHT,
  type PaymentAttempt,
  type PaymentAttemptColumn,
  type PaymentAttemptKind,
  type PaymentAttemptStatus,
} from './payments/payment-attempt.js';
export type { PaymentMethodListQuery } from './payments/payment-methods.js';
export {
  type AuthorisationOutcome,
  type AuthorisingProvider,
  type BrowserConfirmation,
  type BrowserPayment,
  type BrowserPaymentRequest,
  type CardSummary,
  type CheckoutPaymentRequest,
  type IncomingNotification,
  type MethodInput,
  type OffSessionChargeRequest,
  PAYMENT_ERROR_CODES,
  type PaymentErrorCode,
  type PaymentOutcome,
  type PaymentParty,
  type PaymentProvider,
  type PaymentProviders,
  type ProviderMethod,
  type ProviderNotification,
  type RefundingProvider,
  type RefundOutcome,
  type RefundRequest,
  type SetupRequest,
} from './payments/payment-provider.js';
export { type ConfiguredProviders, paymentProvidersOf } from './payments/payment-providers.js';
export { createAdjustmentThroughProvider, recoverProviderRefunds } from './payments/provider-refunds.js';
export {
  type ConfigureProviderInput,
  configurePaymentProvider,
  type InFlightAtProvider,
  maskSecret,
  PAYMENT_PROVIDER_NAMES,
  type PaymentProviderName,
  type ProviderRemoval,
  type ProviderSettingsDependencies,
  type ProviderSettingsView,
  parseProviderSettings,
  removePaymentProvider,
  showPaymentProvider,
  viewOf,
  webhookPathOf,
} from './payments/provider-settings.js';
export type {
  PaymentAttemptRepository,
  PaymentRepositories,
  ProviderCustomerRepository,
  ProviderNotificationLog,
  ProviderRefundColumn,
  ProviderRefundRepository,
  ProviderSettingsRepository,
  SandboxPaymentColumn,
} from './payments/repositories.js';
export {
  createSandboxProvider,
  SANDBOX_PROVIDER,
  SANDBOX_TEST_CARDS,
  type SandboxProvider,
  sandboxChallengePath,
  sandboxOffSessionOutcome,
} from './payments/sandbox-provider.js';
export {
  MAX_PORTAL_SESSION_SUBSCRIPTIONS,
  PORTAL_SESSION_LIFETIME_MS,
  type PortalSessionClaims,
  type PortalSessionGrant,
  parsePortalSessionPayload,
  portalSessionPayload,
} from './portal/portal-sessions.js';
export {
  type ClaimedReport,
  claimDueReports,
  csvCell,
  generateReport,
  type ReportGenerationDependencies,
  reportColumns,
} from './reports/generate-report.js';
export {
  REPORT_TYPES,
  type Report,
  type ReportColumn,
  type ReportFilter,
  type ReportStatus,
  type ReportType,
} from './reports/report.js';
export {
  createReport,
  getReport,
  issueReportLink,
  listReports,
  REPORT_DUE_NOW,
  REPORT_LINK_LIFETIME_MS,
  REPORT_RETENTION_MS,
  type ReportFilterInput,
  type ReportLinkClaims,
  reportLinkPayload,
  requireDownloadableReport,
  requireReportFilters,
} from './reports/reports.js';
export type { ReportRepository } from './reports/repositories.js';
export { BillingError, type FieldError, StandingFailure } from './shared/billing-error.js';
export { type Clock, toTimestamp } from './shared/clock.js';
export { type Collection, DuplicateKeyError } from './shared/collection.js';
export type { Context, StoreOf, Transactional } from './shared/context.js';
export { ERROR_CODES, type ErrorCode, isErrorCode } from './shared/error-codes.js';
export { ID_PREFIXES, type IdGenerator, type IdPrefix, isIdOf } from './shared/ids.js';
export {
  ESTIMATED_TOTAL_CAP,
  type FilterCondition,
  type ListFilter,
  type ListQuery,
  type Page,
  type SortDirection,
} from './shared/pagination.js';
export { ENVIRONMENTS, type Environment, type Scope } from './shared/scope.js';
export { findUnstorableText, holdsUnstorableText, UNSTORABLE_TEXT_REASON } from './shared/storable-text.js';
export { canonicalTimestamp, type ParsedTimestamp, parseTimestamp } from './shared/timestamps.js';
export { examplePayload } from './simulations/example-payloads.js';
export type {
  SimulationColumn,
  SimulationRunColumn,
  SimulationRunEventColumn,
  SimulationRunEventRepository,
  SimulationRunRepository,
  SimulationSpending,
  SimulationSpendingRepository,
  SpendingHour,
} from './simulations/repositories.js';
export {
  type EntityPresenter,
  SCENARIO_TYPES,
  type ScenarioConfig,
  type ScenarioType,
  type Simulation,
  type SimulationRun,
  type SimulationRunEvent,
  type SimulationRunEventStatus,
  type SimulationRunStatus,
  type SimulationTypeName,
  type WireData,
} from './simulations/simulation.js';
export {
  DEFAULT_SIMULATION_BUDGET,
  emptySimulationSpending,
  SIMULATION_SPENDING_ID,
  type SimulationBudget,
  SimulationBudgetExceeded,
  type SimulationCost,
  simulatedEventBytes,
  spendSimulationBudget,
  utf8Length,
} from './simulations/simulation-budget.js';
export {
  type ClaimedSimulationRun,
  claimDueSimulationRuns,
  finishSimulationRun,
  recordSimulatedDelivery,
  type SimulatedDeliveryOutcome,
  type SimulationDeliveryDependencies,
} from './simulations/simulation-delivery.js';
export {
  createSimulation,
  createSimulationRun,
  DUE_NOW,
  getSimulation,
  getSimulationRun,
  getSimulationRunEvent,
  listRunEvents,
  listSimulationRunEvents,
  listSimulationRuns,
  listSimulations,
  listSimulationTypes,
  replaySimulationRunEvent,
  type SimulationContext,
  type SimulationInput,
  type SimulationType,
  updateSimulation,
} from './simulations/simulations.js';
export type { OperationContext, Repositories, Store } from './store.js';
export { activateSubscription } from './subscriptions/activate-subscription.js';
export { addCycles, periodAt } from './subscriptions/billing-period.js';
export {
  applyOneTimeCharge,
  createOneTimeCharge,
  type OneTimeChargeInput,
  previewOneTimeCharge,
} from './subscriptions/one-time-charges.js';
export {
  type CancelInput,
  cancelSubscription,
  type PauseInput,
  pauseSubscription,
  type ResumeInput,
  resumeSubscription,
} from './subscriptions/pause-resume-cancel.js';
export { applyDueStep, DUE_STEPS_PER_SLICE, runDueSubscriptions } from './subscriptions/process-due.js';
export {
  billsWhen,
  type ChangeLine,
  changeLines,
  PRORATION_BILLING_MODES,
  type ProrationBillingMode,
  remainingShare,
} from './subscriptions/proration.js';
export { getSubscription, listSubscriptions } from './subscriptions/read-subscriptions.js';
export type {
  SandboxClockRepository,
  SubscriptionColumn,
  SubscriptionRepository,
} from './subscriptions/repositories.js';
export {
  advanceSandboxClock,
  MAX_SANDBOX_ADVANCE_MS,
  readSandboxClock,
  type SandboxClockDependencies,
  type SandboxClockReading,
} from './subscriptions/sandbox-clock.js';
export {
  DEFAULT_SANDBOX_JUMP_QUOTAS,
  plannedSubscriptionSteps,
  planSandboxJump,
  type SandboxJumpQuotas,
} from './subscriptions/sandbox-jump-quotas.js';
export { type StartSubscriptionInput, startSubscription } from './subscriptions/start-subscription.js';
export {
  assertStatusTransition,
  type BillingPeriod,
  CANCELLATION_REASONS,
  type CancellationReason,
  type CancellationReasonCode,
  type CollectionMode,
  hasAllowances,
  NEXT_STATUSES,
  nextDueAt,
  type OnResume,
  type PendingChangeLine,
  type ScheduledChange,
  SUBSCRIPTION_STATUSES,
  type Subscription,
  type SubscriptionItem,
  type SubscriptionStatus,
} from './subscriptions/subscription.js';
export {
  billRenewal,
  defaultRenewalPayment,
  type RenewalPayment,
  readSandboxPaymentOutcome,
  sandboxPaymentOutcome,
  setSandboxPaymentOutcome,
  subscriptionHooks,
} from './subscriptions/subscription-billing.js';
export type { RequestedItem } from './subscriptions/subscription-items.js';
export {
  applySubscriptionUpdate,
  getSubscriptionWithIncludes,
  ON_PAYMENT_FAILURE,
  type OnPaymentFailure,
  previewSubscriptionUpdate,
  SUBSCRIPTION_INCLUDES,
  type SubscriptionInclude,
  type SubscriptionUpdatePreview,
  type SubscriptionUpdateResult,
  type UpdateSubscriptionInput,
  updateSubscription,
} from './subscriptions/update-subscription.js';
export type { TaxIdCheck } from './tax/entities.js';
export {
  conventionalTaxMode,
  type LocationRateOverride,
  type LocationTax,
  locationTax,
  normalizedPostalCode,
  overrideFor,
  subdivisionOf,
  type TaxIdCheckOutcome,
  type TaxLocation,
  type TaxRateDataset,
} from './tax/location-tax.js';
export { REDUCED_RATES, type ReducedRateTable, reducedRateFor } from './tax/reduced-rates.js';
export {
  euVatIdOf,
  storedTaxIdCheck,
  type TaxIdRegisterAnswer,
  type TaxIdVerification,
  type TaxIdVerifier,
  verifyBusinessTaxId,
} from './tax/tax-id-checks.js';
export { type TaxName, taxNameOf } from './tax/tax-names.js';
export { TAX_RATE_DATASET } from './tax/tax-rate-dataset.js';
export { isWellFormedEuVatId } from './tax/vat-id.js';
export {
  ADJUSTMENT_ACTIONS,
  type Adjustment,
  type AdjustmentAction,
  type AdjustmentItem,
  type AdjustmentTaxRateUsed,
  type AdjustmentTotals,
  type AdjustmentType,
  adjustmentTaxRatesUsed,
} from './transactions/adjustment.js';
export {
  type AdjustmentItemInput,
  type CreateAdjustmentInput,
  createAdjustment,
  listAdjustments,
} from './transactions/adjustments.js';
export {
  type BuildEnvironment,
  type BuildTransactionInput,
  type BuildTransactionItem,
  buildTransaction,
  completenessStatus,
} from './transactions/build-transaction.js';
export {
  applyCreditEntry,
  drawCredit,
  EMPTY_CREDIT,
  foldCreditLedger,
  grantCredit,
  listCreditBalances,
  releaseCredit,
  settleCreditOnCompletion,
} from './transactions/credit-balances.js';
export {
  DEFAULT_BILLING_DETAILS,
  DEFAULT_PAYMENT_TERMS,
  invoiceDueAt,
  PAST_DUE_GRACE_MS,
  pastDueAfter,
} from './transactions/due-dates.js';
export {
  type CheckoutSettings,
  type CountryTaxRate,
  CREDIT_LEDGER_KINDS,
  type CreditAmounts,
  type CreditBalance,
  type CreditLedgerEntry,
  type CreditLedgerKind,
  type DefaultTaxMode,
  type DunningExhaustedAction,
  type RecoveryRun,
  type RecoveryRunStatus,
  type TaxRateSource,
  type TaxSettings,
  type TransactionRevision,
} from './transactions/entities.js';
export { formatInvoiceNumber } from './transactions/invoice-number.js';
export { markOverdueInvoices, OVERDUE_BATCH_SIZE } from './transactions/overdue-invoices.js';
export { RECOVERY_RETRY_DAYS, RECOVERY_WINDOW_DAYS } from './transactions/payment-recovery.js';
export {
  completeSettled,
  NO_HOOKS,
  type PaymentReport,
  recordPaymentInTransaction,
  recordTransactionPayment,
  type SimulatedOutcome,
  simulateTransactionPayment,
  type TransactionHooks,
} from './transactions/payments.js';
export type {
  AdjustmentColumn,
  AdjustmentRepository,
  BillingSettingsRepository,
  CreditBalanceRepository,
  RecoveryRunColumn,
  RecoveryRunRepository,
  TransactionColumn,
  TransactionListQuery,
  TransactionOrder,
  TransactionRepository,
} from './transactions/repositories.js';
export {
  PAYMENT_METHOD_ORIGINS,
  type PaymentMethod,
  type PaymentMethodColumn,
  type PaymentMethodOrigin,
  paymentMethodWire,
} from './transactions/saved-methods.js';
export {
  DEFAULT_TAX_SETTINGS,
  getTaxSettings,
  type LocationOverrideInput,
  MAX_LOCATION_OVERRIDES,
  TAX_RATE_DATASET_NAME,
  TAX_RATE_PATTERN,
  taxRateFor,
  type UpdateTaxSettingsInput,
  updateTaxSettings,
} from './transactions/tax-settings.js';
export {
  type AdjustedTotals,
  type AmountTotals,
  type BillingDetails,
  COLLECTION_MODES,
  type PaymentMethodDetails,
  type PaymentStatus,
  type PayoutTotals,
  type Proration,
  type TaxRateUsed,
  TRANSACTION_ORIGINS,
  TRANSACTION_STATUSES,
  type Transaction,
  type TransactionBillingPeriod,
  type TransactionCollectionMode,
  type TransactionDetails,
  type TransactionItem,
  type TransactionLineItem,
  type TransactionOrigin,
  type TransactionPayment,
  type TransactionStatus,
  type TransactionTotals,
} from './transactions/transaction.js';
export { insertTransaction, saveTransaction, withInvoiceNumber } from './transactions/transaction-changes.js';
export {
  type AdjustmentsTotals,
  adjustmentsTotals,
  TRANSACTION_INCLUDES,
  type TransactionInclude,
  type TransactionWithIncludes,
  withTransactionIncludes,
} from './transactions/transaction-includes.js';
export {
  formatTotals,
  type PreviewAddress,
  type PreviewTransactionInput,
  previewTransaction,
  type TransactionPreview,
} from './transactions/transaction-previews.js';
export { type ReviseTransactionInput, reviseTransaction } from './transactions/transaction-revision.js';
export { canTransition, NEXT_TRANSACTION_STATUSES, requireTransition } from './transactions/transaction-status.js';
export {
  type Amounts,
  composeDetails,
  decompose,
  NO_SETTLEMENT,
  type PeriodShare,
  type PricedLine,
  type PricedLines,
  priceLines,
  type Settlement,
  taxLine,
} from './transactions/transaction-totals.js';
export {
  type CreateTransactionInput,
  createTransaction,
  getTransaction,
  listTransactions,
  type TransactionItemInput,
  type UpdateTransactionInput,
  updateTransaction,
} from './transactions/transactions.js';
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
export type {
  BalanceChange,
  BalanceKey,
  IngestOutcome,
  PendingUsageEvent,
  UsageBalanceColumn,
  UsageBalanceRepository,
  UsageEventIngest,
  UsageEventRepository,
} from './usage/repositories.js';
export type { UsageBalance } from './usage/usage-balance.js';
export {
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
export { MAX_USAGE_PERIODS, type UsagePeriod, usagePeriodsOf } from './usage/usage-periods.js';
export { type Caller, createUseCases, type DueWork, type UseCasePorts, type UseCases } from './use-cases.js';
