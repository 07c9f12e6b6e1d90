/**
 * @module
 * The catalogue's document tables and the columns each promotes for its list filters.
 */
import type {
  Address,
  AddressColumn,
  Business,
  BusinessColumn,
  Customer,
  CustomerColumn,
  Discount,
  DiscountColumn,
  DiscountGroup,
  DiscountGroupColumn,
  Meter,
  MeterColumn,
  Price,
  PriceColumn,
  Product,
  ProductColumn,
  TransactionRevision,
  UsageBalanceUnit,
  UsageBalanceUnitColumn,
} from '@drawdown/billing-core';
import type { DocumentTableSpec } from './document-collection.js';

export const productsTable: DocumentTableSpec<Product, ProductColumn> = {
  table: 'products',
  columns: {
    status: (product) => product.status,
    type: (product) => product.type,
    tax_category: (product) => product.taxCategory,
  },
  // The product list's documented `order_by` fields besides `id` and `created_at` (id order, ids being time-ordered).
  sortKeys: {
    custom_data: { path: ['customData'], kind: 'text' },
    description: { path: ['description'], kind: 'text' },
    image_url: { path: ['imageUrl'], kind: 'text' },
    name: { path: ['name'], kind: 'text' },
    status: { path: ['status'], kind: 'text' },
    tax_category: { path: ['taxCategory'], kind: 'text' },
    updated_at: { path: ['updatedAt'], kind: 'text' },
  },
};

export const pricesTable: DocumentTableSpec<Price, PriceColumn> = {
  table: 'prices',
  columns: {
    product_id: (price) => price.productId,
    status: (price) => price.status,
    type: (price) => price.type,
    recurring: (price) => String(price.billingCycle !== null),
  },
  // The price list's documented `order_by` fields besides `id` (issue 36).
  sortKeys: {
    'billing_cycle.frequency': { path: ['billingCycle', 'frequency'], kind: 'integer' },
    'billing_cycle.interval': { path: ['billingCycle', 'interval'], kind: 'text' },
    product_id: { path: ['productId'], kind: 'text' },
    'quantity.maximum': { path: ['quantity', 'maximum'], kind: 'integer' },
    'quantity.minimum': { path: ['quantity', 'minimum'], kind: 'integer' },
    status: { path: ['status'], kind: 'text' },
    tax_mode: { path: ['taxMode'], kind: 'text' },
    'unit_price.amount': { path: ['unitPrice', 'amount'], kind: 'integer' },
    'unit_price.currency_code': { path: ['unitPrice', 'currencyCode'], kind: 'text' },
  },
};

export const customersTable: DocumentTableSpec<Customer, CustomerColumn> = {
  table: 'customers',
  columns: {
    status: (customer) => customer.status,
    email: (customer) => customer.email,
    // `search` matches the id, name or email, case-insensitively (migration 0033 keeps old rows in step).
    search: (customer) => [customer.id, customer.name ?? '', customer.email].join('\n').toLowerCase(),
  },
};

export const addressesTable: DocumentTableSpec<Address, AddressColumn> = {
  table: 'addresses',
  columns: {
    customer_id: (address) => address.customerId,
    status: (address) => address.status,
    // `search` matches the id and every address field, case-insensitively.
    search: (address) =>
      [
        address.id,
        address.description ?? '',
        address.firstLine ?? '',
        address.secondLine ?? '',
        address.city ?? '',
        address.postalCode ?? '',
        address.region ?? '',
        address.countryCode,
      ]
        .join('\n')
        .toLowerCase(),
  },
};

export const businessesTable: DocumentTableSpec<Business, BusinessColumn> = {
  table: 'businesses',
  columns: {
    customer_id: (business) => business.customerId,
    status: (business) => business.status,
    // `search` matches the id, name, company number, tax identifier and contacts, case-insensitively.
    search: (business) =>
      [
        business.id,
        business.name,
        business.companyNumber ?? '',
        business.taxIdentifier ?? '',
        ...business.contacts.flatMap((contact) => [contact.name ?? '', contact.email]),
      ]
        .join('\n')
        .toLowerCase(),
  },
};

export const transactionRevisionsTable: DocumentTableSpec<TransactionRevision, 'id'> = {
  table: 'transaction_revisions',
  columns: {},
};

export const usageBalanceUnitsTable: DocumentTableSpec<UsageBalanceUnit, UsageBalanceUnitColumn> = {
  table: 'usage_balance_units',
  columns: { status: (unit) => unit.status },
};

export const metersTable: DocumentTableSpec<Meter, MeterColumn> = {
  table: 'meters',
  columns: {
    status: (meter) => meter.status,
    usage_balance_unit_id: (meter) => meter.usageBalanceUnitId,
    action: (meter) => meter.action,
  },
};

/** A discount without an expiry sorts after every instant, so expiry filters need no null test. */
export const NEVER_EXPIRES = '9999-12-31T23:59:59.999Z';

export const discountsTable: DocumentTableSpec<Discount, DiscountColumn> = {
  table: 'discounts',
  columns: {
    status: (discount) => discount.status,
    code: (discount) => discount.code?.toLowerCase() ?? null,
    mode: (discount) => discount.mode,
    discount_group_id: (discount) => discount.discountGroupId,
    expires_key: (discount) => discount.expiresAt ?? NEVER_EXPIRES,
  },
};

export const discountGroupsTable: DocumentTableSpec<DiscountGroup, DiscountGroupColumn> = {
  table: 'discount_groups',
  columns: { status: (group) => group.status },
};
