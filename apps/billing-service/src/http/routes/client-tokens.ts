/**
 * @module
 * Client-side tokens (`/client-tokens`) and customer authentication tokens (`POST
 * /customers/{id}/auth-token`), ADR 1431 and ADR 1432. The whole client token appears only in
 * the create answer; reads show it masked.
 */
import {
  CreateClientTokenBody,
  GenerateCustomerAuthTokenBody,
  UpdateClientTokenBody,
} from '@drawdown/billing-contract';
import { CLIENT_TOKEN_STATUSES, type ClientTokenColumn } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const clientTokenListSpec: ListSpec<ClientTokenColumn> = {
  idPrefix: 'ctkn',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    status: { kind: 'enum', column: 'status', values: CLIENT_TOKEN_STATUSES },
  },
  defaults: { status: 'active' },
};

export function registerClientTokenRoutes(app: Hono<AppEnv>): void {
  app.get('/client-tokens', need('client_token.read'), async (c) => {
    const { query, perPage } = parseListParams(c, clientTokenListSpec);
    return respondPage(c, await c.var.useCases.listClientTokens(c.var.caller, query), perPage);
  });
  app.post('/client-tokens', need('client_token.write'), async (c) => {
    const body = await readBody(c, CreateClientTokenBody);
    return respond(c, await c.var.useCases.createClientToken(c.var.caller, body), 201);
  });
  app.get('/client-tokens/:id', need('client_token.read'), async (c) => {
    return respond(c, await c.var.useCases.getClientToken(c.var.caller, pathId(c, 'ctkn')));
  });
  app.patch('/client-tokens/:id', need('client_token.write'), async (c) => {
    const id = pathId(c, 'ctkn');
    return respond(
      c,
      await c.var.useCases.updateClientToken(c.var.caller, id, await readBody(c, UpdateClientTokenBody)),
    );
  });

  app.post('/customers/:customer/auth-token', need('customer_auth_token.write'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    await readBody(c, GenerateCustomerAuthTokenBody);
    return respond(c, await c.var.useCases.generateCustomerAuthToken(c.var.caller, customerId));
  });
}
