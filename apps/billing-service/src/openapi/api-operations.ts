/**
 * @module
 * Every operation of the public API, as the OpenAPI document lists it: method, path, the
 * permission it needs, the request schema the route validates with (the same zod schema from
 * `@drawdown/billing-contract`), and the shape of its success. A test holds this list equal to
 * the routes the application registers. `response` is the schema of the entity a success answers
 * with (one, a page of them, or an unpaginated array of them, by `shape`).
 */
import {
  AddressResponse,
  AdjustmentResponse,
  AdvanceSandboxClockBody,
  AmountMetricResponse,
  BrowserCheckoutBody,
  BrowserCheckoutStartResponse,
  BusinessResponse,
  CancelSubscriptionBody,
  CheckoutCodeFormBody,
  CheckoutDetailsFormBody,
  CheckoutPayFormBody,
  CheckoutSettingsResponse,
  ClientTokenResponse,
  ConversionMetricResponse,
  CountMetricResponse,
  CreateAddressBody,
  CreateAdjustmentBody,
  CreateBusinessBody,
  CreateClientTokenBody,
  CreateCustomerBody,
  CreateDiscountBody,
  CreateDiscountGroupBody,
  CreateMeterBody,
  CreateNotificationSettingBody,
  CreatePortalSessionBody,
  CreatePriceBody,
  CreateProductBody,
  CreateReportBody,
  CreateSimulationBody,
  CreateTransactionBody,
  CreateUsageBalanceUnitBody,
  CreditBalanceResponse,
  CurrencyResponse,
  CustomerAuthTokenResponse,
  CustomerResponse,
  DiscountGroupResponse,
  DiscountResponse,
  EmailResponse,
  EmailSettingsResponse,
  EventResponse,
  EventTypeResponse,
  GenerateCustomerAuthTokenBody,
  IpAddressesResponse,
  LinkResponse,
  MeterResponse,
  NotificationLogResponse,
  NotificationReplayResponse,
  NotificationResponse,
  NotificationSettingResponse,
  PauseSubscriptionBody,
  PaymentMethodResponse,
  PortalSessionGrantResponse,
  PortalSessionResponse,
  PortalSessionVerificationKeyResponse,
  PreviewTransactionBody,
  PriceResponse,
  PricingPreviewBody,
  PricingPreviewResponse,
  ProductResponse,
  ProviderNotificationAnswerResponse,
  RecordPaymentBody,
  RecordUsageEventsBody,
  ReportResponse,
  ResumeSubscriptionBody,
  RevenueMetricResponse,
  ReviseTransactionBody,
  SandboxChallengeFormBody,
  SandboxClockResponse,
  SandboxPaymentOutcomeBody,
  SandboxPaymentOutcomeResponse,
  SellerDetailsResponse,
  SellerLogoResponse,
  SimulatePaymentBody,
  SimulationResponse,
  SimulationRunEventResponse,
  SimulationRunResponse,
  SimulationTypeResponse,
  SubscriptionCancellationReasonResponse,
  SubscriptionChargeBody,
  SubscriptionPreviewResponse,
  SubscriptionResponse,
  TaxSettingsResponse,
  TransactionPreviewResponse,
  TransactionResponse,
  UpdateAddressBody,
  UpdateBusinessBody,
  UpdateCheckoutSettingsBody,
  UpdateClientTokenBody,
  UpdateCustomerBody,
  UpdateDiscountBody,
  UpdateDiscountGroupBody,
  UpdateEmailSettingsBody,
  UpdateMeterBody,
  UpdateNotificationSettingBody,
  UpdatePriceBody,
  UpdateProductBody,
  UpdateSellerDetailsBody,
  UpdateSimulationBody,
  UpdateSubscriptionBody,
  UpdateTaxSettingsBody,
  UpdateTransactionBody,
  UpdateUsageBalanceUnitBody,
  UsageBalanceResponse,
  UsageBalanceUnitResponse,
  UsageEventsAnswerResponse,
  UsagePeriodResponse,
  VerifyPortalSessionBody,
} from '@drawdown/billing-contract';
import { METRIC_ENDPOINTS } from '@drawdown/billing-core';
import type { ZodType } from 'zod';

/**
 * What a success answers: one entity, a page of them (`meta.pagination`), all of them in one
 * array (no pagination), nothing, a PDF or a CSV file, an HTML page (the hosted checkout) or a
 * redirect to one (its forms post, then redirect).
 */
export type SuccessShape = 'entity' | 'list' | 'array' | 'empty' | 'pdf' | 'csv' | 'html' | 'redirect' | 'css' | 'js';

