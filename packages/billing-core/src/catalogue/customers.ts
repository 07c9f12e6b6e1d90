/**
 * @module
 * Customers are who pays. An email names one customer per account and environment.
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { DuplicateKeyError } from '../shared/collection.js';
import { type Ambient, type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { merge } from './catalogue-rules.js';
import type { CatalogueStatus, CustomData, Customer } from './entities.js';
import type { CatalogueSlice, CustomerColumn } from './repositories.js';

export interface CreateCustomerInput {
  readonly email: string;
  readonly name?: string | null | undefined;
  readonly locale?: string | undefined;
  readonly customData?: CustomData | undefined;
}

export interface UpdateCustomerInput {
  readonly email?: string | undefined;
  readonly name?: string | null | undefined;
  readonly locale?: string | undefined;
  readonly customData?: CustomData | undefined;
  readonly status?: CatalogueStatus | undefined;
}

function duplicateEmail(email: string): BillingError {
  return new BillingError('customer_already_exists', `A customer with email ${email} already exists.`, [
    { field: 'email', message: 'is already used by another customer' },
  ]);
}

/** Emails compare case-insensitively, so they are stored lower-cased. */
function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * What a new customer looks like, for every path that makes one (the API, the hosted checkout):
 * its email normalised, the public API's defaults for what was not given (locale `en`, no
 * marketing consent), active. It is not stored here.
 */
export function newCustomer(context: Ambient, input: CreateCustomerInput): Customer {
  const now = nowTimestamp(context);
  return {
    id: context.ids.newId('ctm'),
    name: input.name ?? null,
    email: normaliseEmail(input.email),
    marketingConsent: false,
    locale: input.locale ?? 'en',
    customData: input.customData ?? null,
    importMeta: null,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
}

export async function createCustomer(context: Context<CatalogueSlice>, input: CreateCustomerInput): Promise<Customer> {
  const customer = newCustomer(context, input);
  return context.store.transaction(async (tx) => {
    try {
      await tx.customers.insert(context.scope, customer);
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw duplicateEmail(customer.email);
      throw error;
    }
    await recordEvent(context, tx, 'customer.created', 'customer', customer);
    return customer;
  });
}

export async function updateCustomer(
  context: Context<CatalogueSlice>,
  id: string,
  input: UpdateCustomerInput,
): Promise<Customer> {
  return context.store.transaction(async (tx) => {
    const current = await tx.customers.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Customer', id);
    const email = input.email === undefined ? undefined : normaliseEmail(input.email);
    const next = merge(current, { ...input, email, updatedAt: nowTimestamp(context) });
    try {
      await tx.customers.update(context.scope, next);
    } catch (error) {
      if (error instanceof DuplicateKeyError) throw duplicateEmail(next.email);
      throw error;
    }
    await recordEvent(context, tx, 'customer.updated', 'customer', next);
    return next;
  });
}

export async function getCustomer(context: Context<CatalogueSlice>, id: string): Promise<Customer> {
  const customer = await context.store.customers.findById(context.scope, id);
  if (!customer) throw BillingError.notFound('Customer', id);
  return customer;
}

export function listCustomers(
  context: Context<CatalogueSlice>,
  query: ListQuery<CustomerColumn>,
): Promise<Page<Customer>> {
  return context.store.customers.list(context.scope, query);
}
