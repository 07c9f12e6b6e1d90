import type { Migration } from './migration.js';

/**
 * Client-side tokens and customer authentication tokens (issue 14, ADR 1431 and 1432). Both
 * keep only the SHA-256 of the token; a presented token is looked up by its hash, in any
 * account, and its row names the account and environment it belongs to.
 */
export const clientAndCustomerTokens: Migration = {
  id: '0120-client-and-customer-tokens',
  statements: () => [
    `create table client_tokens (
  account_id text not null,
  environment text not null,
  id text not null,
  status text not null,
  token_hash text not null,
  body text not null,
  primary key (account_id, environment, id)
)`,
    'create unique index client_tokens_by_hash on client_tokens (token_hash)',
    'create index client_tokens_by_status on client_tokens (account_id, environment, status, id)',
    `create table customer_auth_tokens (
  account_id text not null,
  environment text not null,
  id text not null,
  customer_id text not null,
  token_hash text not null,
  created_at text not null,
  expires_at text not null,
  primary key (account_id, environment, id)
)`,
    'create unique index customer_auth_tokens_by_hash on customer_auth_tokens (token_hash)',
    'create index customer_auth_tokens_by_expiry on customer_auth_tokens (account_id, environment, expires_at)',
  ],
};
