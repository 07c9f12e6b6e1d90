/**
 * @module
 * The wire contract shared by the billing service and its clients: request body schemas.
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
export { CheckoutFormBody, UpdateCheckoutSettingsBody } from './requests/checkout.js';
export { idOf } from './requests/common.js';
export {
  CreateDiscountBody,
  CreateDiscountGroupBody,
  DISCOUNT_TYPE,
  NonCatalogueDiscountBody,
  UpdateDiscountBody,
  UpdateDiscountGroupBody,
} from './requests/discounts.js';
export {
  CreateNotificationSettingBody,
  NOTIFICATION_SETTING_TYPE,
  TRAFFIC_SOURCE,
  UpdateNotificationSettingBody,
} from './requests/notifications.js';
export { CreatePortalSessionBody, VerifyPortalSessionBody } from './requests/portal-sessions.js';
export { CreateReportBody } from './requests/reports.js';
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
  UNSUPPORTED_SUBSCRIPTION_UPDATE_FIELDS,
  UpdateSubscriptionBody,
} from './requests/usage.js';
