/**
 * @module
 * Businesses belong to a customer: the company name, company number, tax identifier and
 * contacts that a business buyer needs on its invoices. Archiving is an update of status.
 */

import { recordEvent } from '../events/record-event.js';
import { BillingError } from '../shared/billing-error.js';
import { type Ambient, type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import { merge } from './catalogue-rules.js';
import type { Business, BusinessContact, CatalogueStatus, CustomData } from './entities.js';
import type { BusinessColumn, CatalogueSlice } from './repositories.js';

export interface BusinessContactInput {
  readonly name?: string | null | undefined;
  readonly email: string;
}

function contactsOf(contacts: readonly BusinessContactInput[] | null | undefined): BusinessContact[] {
  return (contacts ?? []).map((contact) => ({ name: contact.name ?? null, email: contact.email }));
}

export interface CreateBusinessInput {
  readonly name: string;
  readonly companyNumber?: string | null | undefined;
  readonly taxIdentifier?: string | null | undefined;
  readonly contacts?: readonly BusinessContactInput[] | null | undefined;
  readonly customData?: CustomData | undefined;
}

type Optional<T> = { readonly [Key in keyof T]?: T[Key] | undefined };

export interface UpdateBusinessInput extends Optional<CreateBusinessInput> {
  readonly status?: CatalogueStatus | undefined;
}

async function requireCustomer(context: Context<CatalogueSlice>, customerId: string): Promise<void> {
  const customer = await context.store.customers.findById(context.scope, customerId);
  if (!customer) throw BillingError.notFound('Customer', customerId);
}

/**
 * What a new business looks like, for the API and for the checkout (ADR 1113): active, with the
 * given name and numbers, no import record.
 */
export function newBusiness(context: Ambient, customerId: string, input: CreateBusinessInput): Business {
  const now = nowTimestamp(context);
  return {
    id: context.ids.newId('biz'),
    customerId,
    name: input.name,
    companyNumber: input.companyNumber ?? null,
    taxIdentifier: input.taxIdentifier ?? null,
    contacts: contactsOf(input.contacts),
    customData: input.customData ?? null,
    status: 'active',
    importMeta: null,
    createdAt: now,
    updatedAt: now,
  };
}

export async function createBusiness(
  context: Context<CatalogueSlice>,
  customerId: string,
  input: CreateBusinessInput,
): Promise<Business> {
  await requireCustomer(context, customerId);
  const business = newBusiness(context, customerId, input);
  return context.store.transaction(async (tx) => {
    await tx.businesses.insert(context.scope, business);
    await recordEvent(context, tx, 'business.created', 'business', business);
    return business;
  });
}

export async function updateBusiness(
  context: Context<CatalogueSlice>,
  customerId: string,
  id: string,
  input: UpdateBusinessInput,
): Promise<Business> {
  return context.store.transaction(async (tx) => {
    const current = await tx.businesses.findByIdForUpdate(context.scope, id);
    if (!current || current.customerId !== customerId) throw BillingError.notFound('Business', id);
    const { contacts, ...rest } = input;
    const next = merge(current, {
      ...rest,
      ...(contacts === undefined ? {} : { contacts: contactsOf(contacts) }),
      updatedAt: nowTimestamp(context),
    });
    await tx.businesses.update(context.scope, next);
    await recordEvent(context, tx, 'business.updated', 'business', next);
    return next;
  });
}

export async function getBusiness(context: Context<CatalogueSlice>, customerId: string, id: string): Promise<Business> {
  const business = await context.store.businesses.findById(context.scope, id);
  if (!business || business.customerId !== customerId) throw BillingError.notFound('Business', id);
  return business;
}

export async function listBusinesses(
  context: Context<CatalogueSlice>,
  customerId: string,
  query: ListQuery<BusinessColumn>,
): Promise<Page<Business>> {
  await requireCustomer(context, customerId);
  const filter = { ...query.filter, customer_id: [{ op: 'in', values: [customerId] } as const] };
  return context.store.businesses.list(context.scope, { ...query, filter });
}

/**
 * The business a transaction or subscription names: it must belong to the same customer and
 * be active.
 * @throws BillingError `transaction_customer_is_required_for_business_validation`,
 *   `business_not_found`, `transaction_business_customer_mismatch`, `entity_archived`.
 */
export async function resolveBusiness(
  context: Context<CatalogueSlice>,
  tx: CatalogueSlice,
  businessId: string,
  customerId: string | null,
): Promise<Business> {
  if (customerId === null) {
    throw new BillingError(
      'transaction_customer_is_required_for_business_validation',
      'A business_id needs a customer_id to check it against.',
    );
  }
  const business = await tx.businesses.findById(context.scope, businessId);
  if (!business) throw new BillingError('business_not_found', `Business ${businessId} not found.`);
  if (business.customerId !== customerId) {
    throw new BillingError(
      'transaction_business_customer_mismatch',
      `Business ${businessId} belongs to another customer than ${customerId}.`,
    );
  }
  if (business.status === 'archived') throw new BillingError('entity_archived', `Business ${businessId} is archived.`);
  return business;
}
