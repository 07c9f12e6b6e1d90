/**
 * @module
 * Addresses belong to a customer and give the country that tax depends on.
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Ambient, type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { merge } from './catalogue-rules.js';
import type { Address, CatalogueStatus, CustomData } from './entities.js';
import type { AddressColumn, CatalogueSlice } from './repositories.js';

export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;

export interface CreateAddressInput {
  readonly countryCode: string;
  readonly description?: string | null | undefined;
  readonly firstLine?: string | null | undefined;
  readonly secondLine?: string | null | undefined;
  readonly city?: string | null | undefined;
  readonly postalCode?: string | null | undefined;
  readonly region?: string | null | undefined;
  readonly customData?: CustomData | undefined;
}

type Optional<T> = { readonly [Key in keyof T]?: T[Key] | undefined };

export interface UpdateAddressInput extends Optional<CreateAddressInput> {
  readonly status?: CatalogueStatus | undefined;
}

function validateCountry(countryCode: string | undefined): void {
  if (countryCode !== undefined && !COUNTRY_CODE_PATTERN.test(countryCode)) {
    throw BillingError.invalidField('country_code', 'must be an ISO 3166-1 alpha-2 code such as GB');
  }
}

async function requireCustomer(context: Context<CatalogueSlice>, customerId: string): Promise<void> {
  const customer = await context.store.customers.findById(context.scope, customerId);
  if (!customer) throw BillingError.notFound('Customer', customerId);
}

/**
 * What a new address of a customer looks like, for every path that makes one (the API, the
 * hosted checkout): what was not given is null, active. Nothing is checked or stored here.
 */
export function newAddress(context: Ambient, customerId: string, input: CreateAddressInput): Address {
  const now = nowTimestamp(context);
  return {
    id: context.ids.newId('add'),
    customerId,
    description: input.description ?? null,
    firstLine: input.firstLine ?? null,
    secondLine: input.secondLine ?? null,
    city: input.city ?? null,
    postalCode: input.postalCode ?? null,
    region: input.region ?? null,
    countryCode: input.countryCode,
    customData: input.customData ?? null,
    importMeta: null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
}

export async function createAddress(
  context: Context<CatalogueSlice>,
  customerId: string,
  input: CreateAddressInput,
): Promise<Address> {
  validateCountry(input.countryCode);
  await requireCustomer(context, customerId);
  const address = newAddress(context, customerId, input);
  return context.store.transaction(async (tx) => {
    await tx.addresses.insert(context.scope, address);
    await recordEvent(context, tx, 'address.created', 'address', address);
    return address;
  });
}

export async function updateAddress(
  context: Context<CatalogueSlice>,
  customerId: string,
  id: string,
  input: UpdateAddressInput,
): Promise<Address> {
  validateCountry(input.countryCode);
  return context.store.transaction(async (tx) => {
    const current = await tx.addresses.findByIdForUpdate(context.scope, id);
    if (!current || current.customerId !== customerId) throw BillingError.notFound('Address', id);
    const next = merge(current, { ...input, updatedAt: nowTimestamp(context) });
    await tx.addresses.update(context.scope, next);
    await recordEvent(context, tx, 'address.updated', 'address', next);
    return next;
  });
}

export async function getAddress(context: Context<CatalogueSlice>, customerId: string, id: string): Promise<Address> {
  const address = await context.store.addresses.findById(context.scope, id);
  if (!address || address.customerId !== customerId) throw BillingError.notFound('Address', id);
  return address;
}

export async function listAddresses(
  context: Context<CatalogueSlice>,
  customerId: string,
  query: ListQuery<AddressColumn>,
): Promise<Page<Address>> {
  await requireCustomer(context, customerId);
  const filter = { ...query.filter, customer_id: [{ op: 'in', values: [customerId] } as const] };
  return context.store.addresses.list(context.scope, { ...query, filter });
}
