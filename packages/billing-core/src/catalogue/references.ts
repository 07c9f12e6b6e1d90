/**
 * @module
 * Entities a request body names by id. Each must be one of the caller's (its account and
 * environment, and for an address its customer's) and usable (not archived), or the request is
 * refused: `<entity>_not_found` when it names nothing the caller may use, `entity_archived`
 * when it is archived (ADR 0008, ADR 0902). Every use case resolves a referenced id here, so
 * the rule has one home.
 */

import { BillingError } from '../shared/billing-error.js';
import type { ErrorCode } from '../shared/error-codes.js';
import type { Scope } from '../shared/scope.js';
import type { Address, Customer, Price, Product, UsageBalanceUnit } from './entities.js';
import type { CatalogueSlice } from './repositories.js';

interface Lookup<Entity> {
  findById(scope: Scope, id: string): Promise<Entity | undefined>;
}

/** The caller's entity `id` from `lookup`, if it exists and is not archived; else the refusal `missing`. */
export async function usable<Entity extends { readonly status: string }>(
  lookup: Lookup<Entity>,
  scope: Scope,
  id: string,
  notFound: ErrorCode,
  label: string,
): Promise<Entity> {
  const entity = await lookup.findById(scope, id);
  if (!entity) throw new BillingError(notFound, `${label} ${id} not found.`);
  if (entity.status === 'archived') throw new BillingError('entity_archived', `${label} ${id} is archived.`);
  return entity;
}

export type Reader<Name extends keyof CatalogueSlice> = Pick<CatalogueSlice, Name>;

/** The caller's active product `id`. */
export function usableProduct(repositories: Reader<'products'>, scope: Scope, id: string): Promise<Product> {
  return usable(repositories.products, scope, id, 'product_not_found', 'Product');
}

/** The caller's active price `id`. */
export function usablePrice(repositories: Reader<'prices'>, scope: Scope, id: string): Promise<Price> {
  return usable(repositories.prices, scope, id, 'price_not_found', 'Price');
}

/** The caller's active customer `id`. */
export function usableCustomer(repositories: Reader<'customers'>, scope: Scope, id: string): Promise<Customer> {
  return usable(repositories.customers, scope, id, 'customer_not_found', 'Customer');
}

/** The caller's active usage balance unit `id`. */
export function usableUsageBalanceUnit(
  repositories: Reader<'usageBalanceUnits'>,
  scope: Scope,
  id: string,
): Promise<UsageBalanceUnit> {
  return usable(repositories.usageBalanceUnits, scope, id, 'usage_balance_unit_not_found', 'Usage balance unit');
}

/**
 * The active address `id` of customer `customerId`. Another customer's address is refused
 * like a missing one (`address_not_found`): it is not this customer's to use.
 */
export async function usableAddressOf(
  repositories: Reader<'addresses'>,
  scope: Scope,
  customerId: string,
  id: string,
): Promise<Address> {
  const address = await usable(repositories.addresses, scope, id, 'address_not_found', 'Address');
  if (address.customerId !== customerId) {
    throw new BillingError('address_not_found', `Address ${id} is not an address of customer ${customerId}.`);
  }
  return address;
}
