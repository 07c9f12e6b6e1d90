/**
 * @module
 * Storage ports of the catalogue: products, prices, customers and their addresses and
 * businesses, usage balance units and meters, each a `Collection` filtered by the columns below.
 */
import type { EventRepositories } from '../events/repositories.js';
import type { Collection } from '../shared/collection.js';
import type { Address, Business, Customer, Meter, Price, Product, UsageBalanceUnit } from './entities.js';

export type ProductColumn = 'id' | 'status' | 'type' | 'tax_category';

export type PriceColumn = 'id' | 'product_id' | 'status' | 'type' | 'recurring';

export type CustomerColumn = 'id' | 'status' | 'email' | 'search';

export type AddressColumn = 'id' | 'customer_id' | 'status' | 'search';

export type BusinessColumn = 'id' | 'customer_id' | 'status' | 'search';

export type UsageBalanceUnitColumn = 'id' | 'status';

export type MeterColumn = 'id' | 'status' | 'usage_balance_unit_id' | 'action';

/** The repositories the catalogue owns. */
export interface CatalogueRepositories {
  readonly products: Collection<Product, ProductColumn>;
  readonly prices: Collection<Price, PriceColumn>;
  readonly customers: Collection<Customer, CustomerColumn>;
  readonly addresses: Collection<Address, AddressColumn>;
  readonly businesses: Collection<Business, BusinessColumn>;
  readonly usageBalanceUnits: Collection<UsageBalanceUnit, UsageBalanceUnitColumn>;
  readonly meters: Collection<Meter, MeterColumn>;
}

/** What the catalogue uses: its repositories and the event log. */
export interface CatalogueSlice extends CatalogueRepositories, EventRepositories {}
