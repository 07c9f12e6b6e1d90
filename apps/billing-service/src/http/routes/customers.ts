import {
  CreateAddressBody,
  CreateBusinessBody,
  CreateCustomerBody,
  UpdateAddressBody,
  UpdateBusinessBody,
  UpdateCustomerBody,
} from '@drawdown/billing-contract';
import {
  type AddressColumn,
  type BusinessColumn,
  type CustomerColumn,
  createAddress,
  createBusiness,
  createCustomer,
  getAddress,
  getBusiness,
  getCustomer,
  listAddresses,
  listBusinesses,
  listCustomers,
  updateAddress,
  updateBusiness,
  updateCustomer,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const customerListSpec: ListSpec<CustomerColumn> = {
  idPrefix: 'ctm',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'ctm' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
    email: { kind: 'text', column: 'email' },
    search: { kind: 'contains', column: 'search' },
  },
  defaults: { status: 'active' },
};

const addressListSpec: ListSpec<AddressColumn> = {
  idPrefix: 'add',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'add' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
  },
  defaults: { status: 'active' },
};

const businessListSpec: ListSpec<BusinessColumn> = {
  idPrefix: 'biz',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    id: { kind: 'ids', column: 'id', prefix: 'biz' },
    status: { kind: 'enum', column: 'status', values: ['active', 'archived'] },
    search: { kind: 'contains', column: 'search' },
  },
  defaults: { status: 'active' },
};

export function registerCustomerRoutes(app: Hono<AppEnv>): void {
  app.get('/customers', need('customer.read'), async (c) => {
    const { query, perPage } = parseListParams(c, customerListSpec);
    return respondPage(c, await listCustomers(c.var.context, query), perPage);
  });
  app.post('/customers', need('customer.write'), async (c) => {
    return respond(c, await createCustomer(c.var.context, await readBody(c, CreateCustomerBody)), 201);
  });
  app.get('/customers/:id', need('customer.read'), async (c) => {
    return respond(c, await getCustomer(c.var.context, pathId(c, 'ctm')));
  });
  app.patch('/customers/:id', need('customer.write'), async (c) => {
    const id = pathId(c, 'ctm');
    return respond(c, await updateCustomer(c.var.context, id, await readBody(c, UpdateCustomerBody)));
  });

  app.get('/customers/:customer/addresses', need('address.read'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const { query, perPage } = parseListParams(c, addressListSpec);
    return respondPage(c, await listAddresses(c.var.context, customerId, query), perPage);
  });
  app.post('/customers/:customer/addresses', need('address.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    return respond(c, await createAddress(c.var.context, customerId, await readBody(c, CreateAddressBody)), 201);
  });
  app.get('/customers/:customer/addresses/:id', need('address.read'), async (c) => {
    return respond(c, await getAddress(c.var.context, pathId(c, 'ctm', 'customer'), pathId(c, 'add')));
  });
  app.patch('/customers/:customer/addresses/:id', need('address.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const id = pathId(c, 'add');
    return respond(c, await updateAddress(c.var.context, customerId, id, await readBody(c, UpdateAddressBody)));
  });

  app.get('/customers/:customer/businesses', need('business.read'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const { query, perPage } = parseListParams(c, businessListSpec);
    return respondPage(c, await listBusinesses(c.var.context, customerId, query), perPage);
  });
  app.post('/customers/:customer/businesses', need('business.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    return respond(c, await createBusiness(c.var.context, customerId, await readBody(c, CreateBusinessBody)), 201);
  });
  app.get('/customers/:customer/businesses/:id', need('business.read'), async (c) => {
    return respond(c, await getBusiness(c.var.context, pathId(c, 'ctm', 'customer'), pathId(c, 'biz')));
  });
  app.patch('/customers/:customer/businesses/:id', need('business.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const id = pathId(c, 'biz');
    return respond(c, await updateBusiness(c.var.context, customerId, id, await readBody(c, UpdateBusinessBody)));
  });
}
