/**
 * @module
 * Client-side tokens (a document table with the token's hash beside the entity) and
 * customer authentication tokens (rows of hash, customer and expiry). Neither stores a token's
 * whole text (ADR 1431, ADR 1432).
 */
import type {
  ClientToken,
  ClientTokenColumn,
  ClientTokenRepository,
  CustomerAuthTokenRepository,
  Environment,
  ListQuery,
  Page,
  Scope,
  StoredClientToken,
  StoredCustomerAuthToken,
} from '@drawdown/billing-core';
import { forUpdate, type SqlExecutor } from '../sql/sql-database.js';
import { listPage } from './document-collection.js';

export class SqlClientTokenRepository implements ClientTokenRepository {
  constructor(private readonly executor: SqlExecutor) {}

  async insert(scope: Scope, stored: StoredClientToken): Promise<void> {
    await this.executor.run(
      `insert into client_tokens (account_id, environment, id, status, token_hash, body) values (?, ?, ?, ?, ?, ?)`,
      [
        scope.accountId,
        scope.environment,
        stored.token.id,
        stored.token.status,
        stored.tokenHash,
        JSON.stringify(stored.token),
      ],
    );
  }

  async update(scope: Scope, token: ClientToken): Promise<void> {
    await this.executor.run(
      'update client_tokens set status = ?, body = ? where account_id = ? and environment = ? and id = ?',
      [token.status, JSON.stringify(token), scope.accountId, scope.environment, token.id],
    );
  }

  findById(scope: Scope, id: string): Promise<ClientToken | undefined> {
    return this.find(scope, id, '');
  }

  findByIdForUpdate(scope: Scope, id: string): Promise<ClientToken | undefined> {
    return this.find(scope, id, forUpdate(this.executor.dialect));
  }

  list(scope: Scope, query: ListQuery<ClientTokenColumn>): Promise<Page<ClientToken>> {
    return listPage(this.executor, 'client_tokens', scope, query, (body) => JSON.parse(body) as ClientToken);
  }

  async findByHash(tokenHash: string): Promise<{ scope: Scope; token: ClientToken } | undefined> {
    const row = await this.executor.get<{ account_id: string; environment: Environment; body: string }>(
      'select account_id, environment, body from client_tokens where token_hash = ?',
      [tokenHash],
    );
    return row
      ? { scope: { accountId: row.account_id, environment: row.environment }, token: JSON.parse(row.body) }
      : undefined;
  }

  private async find(scope: Scope, id: string, lock: string): Promise<ClientToken | undefined> {
    const row = await this.executor.get<{ body: string }>(
      `select body from client_tokens where account_id = ? and environment = ? and id = ?${lock}`,
      [scope.accountId, scope.environment, id],
    );
    return row ? (JSON.parse(row.body) as ClientToken) : undefined;
  }
}

type CustomerAuthTokenRow = {
  readonly account_id: string;
  readonly environment: Environment;
  readonly id: string;
  readonly customer_id: string;
  readonly token_hash: string;
  readonly created_at: string;
  readonly expires_at: string;
};

export class SqlCustomerAuthTokenRepository implements CustomerAuthTokenRepository {
  constructor(private readonly executor: SqlExecutor) {}

  async insert(scope: Scope, token: StoredCustomerAuthToken): Promise<void> {
    await this.executor.run(
      `insert into customer_auth_tokens (account_id, environment, id, customer_id, token_hash, created_at, expires_at)
       values (?, ?, ?, ?, ?, ?, ?)`,
      [
        scope.accountId,
        scope.environment,
        token.id,
        token.customerId,
        token.tokenHash,
        token.createdAt,
        token.expiresAt,
      ],
    );
  }

  async findByHash(tokenHash: string): Promise<{ scope: Scope; token: StoredCustomerAuthToken } | undefined> {
    const row = await this.executor.get<CustomerAuthTokenRow>(
      'select * from customer_auth_tokens where token_hash = ?',
      [tokenHash],
    );
    if (!row) return undefined;
    return {
      scope: { accountId: row.account_id, environment: row.environment },
      token: {
        id: row.id,
        customerId: row.customer_id,
        tokenHash: row.token_hash,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      },
    };
  }

  async deleteExpired(scope: Scope, before: string): Promise<void> {
    await this.executor.run(
      'delete from customer_auth_tokens where account_id = ? and environment = ? and expires_at < ?',
      [scope.accountId, scope.environment, before],
    );
  }
}
