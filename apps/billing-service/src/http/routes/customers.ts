import {
  CreateAddressBody,
  CreateBusinessBody,
  CreateCustomerBody,
  UpdateAddressBody,
  UpdateBusinessBody,
  UpdateCustomerBody,
} from '@drawdown/billing-contract';
import type { AddressColumn, BusinessColumn, CustomerColumn } from '@drawdown/billing-core';
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
    search: { kind: 'contains', column: 'search' },
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
    return respondPage(c, await c.var.useCases.listCustomers(c.var.caller, query), perPage);
  });
  app.post('/customers', need('customer.write'), async (c) => {
    return respond(c, await c.var.useCases.createCustomer(c.var.caller, await readBody(c, CreateCustomerBody)), 201);
  });
  app.get('/customers/:id', need('customer.read'), async (c) => {
    return respond(c, await c.var.useCases.getCustomer(c.var.caller, pathId(c, 'ctm')));
  });
  app.patch('/customers/:id', need('customer.write'), async (c) => {
    const id = pathId(c, 'ctm');
    return respond(c, await c.var.useCases.updateCustomer(c.var.caller, id, await readBody(c, UpdateCustomerBody)));
  });

  app.get('/customers/:customer/credit-balances', need('customer.read'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const currencies = c.req.query('currency_code');
    const codes = currencies === undefined ? undefined : currencies.split(',').map((code) => code.trim());
    return respond(c, await c.var.useCases.listCreditBalances(c.var.caller, customerId, codes));
  });
  app.get('/customers/:customer/addresses', need('address.read'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const { query, perPage } = parseListParams(c, addressListSpec);
    return respondPage(c, await c.var.useCases.listAddresses(c.var.caller, customerId, query), perPage);
  });
  app.post('/customers/:customer/addresses', need('address.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    return respond(
      c,
      await c.var.useCases.createAddress(c.var.caller, customerId, await readBody(c, CreateAddressBody)),
      201,
    );
  });
  app.get('/customers/:customer/addresses/:id', need('address.read'), async (c) => {
    return respond(c, await c.var.useCases.getAddress(c.var.caller, pathId(c, 'ctm', 'customer'), pathId(c, 'add')));
  });
  app.patch('/customers/:customer/addresses/:id', need('address.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const id = pathId(c, 'add');
    return respond(
      c,
      await c.var.useCases.updateAddress(c.var.caller, customerId, id, await readBody(c, UpdateAddressBody)),
    );
  });

  app.get('/customers/:customer/businesses', need('business.read'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const { query, perPage } = parseListParams(c, businessListSpec);
    return respondPage(c, await c.var.useCases.listBusinesses(c.var.caller, customerId, query), perPage);
  });
  app.post('/customers/:customer/businesses', need('business.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    return respond(
      c,
      await c.var.useCases.createBusiness(c.var.caller, customerId, await readBody(c, CreateBusinessBody)),
      201,
    );
  });
  app.get('/customers/:customer/businesses/:id', need('business.read'), async (c) => {
    return respond(c, await c.var.useCases.getBusiness(c.var.caller, pathId(c, 'ctm', 'customer'), pathId(c, 'biz')));
  });
  app.patch('/customers/:customer/businesses/:id', need('business.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const id = pathId(c, 'biz');
    return respond(
      c,
      await c.var.useCases.updateBusiness(c.var.caller, customerId, id, await readBody(c, UpdateBusinessBody)),
    );
  });
}