export interface ApiOperation {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path as the application registers it (`/products/:id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** The permission the key needs; null for the public routes (no key). */
  readonly permission: string | null;
  readonly body?: { readonly name: string; readonly schema: ZodType };
  readonly status: 200 | 201 | 202 | 204 | 303;
  readonly shape: SuccessShape;
  /** The entity schema of a JSON success (`entity`, `list` and `array` shapes). */
  readonly response?: ZodType;
  /** The body is posted form-encoded, as a page does (every `redirect` operation's is too). */
  readonly formBody?: true;
  /** Where a `redirect` sends the browser: the `Location` header's pattern, and what it is. */
  readonly location?: { readonly pattern: string; readonly description: string };
  /** Only on the sandbox application. */
  readonly sandboxOnly?: true;
  /** Only on the live application. */
  readonly liveOnly?: true;
}

type Method = ApiOperation['method'];

function operation(
  method: Method,
  path: string,
  tag: string,
  summary: string,
  permission: string | null,
  options: Partial<
    Pick<ApiOperation, 'body' | 'status' | 'shape' | 'sandboxOnly' | 'liveOnly' | 'response' | 'location' | 'formBody'>
  > = {},
): ApiOperation {
  const shape = options.shape ?? (method === 'get' && !path.endsWith(':id') ? 'list' : 'entity');
  return {
    method,
    path,
    tag,
    summary,
    permission,
    status: options.status ?? (shape === 'empty' ? 204 : shape === 'redirect' ? 303 : 200),
    shape,
    ...options,
  };
}

const body = (name: string, schema: ZodType) => ({ body: { name, schema } });

/** The checkout page of the transaction the form was about (relative to the environment's address). */
const TO_CHECKOUT_PAGE = {
  pattern: '^/checkout\\?_ptxn=txn_[a-z\\d]{26}$',
  description: 'the checkout page of the same transaction (`/checkout?_ptxn=txn_…`)',
};

/** The catalogue's four resources share one shape: list, create, get, update. */
function crud(
  path: string,
  tag: string,
  noun: string,
  permission: string,
  create: ZodType,
  update: ZodType,
  names: readonly [string, string],
  response: ZodType,
): ApiOperation[] {
  return [
    operation('get', path, tag, `List ${noun}s`, `${permission}.read`, { response }),
    operation('post', path, tag, `Create a ${noun}`, `${permission}.write`, {
      ...body(names[0], create),
      status: 201,
      response,
    }),
    operation('get', `${path}/:id`, tag, `Get a ${noun}`, `${permission}.read`, { response }),
    operation('patch', `${path}/:id`, tag, `Update a ${noun}`, `${permission}.write`, {
      ...body(names[1], update),
      response,
    }),
  ];
}

const OPERATIONS: readonly ApiOperation[] = [
  operation('get', '/currencies', 'Currencies', 'List the supported currencies', null, { shape: 'array' }),
  operation('get', '/ips', 'IP addresses', 'List the IPv4 CIDRs webhooks come from (as configured)', null, {
    shape: 'entity',
  }),
  operation('get', '/invoices/:transactionId/pdf', 'Transactions', 'Download an invoice PDF (signed link)', null, {
    shape: 'pdf',
  }),
  // The payment provider's webhooks (ADR 1422): the provider's signature is the credential.
  operation(
    'post',
    '/payment-providers/:provider/webhooks/:accountId',
    'Payment providers',
    "Receive a payment provider's webhook (Stripe: signed with the account's webhook secret)",
    null,
    { shape: 'entity', liveOnly: true },
  ),
  ...crud(
    '/products',
    'Products',
    'product',
    'product',
    CreateProductBody,
    UpdateProductBody,
    ['CreateProductBody', 'UpdateProductBody'],
    ProductResponse,
  ),
  ...crud(
    '/prices',
    'Prices',
    'price',
    'price',
    CreatePriceBody,
    UpdatePriceBody,
    ['CreatePriceBody', 'UpdatePriceBody'],
    PriceResponse,
  ),
  ...crud(
    '/customers',
    'Customers',
    'customer',
    'customer',
    CreateCustomerBody,
    UpdateCustomerBody,
    ['CreateCustomerBody', 'UpdateCustomerBody'],
    CustomerResponse,
  ),
  operation('get', '/customers/:customer/addresses', 'Addresses', 'List a customer’s addresses', 'address.read'),
  operation('post', '/customers/:customer/addresses', 'Addresses', 'Create an address', 'address.write', {
    ...body('CreateAddressBody', CreateAddressBody),
    status: 201,
  }),
  operation('get', '/customers/:customer/addresses/:id', 'Addresses', 'Get an address', 'address.read'),
  operation('patch', '/customers/:customer/addresses/:id', 'Addresses', 'Update an address', 'address.write', {
    ...body('UpdateAddressBody', UpdateAddressBody),
  }),
  operation(
    'get',
    '/customers/:customer/credit-balances',
    'Credit balances',
    'List a customer’s credit balances',
    'customer.read',
    { shape: 'array' },
  ),
  operation(
    'get',
    '/customers/:customer/usage-balances',
    'Usage balances',
    'List a customer’s usage balances',
    'usage_balance.read',
    { shape: 'list' },
  ),
  operation(
    'get',
    '/customers/:customer/usage-balances/:id',
    'Usage balances',
    'Get a usage balance',
    'usage_balance.read',
  ),
  operation(
    'get',
    '/customers/:customer/usage-balances/:id/periods',
    'Usage balances',
    'A usage balance’s usage per billing period, newest first (Drawdown)',
    'usage_balance.read',
    { shape: 'array' },
  ),
  ...crud(
    '/usage-balance-units',
    'Usage balance units',
    'usage balance unit',
    'usage_balance_unit',
    CreateUsageBalanceUnitBody,
    UpdateUsageBalanceUnitBody,
    ['CreateUsageBalanceUnitBody', 'UpdateUsageBalanceUnitBody'],
    UsageBalanceUnitResponse,
  ),
  ...crud(
    '/meters',
    'Meters',
    'meter',
    'meter',
    CreateMeterBody,
    UpdateMeterBody,
    ['CreateMeterBody', 'UpdateMeterBody'],
    MeterResponse,
  ),
  operation('post', '/usage-events', 'Usage events', 'Record usage events (durable on 202)', 'usage_event.write', {
    ...body('RecordUsageEventsBody', RecordUsageEventsBody),
    status: 202,
  }),
  operation('get', '/events', 'Events', 'List events', 'event.read'),
  operation('get', '/event-types', 'Events', 'List event types', 'notification_setting.read', { shape: 'array' }),
  operation(
    'get',
    '/notification-settings',
    'Notification settings',
    'List notification settings',
    'notification_setting.read',
  ),
  operation(
    'post',
    '/notification-settings',
    'Notification settings',
    'Create a notification setting',
    'notification_setting.write',
    { ...body('CreateNotificationSettingBody', CreateNotificationSettingBody), status: 201 },
  ),
  operation(
    'get',
    '/notification-settings/:id',
    'Notification settings',
    'Get a notification setting',
    'notification_setting.read',
  ),
  operation(
    'patch',
    '/notification-settings/:id',
    'Notification settings',
    'Update a notification setting',
    'notification_setting.write',
    body('UpdateNotificationSettingBody', UpdateNotificationSettingBody),
  ),
  operation(
    'delete',
    '/notification-settings/:id',
    'Notification settings',
    'Delete a notification setting',
    'notification_setting.write',
    { shape: 'empty' },
  ),
  operation(
    'post',
    '/notification-settings/:id/rotate-secret',
    'Notification settings',
    'Rotate a notification setting’s secret',
    'notification_setting.write',
  ),
  operation('get', '/notifications', 'Notifications', 'List notifications', 'notification.read'),
  operation('get', '/notifications/:id', 'Notifications', 'Get a notification', 'notification.read'),
  operation(
    'get',
    '/notifications/:id/logs',
    'Notifications',
    'List a notification’s delivery attempts',
    'notification.read',
    {
      shape: 'list',
    },
  ),
  operation('post', '/notifications/:id/replay', 'Notifications', 'Replay a notification', 'notification.write', {
    status: 202,
  }),
  operation('get', '/subscriptions', 'Subscriptions', 'List subscriptions', 'subscription.read'),
  operation('get', '/subscriptions/:id', 'Subscriptions', 'Get a subscription', 'subscription.read'),
  operation('patch', '/subscriptions/:id', 'Subscriptions', 'Update a subscription', 'subscription.write', {
    ...body('UpdateSubscriptionBody', UpdateSubscriptionBody),
  }),
  operation('patch', '/subscriptions/:id/preview', 'Subscriptions', 'Preview an update', 'subscription.read', {
    ...body('UpdateSubscriptionBody', UpdateSubscriptionBody),
    shape: 'entity',
  }),
  operation('post', '/subscriptions/:id/activate', 'Subscriptions', 'End a trial now', 'subscription.write'),
  operation('post', '/subscriptions/:id/charge', 'Subscriptions', 'Create a one-time charge', 'subscription.write', {
    ...body('SubscriptionChargeBody', SubscriptionChargeBody),
  }),
  operation(
    'post',
    '/subscriptions/:id/charge/preview',
    'Subscriptions',
    'Preview a one-time charge',
    'subscription.read',
    { ...body('SubscriptionChargeBody', SubscriptionChargeBody), shape: 'entity' },
  ),
  operation('post', '/subscriptions/:id/pause', 'Subscriptions', 'Pause a subscription', 'subscription.write', {
    ...body('PauseSubscriptionBody', PauseSubscriptionBody),
  }),
  operation('post', '/subscriptions/:id/resume', 'Subscriptions', 'Resume a subscription', 'subscription.write', {
    ...body('ResumeSubscriptionBody', ResumeSubscriptionBody),
  }),
  operation('post', '/subscriptions/:id/cancel', 'Subscriptions', 'Cancel a subscription', 'subscription.write', {
    ...body('CancelSubscriptionBody', CancelSubscriptionBody),
  }),
  operation(
    'get',
    '/subscriptions/:id/cancellation-reason',
    'Subscriptions',
    'Get the reason the customer gave for cancelling (Drawdown extension)',
    'subscription.read',
    { shape: 'entity' },
  ),
  operation('get', '/transactions', 'Transactions', 'List transactions', 'transaction.read'),
  operation('post', '/transactions', 'Transactions', 'Create a transaction', 'transaction.write', {
    ...body('CreateTransactionBody', CreateTransactionBody),
    status: 201,
  }),
  operation('post', '/transactions/preview', 'Transactions', 'Preview a transaction', 'transaction.read', {
    ...body('PreviewTransactionBody', PreviewTransactionBody),
  }),
  operation('post', '/pricing-preview', 'Pricing preview', 'Preview prices', 'price.read', {
    ...body('PricingPreviewBody', PricingPreviewBody),
  }),
  operation('get', '/transactions/:id', 'Transactions', 'Get a transaction', 'transaction.read'),
  operation('patch', '/transactions/:id', 'Transactions', 'Update a transaction', 'transaction.write', {
    ...body('UpdateTransactionBody', UpdateTransactionBody),
  }),
  operation('post', '/transactions/:id/simulate-payment', 'Transactions', 'Simulate a payment', 'transaction.write', {
    ...body('SimulatePaymentBody', SimulatePaymentBody),
  }),
  operation('post', '/transactions/:id/payments', 'Transactions', 'Record a payment', 'transaction.write', {
    ...body('RecordPaymentBody', RecordPaymentBody),
    status: 201,
  }),
  operation('get', '/transactions/:id/invoice', 'Transactions', 'Get a signed invoice PDF link', 'transaction.read', {
    shape: 'entity',
  }),
  operation('get', '/adjustments', 'Adjustments', 'List adjustments', 'adjustment.read'),
  operation('post', '/adjustments', 'Adjustments', 'Create an adjustment', 'adjustment.write', {
    ...body('CreateAdjustmentBody', CreateAdjustmentBody),
    status: 201,
  }),
  operation(
    'get',
    '/checkout',
    'Checkout',
    'The hosted checkout page of a transaction (`?_ptxn=txn_…`; `&locale=de` picks en, de, fr, es or ja)',
    null,
    {
      shape: 'html',
    },
  ),
  operation('get', '/checkout/assets/checkout.css', 'Checkout', 'The checkout page’s stylesheet', null, {
    shape: 'css',
  }),
  operation(
    'get',
    '/checkout/assets/stripe-checkout.js',
    'Checkout',
    'The checkout page’s script that drives Stripe.js’s Payment Element',
    null,
    { shape: 'js' },
  ),
  operation(
    'post',
    '/checkout/intent',
    'Checkout',
    'Checkout page script: the PaymentIntent (or SetupIntent) Stripe.js confirms in the browser',
    null,
    { ...body('BrowserCheckoutBody', BrowserCheckoutBody), shape: 'entity', formBody: true },
  ),
  operation(
    'post',
    '/checkout/code',
    'Checkout',
    'Checkout form: a promo code (a discount enabled for checkout)',
    null,
    {
      ...body('CheckoutCodeFormBody', CheckoutCodeFormBody),
      shape: 'redirect',
      location: TO_CHECKOUT_PAGE,
    },
  ),
  operation('post', '/checkout/details', 'Checkout', 'Checkout form: the customer’s email and address', null, {
    ...body('CheckoutDetailsFormBody', CheckoutDetailsFormBody),
    shape: 'redirect',
    location: TO_CHECKOUT_PAGE,
  }),
  operation('post', '/checkout/pay', 'Checkout', 'Checkout form: pay through the environment’s provider', null, {
    ...body('CheckoutPayFormBody', CheckoutPayFormBody),
    shape: 'redirect',
    location: {
      pattern:
        '^(/checkout\\?_ptxn=txn_[a-z\\d]{26}|/checkout/sandbox-authentication/sbxpay_[a-z\\d]{26}|https?://\\S+)$',
      description:
        'the checkout page of the same transaction, or the authentication step the payment needs: the sandbox’s 3-D Secure challenge (`/checkout/sandbox-authentication/sbxpay_…`) or the live provider’s page (an absolute URL)',
    },
  }),
  operation('get', '/checkout/return', 'Checkout', 'Where a provider’s authentication step returns', null, {
    shape: 'redirect',
    location: TO_CHECKOUT_PAGE,
  }),
  operation(
    'get',
    '/checkout/sandbox-authentication/:ref',
    'Checkout',
    'The sandbox’s 3-D Secure challenge page',
    null,
    {
      shape: 'html',
      sandboxOnly: true,
    },
  ),
  operation(
    'post',
    '/checkout/sandbox-authentication/:ref',
    'Checkout',
    'Pass or fail the sandbox’s 3-D Secure challenge (form field `outcome`)',
    null,
    {
      ...body('SandboxChallengeFormBody', SandboxChallengeFormBody),
      shape: 'redirect',
      sandboxOnly: true,
      location: TO_CHECKOUT_PAGE,
    },
  ),
  operation(
    'get',
    '/checkout-settings',
    'Checkout',
    'Get the checkout settings (default payment link, dunning exhausted action)',
    'transaction.read',
    {
      shape: 'entity',
    },
  ),
  operation(
    'patch',
    '/checkout-settings',
    'Checkout',
    'Set the default payment link or the dunning exhausted action',
    'transaction.write',
    {
      ...body('UpdateCheckoutSettingsBody', UpdateCheckoutSettingsBody),
    },
  ),
  operation(
    'get',
    '/customers/:customer/payment-methods',
    'Payment methods',
    'List a customer’s saved payment methods',
    'payment_method.read',
  ),
  operation(
    'get',
    '/customers/:customer/payment-methods/:id',
    'Payment methods',
    'Get a saved payment method',
    'payment_method.read',
  ),
  operation(
    'delete',
    '/customers/:customer/payment-methods/:id',
    'Payment methods',
    'Delete a saved payment method',
    'payment_method.write',
    {
      shape: 'empty',
    },
  ),
  operation(
    'get',
    '/subscriptions/:id/update-payment-method-transaction',
    'Subscriptions',
    'Get a transaction to update the payment method',
    'transaction.write',
    { shape: 'entity' },
  ),
  operation('get', '/tax-settings', 'Tax settings', 'Get the tax settings', 'transaction.read', { shape: 'entity' }),
  operation('patch', '/tax-settings', 'Tax settings', 'Update the tax settings', 'transaction.write', {
    ...body('UpdateTaxSettingsBody', UpdateTaxSettingsBody),
  }),
  // Drawdown's own resource (ADR 1106): the public API has no seller details.
  operation(
    'get',
    '/seller-details',
    'Seller details',
    'Get the seller invoices and credit notes name',
    'transaction.read',
    {
      shape: 'entity',
    },
  ),
  operation(
    'get',
    '/seller-details/logo',
    'Seller details',
    'Get the seller’s logo file, base64 (Drawdown: for the billing portal’s header)',
    'transaction.read',
    { shape: 'entity' },
  ),
  operation(
    'patch',
    '/seller-details',
    'Seller details',
    'Set the seller invoices and credit notes name (legal name, address, tax id, company number, email, PNG or JPEG logo)',
    'transaction.write',
    { ...body('UpdateSellerDetailsBody', UpdateSellerDetailsBody) },
  ),
  // Drawdown's own resources (ADRs 1500-1502): customer email; in the sandbox every email is captured.
  operation(
    'get',
    '/email-settings',
    'Customer email',
    'Get the customer email settings',
    'notification_setting.read',
    {
      shape: 'entity',
    },
  ),
  operation(
    'patch',
    '/email-settings',
    'Customer email',
    'Set the sender name and address, reply-to and which customer emails are sent',
    'notification_setting.write',
    { ...body('UpdateEmailSettingsBody', UpdateEmailSettingsBody) },
  ),
  operation('get', '/emails', 'Customer email', 'List customer emails (captured in the sandbox)', 'notification.read'),
  operation('get', '/emails/:id', 'Customer email', 'Get a customer email and what it said', 'notification.read'),
  operation('get', '/sandbox-clock', 'Sandbox clock', 'Read the sandbox clock', 'sandbox_clock.read', {
    shape: 'entity',
    sandboxOnly: true,
  }),
  operation(
    'get',
    '/sandbox-payment-outcome',
    'Sandbox clock',
    'Read the outcome of the simulated card',
    'sandbox_clock.read',
    { shape: 'entity', sandboxOnly: true },
  ),
  operation(
    'put',
    '/sandbox-payment-outcome',
    'Sandbox clock',
    'Set the outcome of the simulated card',
    'sandbox_clock.write',
    { ...body('SandboxPaymentOutcomeBody', SandboxPaymentOutcomeBody), sandboxOnly: true },
  ),
  operation(
    'post',
    '/sandbox-clock/advance',
    'Sandbox clock',
    'Move the sandbox clock forward',
    'sandbox_clock.write',
    {
      ...body('AdvanceSandboxClockBody', AdvanceSandboxClockBody),
      sandboxOnly: true,
    },
  ),
  operation('get', '/simulation-types', 'Simulations', 'List simulation types', 'notification_simulation.read', {
    shape: 'array',
  }),
  operation('get', '/simulations', 'Simulations', 'List simulations', 'notification_simulation.read'),
  operation('post', '/simulations', 'Simulations', 'Create a simulation', 'notification_simulation.write', {
    ...body('CreateSimulationBody', CreateSimulationBody),
    status: 201,
  }),
  operation('get', '/simulations/:id', 'Simulations', 'Get a simulation', 'notification_simulation.read'),
  operation('patch', '/simulations/:id', 'Simulations', 'Update a simulation', 'notification_simulation.write', {
    ...body('UpdateSimulationBody', UpdateSimulationBody),
  }),
  operation('post', '/simulations/:id/runs', 'Simulations', 'Run a simulation', 'notification_simulation.write', {
    status: 201,
  }),
  operation('get', '/simulations/:id/runs', 'Simulations', 'List a simulation’s runs', 'notification_simulation.read'),
  operation(
    'get',
    '/simulations/:id/runs/:run_id',
    'Simulations',
    'Get a simulation run',
    'notification_simulation.read',
    {
      shape: 'entity',
    },
  ),
  operation(
    'get',
    '/simulations/:id/runs/:run_id/events',
    'Simulations',
    'List a run’s events',
    'notification_simulation.read',
  ),
  operation(
    'get',
    '/simulations/:id/runs/:run_id/events/:event_id',
    'Simulations',
    'Get a run’s event',
    'notification_simulation.read',
    { shape: 'entity' },
  ),
  operation(
    'post',
    '/simulations/:id/runs/:run_id/events/:event_id/replay',
    'Simulations',
    'Replay a run’s event',
    'notification_simulation.write',
  ),
  ...METRIC_ENDPOINTS.map((endpoint) =>
    operation(
      'get',
      `/metrics/${endpoint}`,
      'Metrics',
      `Get the ${endpoint.replaceAll('-', ' ')} metric`,
      'metrics.read',
      {
        shape: 'entity',
      },
    ),
  ),
  operation('get', '/reports', 'Reports', 'List reports', 'report.read'),
  operation('post', '/reports', 'Reports', 'Create a report', 'report.write', {
    ...body('CreateReportBody', CreateReportBody),
    status: 201,
  }),
  operation('get', '/reports/:id', 'Reports', 'Get a report', 'report.read'),
  operation('get', '/reports/:id/download-url', 'Reports', 'Get a report’s download URL', 'report.read', {
    shape: 'entity',
  }),
  operation('get', '/reports/:id/csv', 'Reports', 'Download a report CSV (signed link)', null, { shape: 'csv' }),
  ...crud(
    '/discounts',
    'Discounts',
    'discount',
    'discount',
    CreateDiscountBody,
    UpdateDiscountBody,
    ['CreateDiscountBody', 'UpdateDiscountBody'],
    DiscountResponse,
  ),
  ...crud(
    '/discount-groups',
    'Discounts',
    'discount group',
    'discount',
    CreateDiscountGroupBody,
    UpdateDiscountGroupBody,
    ['CreateDiscountGroupBody', 'UpdateDiscountGroupBody'],
    DiscountGroupResponse,
  ),
  ...crud(
    '/client-tokens',
    'Client tokens',
    'client-side token',
    'client_token',
    CreateClientTokenBody,
    UpdateClientTokenBody,
    ['CreateClientTokenBody', 'UpdateClientTokenBody'],
    ClientTokenResponse,
  ),
  operation(
    'post',
    '/customers/:customer/auth-token',
    'Customers',
    'Generate a customer authentication token',
    'customer_auth_token.write',
    body('GenerateCustomerAuthTokenBody', GenerateCustomerAuthTokenBody),
  ),
  operation('get', '/customers/:customer/businesses', 'Businesses', 'List a customer’s businesses', 'business.read'),
  operation('post', '/customers/:customer/businesses', 'Businesses', 'Create a business', 'business.write', {
    ...body('CreateBusinessBody', CreateBusinessBody),
    status: 201,
  }),
  operation('get', '/customers/:customer/businesses/:id', 'Businesses', 'Get a business', 'business.read'),
  operation('patch', '/customers/:customer/businesses/:id', 'Businesses', 'Update a business', 'business.write', {
    ...body('UpdateBusinessBody', UpdateBusinessBody),
  }),
  operation(
    'post',
    '/transactions/:id/revise',
    'Transactions',
    'Revise a billed or completed transaction',
    'transaction.write',
    {
      ...body('ReviseTransactionBody', ReviseTransactionBody),
    },
  ),
  operation(
    'post',
    '/customers/:customer/portal-sessions',
    'Customer portal sessions',
    'Create a customer portal session',
    'customer_portal_session.write',
    { ...body('CreatePortalSessionBody', CreatePortalSessionBody), status: 201 },
  ),
  operation(
    'get',
    '/customer-portal-sessions/verification-key',
    'Customer portal sessions',
    'Get the public key portal session tokens are signed with (Drawdown: for the billing portal)',
    'customer_portal_session.read',
    { shape: 'entity' },
  ),
  operation(
    'post',
    '/customer-portal-sessions/verify',
    'Customer portal sessions',
    'Verify a customer portal session token (Drawdown: for the billing portal)',
    'customer_portal_session.read',
    { ...body('VerifyPortalSessionBody', VerifyPortalSessionBody) },
  ),
  operation('get', '/adjustments/:id/credit-note', 'Adjustments', 'Get a credit note link', 'adjustment.read', {
    shape: 'entity',
  }),
  operation('get', '/credit-notes/:adjustmentId/pdf', 'Adjustments', 'Download a credit note PDF (signed link)', null, {
    shape: 'pdf',
  }),
];

const amountMetric = (endpoint: string) => [`get /metrics/${endpoint}`, AmountMetricResponse] as const;

/** What each operation outside the catalogue's `crud` answers with (the entity; `shape` says one, page or array). */
const RESPONSES: Readonly<Record<string, ZodType>> = {
  'get /currencies': CurrencyResponse,
  'get /ips': IpAddressesResponse,
  'get /customers/:customer/addresses': AddressResponse,
  'post /customers/:customer/addresses': AddressResponse,
  'get /customers/:customer/addresses/:id': AddressResponse,
  'patch /customers/:customer/addresses/:id': AddressResponse,
  'get /customers/:customer/credit-balances': CreditBalanceResponse,
  'get /customers/:customer/usage-balances': UsageBalanceResponse,
  'get /customers/:customer/usage-balances/:id': UsageBalanceResponse,
  'get /customers/:customer/usage-balances/:id/periods': UsagePeriodResponse,
  'post /payment-providers/:provider/webhooks/:accountId': ProviderNotificationAnswerResponse,
  'post /checkout/intent': BrowserCheckoutStartResponse,
  'get /checkout-settings': CheckoutSettingsResponse,
  'patch /checkout-settings': CheckoutSettingsResponse,
  'get /customers/:customer/payment-methods': PaymentMethodResponse,
  'get /customers/:customer/payment-methods/:id': PaymentMethodResponse,
  'get /subscriptions/:id/update-payment-method-transaction': TransactionResponse,
  'post /customers/:customer/portal-sessions': PortalSessionResponse,
  'post /customer-portal-sessions/verify': PortalSessionGrantResponse,
  'get /customer-portal-sessions/verification-key': PortalSessionVerificationKeyResponse,
  'post /customers/:customer/auth-token': CustomerAuthTokenResponse,
  'get /customers/:customer/businesses': BusinessResponse,
  'post /customers/:customer/businesses': BusinessResponse,
  'get /customers/:customer/businesses/:id': BusinessResponse,
  'patch /customers/:customer/businesses/:id': BusinessResponse,
  'post /usage-events': UsageEventsAnswerResponse,
  'get /events': EventResponse,
  'get /event-types': EventTypeResponse,
  'get /notification-settings': NotificationSettingResponse,
  'post /notification-settings': NotificationSettingResponse,
  'get /notification-settings/:id': NotificationSettingResponse,
  'patch /notification-settings/:id': NotificationSettingResponse,
  'post /notification-settings/:id/rotate-secret': NotificationSettingResponse,
  'get /notifications': NotificationResponse,
  'get /notifications/:id': NotificationResponse,
  'get /notifications/:id/logs': NotificationLogResponse,
  'post /notifications/:id/replay': NotificationReplayResponse,
  'get /subscriptions': SubscriptionResponse,
  'get /subscriptions/:id': SubscriptionResponse,
  'patch /subscriptions/:id': SubscriptionResponse,
  'patch /subscriptions/:id/preview': SubscriptionPreviewResponse,
  'post /subscriptions/:id/activate': SubscriptionResponse,
  'post /subscriptions/:id/charge': SubscriptionResponse,
  'post /subscriptions/:id/charge/preview': SubscriptionPreviewResponse,
  'post /subscriptions/:id/pause': SubscriptionResponse,
  'post /subscriptions/:id/resume': SubscriptionResponse,
  'post /subscriptions/:id/cancel': SubscriptionResponse,
  'get /subscriptions/:id/cancellation-reason': SubscriptionCancellationReasonResponse,
  'get /seller-details/logo': SellerLogoResponse,
  'get /transactions': TransactionResponse,
  'post /transactions': TransactionResponse,
  'post /transactions/preview': TransactionPreviewResponse,
  'post /pricing-preview': PricingPreviewResponse,
  'get /transactions/:id': TransactionResponse,
  'patch /transactions/:id': TransactionResponse,
  'post /transactions/:id/simulate-payment': TransactionResponse,
  'post /transactions/:id/payments': TransactionResponse,
  'get /transactions/:id/invoice': LinkResponse,
  'post /transactions/:id/revise': TransactionResponse,
  'get /adjustments': AdjustmentResponse,
  'post /adjustments': AdjustmentResponse,
  'get /adjustments/:id/credit-note': LinkResponse,
  'get /tax-settings': TaxSettingsResponse,
  'patch /tax-settings': TaxSettingsResponse,
  'get /seller-details': SellerDetailsResponse,
  'get /email-settings': EmailSettingsResponse,
  'patch /email-settings': EmailSettingsResponse,
  'get /emails': EmailResponse,
  'get /emails/:id': EmailResponse,
  'patch /seller-details': SellerDetailsResponse,
  'get /sandbox-clock': SandboxClockResponse,
  'post /sandbox-clock/advance': SandboxClockResponse,
  'get /sandbox-payment-outcome': SandboxPaymentOutcomeResponse,
  'put /sandbox-payment-outcome': SandboxPaymentOutcomeResponse,
  'get /simulation-types': SimulationTypeResponse,
  'get /simulations': SimulationResponse,
  'post /simulations': SimulationResponse,
  'get /simulations/:id': SimulationResponse,
  'patch /simulations/:id': SimulationResponse,
  'post /simulations/:id/runs': SimulationRunResponse,
  'get /simulations/:id/runs': SimulationRunResponse,
  'get /simulations/:id/runs/:run_id': SimulationRunResponse,
  'get /simulations/:id/runs/:run_id/events': SimulationRunEventResponse,
  'get /simulations/:id/runs/:run_id/events/:event_id': SimulationRunEventResponse,
  'post /simulations/:id/runs/:run_id/events/:event_id/replay': SimulationRunEventResponse,
  ...Object.fromEntries(['refunds', 'monthly-recurring-revenue', 'monthly-recurring-revenue-change'].map(amountMetric)),
  'get /metrics/revenue': RevenueMetricResponse,
  'get /metrics/chargebacks': CountMetricResponse,
  'get /metrics/active-subscribers': CountMetricResponse,
  'get /metrics/checkout-conversion': ConversionMetricResponse,
  'get /reports': ReportResponse,
  'post /reports': ReportResponse,
  'get /reports/:id': ReportResponse,
  'get /reports/:id/download-url': LinkResponse,
};

export const API_OPERATIONS: readonly ApiOperation[] = OPERATIONS.map((entry) => {
  const response = entry.response ?? RESPONSES[`${entry.method} ${entry.path}`];
  return response ? { ...entry, response } : entry;
});
