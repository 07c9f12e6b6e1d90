/**
 * @module
 * Accounts and API keys: plain tables, read by id on every authenticated request.
 */
import type {
  Account,
  AccountRepository,
  ApiKey,
  ApiKeyRepository,
  Environment,
  Permission,
} from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';

interface AccountRow extends Record<string, unknown> {
  id: string;
  name: string;
  early_access: number | boolean;
  created_at: string;
}

interface ApiKeyRow extends Record<string, unknown> {
  id: string;
  account_id: string;
  environment: Environment;
  name: string;
  permissions: string;
  secret_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** The account's columns as `findWithAccount` selects them beside the key's. */
interface AccountColumns {
  account_row_id: string | null;
  account_name: string | null;
  account_early_access: number | boolean | null;
  account_created_at: string | null;
}

function toAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, earlyAccess: Boolean(row.early_access), createdAt: row.created_at };
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    accountId: row.account_id,
    environment: row.environment,
    name: row.name,
    permissions: JSON.parse(row.permissions) as Permission[],
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export class SqlAccountRepository implements AccountRepository {
  constructor(private readonly executor: SqlExecutor) {}

  async insert(account: Account): Promise<void> {
    await this.executor.run('insert into accounts (id, name, early_access, created_at) values (?, ?, ?, ?)', [
      account.id,
      account.name,
      account.earlyAccess ? 1 : 0,
      account.createdAt,
    ]);
  }

  async findById(id: string): Promise<Account | undefined> {
    const row = await this.executor.get<AccountRow>('select * from accounts where id = ?', [id]);
    return row ? toAccount(row) : undefined;
  }

  async list(): Promise<readonly Account[]> {
    const rows = await this.executor.all<AccountRow>('select * from accounts order by id');
    return rows.map(toAccount);
  }

  async claimDemoAccount(accountId: string, createdAt: string): Promise<boolean> {
    const inserted = await this.executor.run(
      'insert into demo_account (singleton, account_id, created_at) values (1, ?, ?) on conflict do nothing',
      [accountId, createdAt],
    );
    return inserted === 1;
  }

  async demoAccountId(): Promise<string | undefined> {
    const row = await this.executor.get<{ account_id: string }>(
      'select account_id from demo_account where singleton = 1',
    );
    return row?.account_id;
  }
}

export class SqlApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly executor: SqlExecutor) {}

  async insert(key: ApiKey): Promise<void> {
    await this.executor.run(
      `insert into api_keys (id, account_id, environment, name, permissions, secret_hash, created_at, expires_at, revoked_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        key.id,
        key.accountId,
        key.environment,
        key.name,
        JSON.stringify(key.permissions),
        key.secretHash,
        key.createdAt,
        key.expiresAt,
        key.revokedAt,
      ],
    );
  }

  async findById(id: string): Promise<ApiKey | undefined> {
    const row = await this.executor.get<ApiKeyRow>('select * from api_keys where id = ?', [id]);
    return row ? toApiKey(row) : undefined;
  }

  async findWithAccount(id: string): Promise<{ key: ApiKey; account: Account | undefined } | undefined> {
    const row = await this.executor.get<ApiKeyRow & Partial<AccountColumns>>(
      `select k.*, a.id as account_row_id, a.name as account_name, a.early_access as account_early_access,
         a.created_at as account_created_at
       from api_keys k left join accounts a on a.id = k.account_id where k.id = ?`,
      [id],
    );
    if (!row) return undefined;
    const account =
      row.account_row_id == null
        ? undefined
        : toAccount({
            id: row.account_row_id,
            name: row.account_name ?? '',
            early_access: row.account_early_access ?? 0,
            created_at: row.account_created_at ?? '',
          });
    return { key: toApiKey(row), account };
  }

  async revoke(id: string, revokedAt: string): Promise<boolean> {
    const exists = await this.executor.get<{ id: string }>('select id from api_keys where id = ?', [id]);
    if (!exists) return false;
    await this.executor.run('update api_keys set revoked_at = coalesce(revoked_at, ?) where id = ?', [revokedAt, id]);
    return true;
  }

  async listByAccount(accountId: string, environment?: Environment): Promise<readonly ApiKey[]> {
    const rows = environment
      ? await this.executor.all<ApiKeyRow>(
          'select * from api_keys where account_id = ? and environment = ? order by id',
          [accountId, environment],
        )
      : await this.executor.all<ApiKeyRow>('select * from api_keys where account_id = ? order by id', [accountId]);
    return rows.map(toApiKey);
  }
}
