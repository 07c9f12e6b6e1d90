/**
 * @module
 * The closed set of error codes Drawdown answers with. Each code names one condition a
 * caller can act on. HTTP statuses are not here: the service maps codes to statuses in one
 * place (`apps/billing-service/src/http/error-mapping.ts`), and `docs/errors.md` lists every
 * code (a test keeps the three in step).
 */

export const ERROR_CODES = {
  // Request shape
  bad_request: 'The request could not be read: malformed JSON, a wrong content type, or a bad path.',
  invalid_field: 'One or more fields failed validation; `errors[]` names each field.',
  request_body_too_large: 'The request body is larger than the service accepts.',
  request_body_empty: 'The body of an update names no field to change; nothing changed.',
  not_found: 'The addressed entity does not exist in this account and environment.',
  method_not_allowed: 'The path exists but does not accept this HTTP method.',
  field_not_supported:
    'The field is part of the public API but Drawdown does not offer it on this operation yet; nothing changed.',
  invalid_characters:
    'A text field or query parameter holds NUL (U+0000) or an unpaired UTF-16 surrogate, which cannot be stored.',

  // Authentication and authorisation
  authentication_missing: 'No Authorization header was sent.',
  authentication_malformed: 'The Authorization header is not `Bearer <API key>` with a key in the expected format.',
  invalid_token: 'The API key is unknown, revoked, or belongs to the other environment.',
  expired_token: 'The API key has passed its expiry time.',
  forbidden: 'The API key lacks the permission this operation needs.',
  permission_requires_early_access: 'Usage-based billing permissions are offered only to accounts in early access.',
  early_access_required: 'This feature (allowances, meters, usage) is open only to accounts in early access.',

  // Limits
  too_many_requests: 'Rate limited; retry after the number of seconds in Retry-After.',
  documents_busy:
    'The service is rendering and queueing as many documents (PDFs, logo checks) as it is configured for; retry after the seconds in Retry-After.',

  // Referenced entities (sent in a body, not addressed by the path)
  product_not_found: 'The product_id does not name a product of this account and environment.',
  price_not_found: 'A price_id does not name a price of this account and environment.',
  customer_portal_not_configured:
    "No billing portal is configured for this environment: its operator sets the environment's portal URL (ADR 1472).",
  customer_already_exists: 'Another customer of this account and environment has this email.',
  customer_not_found: 'The customer_id does not name a customer of this account and environment.',
  address_not_found: 'The address_id does not name an address of the customer in this account and environment.',
  subscription_not_found:
    'A subscription_ids entry does not name a subscription of the customer in this account and environment.',
  usage_balance_unit_not_found: 'The usage_balance_unit_id does not name a unit of this account and environment.',
  account_not_found: 'No account has this id.',
  api_key_not_found: 'No API key has this id.',

  // Catalogue rules
  entity_archived: 'The referenced entity is archived and cannot be used for new records.',
  meter_action_usage_balance_unit_duplicate: 'Another meter (even an archived one) has the same action and unit.',
  meter_immutable_field: 'A meter’s usage_balance_unit_id and aggregation cannot change.',
  meter_archived: 'An archived meter cannot be changed.',
  price_allowance_not_allowed_for_trial_price: 'Allowances cannot be set on a price with a trial period.',
  price_allowance_not_allowed_for_one_off_price: 'Allowances can be set only on recurring prices.',
  price_allowance_duplicate_usage_balance_unit: 'A price can hold one allowance per usage balance unit.',
  price_allowance_limit_exceeded: 'A price can hold at most 20 allowances.',
  price_trial_period_requires_billing_cycle: 'A trial period needs a recurring price (a billing_cycle).',
  price_quantity_range_invalid: 'quantity.minimum must be at least 1 and no greater than quantity.maximum.',

  // Subscriptions and usage (used from the usage engine on)
  subscription_prorated_billing_not_allowed_for_allowance:
    'Prorated billing modes are not allowed on a subscription whose price has allowances.',
  subscription_manual_collection_not_allowed_for_allowance:
    'A subscription whose prices have allowances must be collected automatically.',
  subscription_canceled: 'The subscription is canceled; canceled subscriptions are final.',
  subscription_not_paused: 'Only a paused subscription, or one with a scheduled pause, can be resumed.',
  subscription_already_paused: 'The subscription is already paused.',
  subscription_scheduled_change_pending:
    'The subscription has a scheduled change; remove it (scheduled_change: null) before making another.',
  subscription_billing_cycle_mismatch: 'Every price on a subscription must have the same billing cycle.',
  subscription_price_not_recurring: 'Subscriptions can hold recurring prices only.',
  subscription_quantity_out_of_range: 'An item quantity is outside the price’s quantity limits.',
  subscription_trial_items_mixed:
    'The recurring prices of a transaction that starts a subscription must all have the same trial period, or none.',
  subscription_cannot_activate: 'Only a trialing subscription can be activated.',
  subscription_charge_duplicate_price_ids:
    'A one-time charge names each price once: give one item with the whole quantity instead of two of the same price.',
  subscription_charge_price_not_one_off: 'A one-time charge takes one-off prices (prices without a billing cycle).',
  subscription_currency_mismatch: 'Every price on a subscription must be priced in the subscription’s currency.',
  subscription_update_when_paused:
    'A paused subscription has no billing period to bill a change against: change its items with do_not_bill, or resume it first.',
  subscription_customer_change_not_allowed_for_allowance:
    'A subscription whose prices have allowances grants them to its customer’s balances: it cannot move to another customer.',
  subscription_next_billed_at_not_future: 'next_billed_at must be after the instant of the change.',
  subscription_next_billed_at_too_far:
    'next_billed_at can move no later than the end of the billing period after the current one.',
  subscription_update_when_past_due:
    'A past-due subscription cannot take a change that charges now; settle its open transaction first.',
  subscription_payment_declined:
    'The immediate charge (of a change with on_payment_failure prevent_change, or of an activation) was declined; nothing changed.',
  subscription_payment_amount_changed:
    'The immediate charge changed between its authorisation and the change (another change landed first); the hold was released, nothing changed. Retry.',
  subscription_payment_unconfirmed:
    'The payment provider did not answer about the immediate charge of a change with on_payment_failure prevent_change; nothing changed, and any hold on the card is released. Retry.',
  subscription_items_update_missing_proration_billing_mode:
    'proration_billing_mode is required when updating subscription items.',
  subscription_invalid_billing_mode_for_scheduled_change:
    'A subscription with a scheduled pause or cancellation can only be updated with do_not_bill, full_immediately or prorated_immediately.',
  subscription_invalid_billing_mode_for_billing_cycle_change:
    'A change of billing cycle takes prorated_immediately, full_immediately or do_not_bill: there is no renewal of the old cycle to bill it with.',
  subscription_currency_update_not_allowed:
    'The currency cannot change while credits are pending for the next renewal.',
  subscription_currency_update_and_actions_creating_credits_not_allowed:
    'Updating the currency and making a change that credits the customer are not allowed in one request.',
  subscription_pausing_not_allowed_for_cardless_trial:
    'Pausing is not supported on a cardless trial subscription before a payment method is added.',
  subscription_scheduled_change_not_allowed_for_cardless_trial:
    'Scheduled changes are not allowed on a cardless trial subscription before a payment method is added; cancel it immediately instead.',
  subscription_one_off_charges_not_allowed_on_cardless_trial:
    'One-off charges cannot be added to a cardless trial subscription before a payment method is added.',
  subscription_price_requires_payment_method_on_cardless_trial:
    'Prices that require a payment method cannot be added to a cardless trial subscription before a payment method is added.',
  subscription_missing_payment_method_cannot_activate:
    'A cardless trial subscription needs a payment method to be activated.',
  sandbox_clock_cannot_go_back: 'The sandbox clock only moves forward.',
  sandbox_jump_too_large:
    'The jump would run more renewals, scheduled changes and payment retries than one sandbox jump may on this service; nothing changed. Move the clock in shorter jumps.',
  sandbox_daily_quota_exceeded:
    'The jump would run more renewals, scheduled changes and payment retries than are left of the account’s daily sandbox quota; nothing changed. The quota starts again at 00:00 UTC.',
  usage_events_limit_exceeded: 'A usage-events request carries exactly one event.',
  usage_event_timestamp_too_old: 'occurred_at is more than 60 days in the past.',
  usage_event_future_timestamp: 'occurred_at is more than 24 hours in the future.',

  // Notifications
  notification_destination_type_unsupported:
    'Only url notification destinations are available; email destinations are not sent.',
  notification_destination_not_allowed:
    'The destination is, or resolves to, a loopback, private-network, link-local or other non-public address, which neither environment delivers to unless the operator allows private destinations (ADR 1485). At delivery, the attempt is logged with response code 0 and this code.',
  notification_setting_not_found: 'The notification’s destination was deleted, so there is nothing to replay it to.',

  // Transactions, invoices and adjustments
  transaction_not_found: 'The transaction_id does not name a transaction of this account and environment.',
  transaction_status_transition_not_allowed:
    'The transaction’s current status does not allow this change (see the transaction lifecycle).',
  transaction_not_editable:
    'Only draft and ready transactions can change items, customer, address, currency, collection mode or billing details.',
  transaction_manual_collection_not_allowed_for_allowance:
    'A transaction whose prices have allowances must be collected automatically.',
  transaction_not_payable: 'Payments are recorded only for ready, billed or past-due transactions.',
  tax_settings_not_chosen:
    'A live charge waits until the account environment records its live tax settings (ADR 1439); the sandbox never asks.',
  transaction_payment_amount_invalid: 'A captured payment must be more than zero and at most the balance still due.',
  transaction_payment_simulation_sandbox_only:
    'Payments can be simulated only in the sandbox; live records payments reported by the payment provider.',
  subscription_update_payment_method_not_allowed:
    'Only automatically collected subscriptions that are not canceled, and that have a billing address, have a payment method to update.',
  checkout_email_belongs_to_customer:
    'The email entered at a checkout that names no customer belongs to an existing customer; that customer pays from a checkout of a transaction made out to them (a link the seller sends), so nobody can add a card or an address to their record by typing their email.',
  checkout_return_url_not_allowed:
    'A checkout link’s return_url must be an http(s) address on the origin of the account’s checkout return_url setting; without that setting no return_url is allowed.',
  checkout_business_invalid:
    'The business entered at the checkout is refused: the company name is missing or too long, or the tax number is not one of the address’s country (its format), or the EU’s VAT register says it is not registered; nothing changed (ADR 1113).',
  checkout_discount_code_invalid:
    'The promo code entered at the checkout is not a discount of this account that is enabled for checkout (unknown, archived, or not enabled); which of these is not said.',
  transaction_checkout_amount_changed:
    'The transaction now owes a different amount than the checkout page showed; nothing was charged. Reload and confirm the new amount.',
  checkout_provider_not_configured:
    'This environment has no payment provider, so its checkout cannot take payments; report payments with POST /transactions/{id}/payments.',
  payment_provider_work_in_flight:
    'A payment attempt or a refund still waits for the payment provider’s answer, so its settings were not removed; wait for the recovery step, or remove with --force.',
  transaction_payment_in_progress:
    'A payment of this transaction is in progress (another submission, an authentication step, a browser confirmation or the provider’s answer); changes of what it owes, cancel and other payments wait for its outcome (at most 30 minutes for a customer who left).',
  payment_method_input_invalid:
    'The payment details are incomplete or not accepted by this environment’s payment provider (the sandbox takes only its test cards).',
  provider_notification_invalid:
    'A payment provider notification whose signature does not verify, or that is not in the provider’s format; nothing was applied.',
  provider_notification_malformed:
    'A payment provider notification whose signature verifies but whose body is not one of the provider’s events (not JSON, no event id or type, no data object); nothing was applied and the service logged it.',
  transaction_invoice_not_available:
    'The transaction has no invoice: automatic collection needs completed, manual billed or completed, and zero-value transactions have none.',
  invoice_link_invalid:
    'The invoice link is malformed or its signature does not match: it was altered or not issued here.',
  invoice_link_expired: 'The invoice link is older than one hour; request a new one.',
  invalid_logo:
    'The seller logo is not a PNG or JPEG file that decodes, is larger than 256 KiB, or is less than 16 pixels a side; nothing changed.',
  logo_too_large:
    'The seller logo’s header declares more than the service decodes: over 2,048 pixels a side, over 4 MiB of decoded pixels (width × height × bytes per pixel), or over 100 JPEG scans; refused before decoding, nothing changed.',
  portal_session_invalid:
    'The customer portal session token is malformed, its signature does not match, or it was issued for another account or environment.',
  portal_session_expired: 'The customer portal session is older than one hour; create a new one.',
  adjustment_transaction_status_not_allowed:
    'Refunds need a completed transaction; credits a billed, past-due or completed one.',
  adjustment_credit_note_not_available:
    'The adjustment has no credit note: its transaction has no invoice, or the adjustment is not approved.',
  adjustment_amount_above_remaining:
    'The adjustment asks for more than remains to adjust on the line, or (for a credit) more than the balance due.',
  adjustment_pending_refund_request:
    "A refund of the transaction awaits the payment provider's answer: no further adjustment until it is approved or rejected.",
  adjustment_refund_spans_payments:
    "The refund cannot be sent to one payment the account's payment provider took for the transaction (it paid less, or paid it in parts): refund at most what one payment has left.",

  // Simulations
  simulation_destination_not_found:
    'The notification_setting_id names no notification destination of this account and environment.',
  simulation_destination_platform_only:
    'The destination accepts platform traffic only; simulations need traffic_source simulation or all.',
  simulation_options_conflict:
    'The scenario options or entities contradict each other, or config names another scenario than the simulation’s type.',
  simulation_entity_not_found: 'An id in config.entities names no entity of this account and environment.',
  simulation_entity_not_supported:
    'config.entities names an entity Drawdown does not hold for simulations (business, payment method, discount, items).',
  simulation_archived: 'The simulation is archived; make it active before running it.',
  simulation_budget_exceeded:
    'The run or replay is over the simulation budget (runs and replays per minute and hour, events per run, events and bytes per day); nothing was sent. Retry after the seconds in Retry-After, when given.',

  // Reports and metrics
  report_type_not_supported:
    'Drawdown does not produce this report type: it holds no seller balance and makes no payouts.',
  report_not_ready: 'The report is not ready yet (pending) or failed; only a ready report can be downloaded.',
  report_expired: 'The report is past its expires_at; create a new one.',
  report_link_invalid:
    'The report download link is malformed or its signature does not match: it was altered or not issued here.',
  report_link_expired: 'The report download link is older than one hour; request a new one.',
  metrics_range_too_long: 'The metrics range from..to is longer than the documented limit for the interval.',
  // Businesses
  business_not_found: 'The business_id does not name a business of this account and environment.',
  transaction_customer_is_required_for_business_validation: 'A business_id needs a customer_id to be checked against.',
  transaction_business_customer_mismatch: 'The business belongs to another customer than the one named.',

  // Client-side tokens and customer authentication tokens
  client_token_revoked: 'A revoked client-side token stays revoked; create a new one.',
  invalid_client_token: 'The client-side token is malformed, unknown, revoked, or of another environment.',
  invalid_customer_auth_token:
    'The customer authentication token is malformed, unknown, expired, or of another account, environment or customer.',

  // Revisions
  transaction_invalid_status_to_revise: 'Only billed and completed transactions can be revised.',
  transaction_revised_limit_reached: 'A transaction can be revised once, and this one already was.',

  // Discounts
  subscription_trialing_discount_update_invalid_options:
    'A discount can be set on a trialing subscription only with effective_from: next_billing_period.',
  subscription_invalid_discount_currency: 'A flat discount must be in the currency the subscription bills in.',
  subscription_discount_not_valid_for_items:
    'The discount is restricted to prices and products none of the subscription’s items use.',
  discount_group_not_found: 'The discount_group_id does not name a discount group of this account and environment.',
  discount_code_conflict:
    'Another discount of this account and environment has this code (compared case-insensitively).',
  discount_usage_limit_less_than_times_used: 'usage_limit cannot be lowered below times_used.',
  discount_usage_limit_exceeded: 'The discount has been redeemed as many times as its usage_limit allows.',
  discount_expired: 'The discount is past its expires_at and can no longer be applied.',
  transaction_discount_not_found: 'The discount_id does not name a discount of this account and environment.',
  transaction_discount_not_eligible:
    'The discount is restricted to prices and products none of the transaction’s items use.',
  transaction_currency_conversion_not_supported:
    'A price has no amount in the transaction’s currency for the customer’s country, and Drawdown converts no currency (ADR 1477): add a unit price override in that currency, or bill in the price’s own currency.',
  transaction_invalid_discount_currency: 'A flat discount must be in the transaction’s currency.',
  transaction_requires_currency_code_for_custom_discount:
    'A transaction created with a flat non-catalogue discount must state its currency_code.',
  transaction_discount_conflict: 'A transaction takes discount_id or a non-catalogue discount, not both.',

  internal_error: 'The service failed unexpectedly; the request is safe to retry.',
} as const satisfies Record<string, string>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value);
}
