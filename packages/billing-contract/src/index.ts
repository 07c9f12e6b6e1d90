/**
 * @module
 * The wire contract shared by the billing service and its clients: request body schemas, and the
 * response schemas of what the service answers (registered in `RESPONSE_SCHEMAS` by component name).
 */
export {
  CreateAddressBody,
  CreateBusinessBody,
  CreateCustomerBody,
  CreateMeterBody,
  CreatePriceBody,
  CreateProductBody,
  CreateUsageBalanceUnitBody,
  TAX_CATEGORY,
  UpdateAddressBody,
  UpdateBusinessBody,
  UpdateCustomerBody,
  UpdateMeterBody,
  UpdatePriceBody,
  UpdateProductBody,
  UpdateUsageBalanceUnitBody,
} from './requests/catalogue.js';
export {
  BrowserCheckoutBody,
  CheckoutCodeFormBody,
  CheckoutDetailsFormBody,
  CheckoutPayFormBody,
  SandboxChallengeFormBody,
  UpdateCheckoutSettingsBody,
} from './requests/checkout.js';
export { idOf } from './requests/common.js';
export {
  CreateDiscountBody,
  CreateDiscountGroupBody,
  DISCOUNT_TYPE,
  NonCatalogueDiscountBody,
  UpdateDiscountBody,
  UpdateDiscountGroupBody,
} from './requests/discounts.js';
export { UpdateEmailSettingsBody } from './requests/email-settings.js';
export {
  CreateNotificationSettingBody,
  NOTIFICATION_SETTING_TYPE,
  TRAFFIC_SOURCE,
  UpdateNotificationSettingBody,
} from './requests/notifications.js';
export { CreatePortalSessionBody, VerifyPortalSessionBody } from './requests/portal-sessions.js';
export { CreateReportBody } from './requests/reports.js';
export { SellerAddressBody, UpdateSellerDetailsBody } from './requests/seller-details.js';
export { CreateSimulationBody, UpdateSimulationBody } from './requests/simulations.js';
export { CreateClientTokenBody, GenerateCustomerAuthTokenBody, UpdateClientTokenBody } from './requests/tokens.js';
export {
  CreateAdjustmentBody,
  CreateTransactionBody,
  PreviewTransactionBody,
  PricingPreviewBody,
  RecordPaymentBody,
  ReviseTransactionBody,
  SimulatePaymentBody,
  UNSUPPORTED_PREVIEW_FIELDS,
  UpdateTaxSettingsBody,
  UpdateTransactionBody,
} from './requests/transactions.js';
export {
  AdvanceSandboxClockBody,
  CancelSubscriptionBody,
  PauseSubscriptionBody,
  RecordUsageEventsBody,
  ResumeSubscriptionBody,
  SandboxPaymentOutcomeBody,
  SubscriptionChargeBody,
  UpdateSubscriptionBody,
} from './requests/usage.js';
export {
  componentKind,
  eventDataKind,
  missingEventDataFields,
  missingEventFields,
  missingRequiredFields,
} from './required-fields/check.js';
export { COMPONENT_KINDS, EVENT_DATA_KINDS, REQUIRED_FIELDS, type RequiredFields } from './required-fields/fields.js';
export {
  ClientToken as ClientTokenResponse,
  CustomerAuthToken as CustomerAuthTokenResponse,
} from './responses/access.js';
export {
  Address as AddressResponse,
  Business as BusinessResponse,
  CreditBalance as CreditBalanceResponse,
  Customer as CustomerResponse,
  Meter as MeterResponse,
  Price as PriceResponse,
  Product as ProductResponse,
  UsageBalance as UsageBalanceResponse,
  UsageBalanceUnit as UsageBalanceUnitResponse,
} from './responses/catalogue.js';
export { Link as LinkResponse, RESPONSE_SCHEMAS } from './responses/common.js';
export { Discount as DiscountResponse, DiscountGroup as DiscountGroupResponse } from './responses/discounts.js';
export { Email as EmailResponse, EmailSettings as EmailSettingsResponse } from './responses/emails.js';
export {
  EVENT_DATA,
  Event as EventResponse,
  EventType as EventTypeResponse,
  Notification as NotificationResponse,
  NotificationLog as NotificationLogResponse,
  NotificationPayload as NotificationPayloadResponse,
  NotificationReplay as NotificationReplayResponse,
  NotificationSetting as NotificationSettingResponse,
  Simulation as SimulationResponse,
  SimulationRun as SimulationRunResponse,
  SimulationRunEvent as SimulationRunEventResponse,
  SimulationType as SimulationTypeResponse,
} from './responses/notifications.js';
export {
  AmountMetric as AmountMetricResponse,
  ConversionMetric as ConversionMetricResponse,
  CountMetric as CountMetricResponse,
  Currency as CurrencyResponse,
  IpAddresses as IpAddressesResponse,
  Report as ReportResponse,
  RevenueMetric as RevenueMetricResponse,
  SandboxClock as SandboxClockResponse,
  SandboxPaymentOutcome as SandboxPaymentOutcomeResponse,
  UsageEventsAnswer as UsageEventsAnswerResponse,
} from './responses/operations.js';
export {
  BrowserCheckoutStart as BrowserCheckoutStartResponse,
  CheckoutSettings as CheckoutSettingsResponse,
  PaymentMethod as PaymentMethodResponse,
  PortalSession as PortalSessionResponse,
  PortalSessionGrant as PortalSessionGrantResponse,
  PortalSessionVerificationKey as PortalSessionVerificationKeyResponse,
  ProviderNotificationAnswer as ProviderNotificationAnswerResponse,
  UsagePeriod as UsagePeriodResponse,
} from './responses/payments.js';
export {
  SellerDetails as SellerDetailsResponse,
  SellerLogo as SellerLogoResponse,
} from './responses/seller-details.js';
export {
  Subscription as SubscriptionResponse,
  SubscriptionCancellationReason as SubscriptionCancellationReasonResponse,
  SubscriptionPreview as SubscriptionPreviewResponse,
} from './responses/subscriptions.js';
export {
  Adjustment as AdjustmentResponse,
  PricingPreview as PricingPreviewResponse,
  TaxSettings as TaxSettingsResponse,
  Transaction as TransactionResponse,
  TransactionPreview as TransactionPreviewResponse,
} from './responses/transactions.js';
