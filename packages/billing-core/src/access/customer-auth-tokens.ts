/**
 * @module
 * Customer authentication tokens (ADR 1432): `POST /customers/{id}/auth-token` issues a token
 * that lets a browser page act for one customer for 30 minutes, as the public API's browser
 * library uses it to show the customer's saved payment methods at checkout. The token is
 * `pca_<token id>_<customer id>_<secret>`; only its SHA-256 is stored. `verifyCustomerAuthToken`
 * is the one check every page that accepts such a token runs: the token exists, belongs to the
 * account and environment asking (and to the customer, when one is named), and has not expired
 * on that account environment's clock.
 */
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { TokenContext } from './client-tokens.js';
import type { AccessSlice } from './repositories.js';

/** How long a customer auth token works: 30 minutes, as the public API documents. */
export const CUSTOMER_AUTH_TOKEN_LIFETIME_MS = 30 * 60 * 1000;

export interface CustomerAuthToken {
  readonly customerAuthToken: string;
  readonly expiresAt: string;
}

const TOKEN_PATTERN = /^pca_([a-z\d]{26})_([a-z\d]{26})_([A-Za-z\d]{32,64})$/;

/** Issues a token for an active customer of the caller's account environment. */
export async function generateCustomerAuthToken(context: TokenContext, customerId: string): Promise<CustomerAuthToken> {
  const customer = await context.store.customers.findById(context.scope, customerId);
  if (!customer) throw BillingError.notFound('Customer', customerId);
  if (customer.status !== 'active') {
    throw new BillingError('entity_archived', `Customer ${customerId} is archived.`);
  }
  const id = context.ids.newId('pca');
  const whole = `${id}_${customerId.slice('ctm_'.length)}_${context.secrets.generateSecret()}`;
  const createdAt = nowTimestamp(context);
  const expiresAt = toTimestamp(context.clock.now() + CUSTOMER_AUTH_TOKEN_LIFETIME_MS);
  // Expired tokens are never accepted again; each issue clears its environment's old ones.
  await context.store.customerAuthTokens.deleteExpired(context.scope, createdAt);
  await context.store.customerAuthTokens.insert(context.scope, {
    id,
    customerId,
    tokenHash: context.secrets.hash(whole),
    createdAt,
    expiresAt,
  });
  return { customerAuthToken: whole, expiresAt };
}

export interface VerifiedCustomer {
  readonly customerId: string;
  readonly expiresAt: string;
}

/**
 * The customer a token acts for, when it was issued in `context`'s account environment (for
 * `customerId`, when given) and has not expired on its clock.
 * @throws BillingError `invalid_customer_auth_token` otherwise, without saying which check failed.
 */
export async function verifyCustomerAuthToken(
  context: Context<AccessSlice> & { readonly secrets: TokenContext['secrets'] },
  presented: string,
  customerId?: string | undefined,
): Promise<VerifiedCustomer> {
  const refuse = () =>
    new BillingError('invalid_customer_auth_token', 'Invalid or expired customer authentication token.');
  const match = TOKEN_PATTERN.exec(presented);
  if (!match) throw refuse();
  const found = await context.store.customerAuthTokens.findByHash(context.secrets.hash(presented));
  if (!found) throw refuse();
  const { scope, token } = found;
  if (scope.accountId !== context.scope.accountId || scope.environment !== context.scope.environment) throw refuse();
  if (customerId !== undefined && token.customerId !== customerId) throw refuse();
  if (Date.parse(token.expiresAt) <= context.clock.now()) throw refuse();
  return { customerId: token.customerId, expiresAt: token.expiresAt };
}
