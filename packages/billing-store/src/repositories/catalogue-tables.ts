/**
 * @module
 * The catalogue's document tables and the columns each promotes for its list filters.
 */
import type {
  Address,
  AddressColumn,
  Customer,
  CustomerColumn,
  Meter,
  MeterColumn,
  Price,
  PriceColumn,
  Product,
  ProductColumn,
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
};

export const pricesTable: DocumentTableSpec<Price, PriceColumn> = {
  table: 'prices',
  columns: {
    product_id: (price) => price.productId,
    status: (price) => price.status,
    type: (price) => price.type,
    recurring: (price) => String(price.billingCycle !== null),
  },
};

export const customersTable: DocumentTableSpec<Customer, CustomerColumn> = {
  table: 'customers',
  columns: {
    status: (customer) => customer.status,
    email: (customer) => customer.email,
    // `search` matches name or email, case-insensitively.
    search: (customer) => `${customer.name ?? ''}\n${customer.email}`.toLowerCase(),
  },
};

export const addressesTable: DocumentTableSpec<Address, AddressColumn> = {
  table: 'addresses',
  columns: { customer_id: (address) => address.customerId, status: (address) => address.status },
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
