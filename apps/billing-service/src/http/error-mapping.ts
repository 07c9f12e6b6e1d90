/**
 * @module
 * The one place where error codes become HTTP statuses. The compiler keeps the table
 * complete: a new code without a status does not build.
 */
import type { ErrorCode } from '@drawdown/billing-core';

export type ErrorStatus = 400 | 403 | 404 | 405 | 409 | 410 | 413 | 429 | 500;

export const STATUS_BY_CODE = {
  bad_request: 400,
  invalid_field: 400,
  request_body_too_large: 413,
  not_found: 404,
  method_not_allowed: 405,
  invalid_characters: 400,
  // The seed: permission and authentication failures are all 403, told apart by code.
  authentication_missing: 403,
  authentication_malformed: 403,
  invalid_token: 403,
  expired_token: 403,
  forbidden: 403,
  permission_requires_early_access: 403,
  early_access_required: 403,
  too_many_requests: 429,
  product_not_found: 400,
  price_not_found: 400,
  customer_not_found: 400,
  address_not_found: 400,
  customer_already_exists: 409,
  usage_balance_unit_not_found: 400,
  account_not_found: 404,
  api_key_not_found: 404,
  entity_archived: 400,
  meter_action_usage_balance_unit_duplicate: 400,
  meter_immutable_field: 400,
  meter_archived: 400,
  price_allowance_not_allowed_for_trial_price: 400,
  price_allowance_not_allowed_for_one_off_price: 400,
  price_allowance_duplicate_usage_balance_unit: 400,
  price_allowance_limit_exceeded: 400,
  price_trial_period_requires_billing_cycle: 400,
  price_quantity_range_invalid: 400,
  subscription_prorated_billing_not_allowed_for_allowance: 400,
  subscription_manual_collection_not_allowed_for_allowance: 400,
  subscription_canceled: 409,
  subscription_not_paused: 409,
  subscription_already_paused: 409,
  subscription_scheduled_change_pending: 409,
  subscription_billing_cycle_mismatch: 400,
  subscription_price_not_recurring: 400,
  subscription_quantity_out_of_range: 400,
  sandbox_clock_cannot_go_back: 400,
  usage_events_limit_exceeded: 400,
  usage_event_timestamp_too_old: 400,
  usage_event_future_timestamp: 400,
  notification_destination_type_unsupported: 400,
  notification_destination_not_allowed: 400,
  notification_setting_not_found: 400,
  transaction_not_found: 400,
  transaction_status_transition_not_allowed: 409,
  transaction_not_editable: 409,
  transaction_manual_collection_not_allowed_for_allowance: 400,
  transaction_not_payable: 409,
  transaction_payment_amount_invalid: 400,
  transaction_payment_simulation_sandbox_only: 400,
  transaction_invoice_not_available: 409,
  // A signed link is its own credential: a bad one names nothing (404), an old one is gone (410).
  invoice_link_invalid: 404,
  invoice_link_expired: 410,
  adjustment_transaction_status_not_allowed: 409,
  adjustment_amount_above_remaining: 400,
  adjustment_credit_note_not_available: 409,
  business_not_found: 400,
  transaction_customer_is_required_for_business_validation: 400,
  transaction_business_customer_mismatch: 400,
  transaction_invalid_status_to_revise: 400,
  transaction_revised_limit_reached: 400,
  discount_group_not_found: 400,
  subscription_discount_immediately_not_supported: 400,
  discount_code_conflict: 409,
  discount_usage_limit_less_than_times_used: 400,
  discount_usage_limit_exceeded: 400,
  discount_expired: 400,
  transaction_discount_not_found: 400,
  transaction_discount_not_eligible: 400,
  transaction_invalid_discount_currency: 400,
  transaction_requires_currency_code_for_custom_discount: 400,
  transaction_discount_conflict: 400,
  internal_error: 500,
} as const satisfies Record<ErrorCode, ErrorStatus>;

/** `api_error` for failures on our side or of limits; `request_error` for the caller's. */
export function errorType(code: ErrorCode): 'request_error' | 'api_error' {
  return code === 'internal_error' || code === 'too_many_requests' ? 'api_error' : 'request_error';
}

export function documentationUrl(code: ErrorCode): string {
  return `https://drawdown.dev/docs/errors#${code}`;
}
