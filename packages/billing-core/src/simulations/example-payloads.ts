/**
 * @module
 * The static examples a simulation sends when it is given no entity of the account's own: one
 * per entity, in wire form, in the shape the reference documents. The ids are well formed and
 * belong to no account, so a receiver that looks them up finds nothing real.
 */
import type { WireData } from './simulation.js';

const AT = '2026-01-01T12:00:00.000Z';
const PRODUCT_ID = 'pro_01jhexamp1e0000000000000pr';
const PRICE_ID = 'pri_01jhexamp1e0000000000000pr';
const CUSTOMER_ID = 'ctm_01jhexamp1e0000000000000cu';
const ADDRESS_ID = 'add_01jhexamp1e0000000000000ad';
const BUSINESS_ID = 'biz_01jhexamp1e0000000000000bu';
const SUBSCRIPTION_ID = 'sub_01jhexamp1e0000000000000su';
const TRANSACTION_ID = 'txn_01jhexamp1e0000000000000tx';
const DISCOUNT_ID = 'dsc_01jhexamp1e0000000000000di';

const money = (amount: string) => ({ amount, currency_code: 'USD' });

const product: WireData = {
  id: PRODUCT_ID,
  name: 'Example plan',
  description: 'A product that exists only in simulations.',
  type: 'standard',
  tax_category: 'standard',
  image_url: null,
  custom_data: null,
  status: 'active',
  import_meta: null,
  created_at: AT,
  updated_at: AT,
};

const price: WireData = {
  id: PRICE_ID,
  product_id: PRODUCT_ID,
  type: 'standard',
  description: 'Monthly',
  name: 'Monthly',
  billing_cycle: { interval: 'month', frequency: 1 },
  trial_period: null,
  tax_mode: 'account_setting',
  unit_price: money('3000'),
  unit_price_overrides: [],
  quantity: { minimum: 1, maximum: 100 },
  status: 'active',
  custom_data: null,
  import_meta: null,
  created_at: AT,
  updated_at: AT,
};

const customer: WireData = {
  id: CUSTOMER_ID,
  name: 'Sam Example',
  email: 'sam@example.com',
  marketing_consent: false,
  status: 'active',
  custom_data: null,
  locale: 'en',
  import_meta: null,
  created_at: AT,
  updated_at: AT,
};

const address: WireData = {
  id: ADDRESS_ID,
  customer_id: CUSTOMER_ID,
  description: null,
  first_line: null,
  second_line: null,
  city: null,
  postal_code: '10021',
  region: null,
  country_code: 'US',
  custom_data: null,
  status: 'active',
  import_meta: null,
  created_at: AT,
  updated_at: AT,
};

const business: WireData = {
  id: BUSINESS_ID,
  customer_id: CUSTOMER_ID,
  name: 'Example Ltd',
  company_number: null,
  tax_identifier: null,
  status: 'active',
  contacts: [],
  custom_data: null,
  import_meta: null,
  created_at: AT,
  updated_at: AT,
};

const period = { starts_at: AT, ends_at: '2026-02-01T12:00:00.000Z' };

const subscription: WireData = {
  id: SUBSCRIPTION_ID,
  status: 'active',
  customer_id: CUSTOMER_ID,
  address_id: ADDRESS_ID,
  business_id: null,
  currency_code: 'USD',
  created_at: AT,
  updated_at: AT,
  started_at: AT,
  first_billed_at: AT,
  next_billed_at: period.ends_at,
  paused_at: null,
  canceled_at: null,
  discount: null,
  collection_mode: 'automatic',
  billing_details: null,
  current_billing_period: period,
  billing_cycle: { interval: 'month', frequency: 1 },
  scheduled_change: null,
  items: [
    {
      status: 'active',
      quantity: 1,
      recurring: true,
      created_at: AT,
      updated_at: AT,
      previously_billed_at: AT,
      next_billed_at: period.ends_at,
      trial_dates: null,
      price,
      product,
    },
  ],
  custom_data: null,
  import_meta: null,
};

const totals = {
  subtotal: '3000',
  discount: '0',
  tax: '300',
  total: '3300',
  credit: '0',
  credit_to_balance: '0',
  balance: '3300',
  grand_total: '3300',
  grand_total_tax: '300',
  fee: null,
  earnings: null,
  currency_code: 'USD',
};

const transaction: WireData = {
  id: TRANSACTION_ID,
  status: 'draft',
  customer_id: CUSTOMER_ID,
  address_id: ADDRESS_ID,
  business_id: null,
  custom_data: null,
  origin: 'web',
  collection_mode: 'automatic',
  subscription_id: null,
  invoice_id: null,
  invoice_number: null,
  billing_details: null,
  billing_period: null,
  currency_code: 'USD',
  discount_id: null,
  created_at: AT,
  updated_at: AT,
  billed_at: null,
  revised_at: null,
  items: [{ price_id: PRICE_ID, price, quantity: 1, proration: null }],
  details: {
    tax_rates_used: [{ tax_rate: '0.1', totals: { subtotal: '3000', discount: '0', tax: '300', total: '3300' } }],
    totals,
    adjusted_totals: { ...totals, retained_fee: '0' },
    payout_totals: null,
    adjusted_payout_totals: null,
    line_items: [],
  },
  payments: [],
  checkout: { url: null },
};

const adjustment: WireData = {
  id: 'adj_01jhexamp1e0000000000000aj',
  action: 'refund',
  type: 'partial',
  transaction_id: TRANSACTION_ID,
  subscription_id: SUBSCRIPTION_ID,
  customer_id: CUSTOMER_ID,
  reason: 'Example refund',
  credit_applied_to_balance: null,
  currency_code: 'USD',
  status: 'pending_approval',
  items: [],
  totals: {
    subtotal: '1000',
    tax: '100',
    total: '1100',
    fee: '0',
    earnings: '0',
    retained_fee: '0',
    currency_code: 'USD',
  },
  payout_totals: null,
  tax_rates_used: [],
  created_at: AT,
  updated_at: AT,
};

const discount: WireData = {
  id: DISCOUNT_ID,
  status: 'active',
  description: 'Example discount',
  enabled_for_checkout: true,
  code: 'EXAMPLE10',
  type: 'percentage',
  mode: 'standard',
  amount: '10',
  currency_code: null,
  recur: false,
  maximum_recurring_intervals: null,
  usage_limit: null,
  restrict_to: null,
  expires_at: null,
  custom_data: null,
  times_used: 0,
  discount_group_id: null,
  import_meta: null,
  created_at: AT,
  updated_at: AT,
};

const EXAMPLES: Readonly<Record<string, WireData>> = {
  product,
  price,
  customer,
  address,
  business,
  subscription,
  transaction,
  adjustment,
  discount,
  discount_group: {
    id: 'dsg_01jhexamp1e0000000000000dg',
    name: 'Example group',
    status: 'active',
    import_meta: null,
    created_at: AT,
    updated_at: AT,
  },
  api_key: {
    id: 'apikey_01jhexamp1e0000000000000ak',
    name: 'Example key',
    description: null,
    key: 'pdl_sdbx_apikey_01jhexamp1****',
    status: 'active',
    permissions: ['product.read'],
    expires_at: null,
    last_used_at: null,
    created_at: AT,
    updated_at: AT,
  },
  api_key_exposure: {
    id: 'apikexp_01jhexamp1e0000000000000ex',
    api_key_id: 'apikey_01jhexamp1e0000000000000ak',
    risk_level: 'high',
    action_taken: 'revoked',
    source: 'github',
    reference: 'https://github.com/example/example',
    description: 'Example exposure',
    created_at: AT,
  },
  client_token: {
    id: 'ctkn_01jhexamp1e0000000000000ct',
    token: 'live_00000000000000000000000000',
    name: 'Example token',
    description: null,
    status: 'active',
    revoked_at: null,
    created_at: AT,
    updated_at: AT,
  },
  payment_method: {
    id: 'paymtd_01jhexamp1e0000000000000pm',
    customer_id: CUSTOMER_ID,
    address_id: ADDRESS_ID,
    type: 'card',
    origin: 'saved_during_purchase',
    saved_at: AT,
    updated_at: AT,
  },
  payout: { id: 'payout_01jhexamp1e0000000000000po', status: 'paid', amount: '10000', currency_code: 'USD' },
  report: {
    id: 'rep_01jhexamp1e0000000000000rp',
    type: 'transactions',
    status: 'pending',
    rows: null,
    filters: [],
    expires_at: null,
    created_at: AT,
    updated_at: AT,
  },
  meter: {
    id: 'mtr_01jhexamp1e0000000000000mt',
    name: 'Example meter',
    description: null,
    action: 'api.call',
    usage_balance_unit_id: 'ubu_01jhexamp1e0000000000000ub',
    aggregation: 'count',
    rate: '1',
    status: 'active',
    created_at: AT,
    updated_at: AT,
  },
  usage_balance_unit: {
    id: 'ubu_01jhexamp1e0000000000000ub',
    name: 'Credits',
    description: null,
    status: 'active',
    created_at: AT,
    updated_at: AT,
  },
  usage_balance: {
    id: 'ubl_01jhexamp1e0000000000000bl',
    customer_id: CUSTOMER_ID,
    usage_balance_unit_id: 'ubu_01jhexamp1e0000000000000ub',
    balance: {
      used: { total: '1000', breakdown: { subscription: '1000' } },
      remaining: { total: '0', breakdown: { subscription: '0' } },
      overage: { total: '0', started_at: null, breakdown: { subscription: '0' } },
    },
    created_at: AT,
    updated_at: AT,
  },
};

/** The entity an event type carries: the part of its name before the dot. */
export function entityOfEventType(eventType: string): string {
  return eventType.slice(0, eventType.indexOf('.'));
}

/** The static example for an event type's entity (a fresh copy the caller may change). */
export function examplePayload(eventType: string): WireData {
  const example = EXAMPLES[entityOfEventType(eventType)];
  if (!example) throw new Error(`No example payload for ${eventType}.`);
  const payload = JSON.parse(JSON.stringify(example)) as WireData;
  // A deletion says why, as the public API's payment_method.deleted does.
  return eventType === 'payment_method.deleted' ? { ...payload, deletion_reason: 'api' } : payload;
}
