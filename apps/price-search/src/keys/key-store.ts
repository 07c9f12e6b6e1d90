/**
 * @module
 * API keys of the local mode, stored by hash with their plan. Revocation keeps the row (and its usage
 * history) and only stamps `revoked_at`.
 */
import type Database from 'better-sqlite3';
import type { KeyPlan } from '../metering/plans.js';
import { generateApiKey, generateKeyId, hashApiKey } from './api-key.js';
import { AuthenticatedKeyCache } from './key-cache.js';

/** A stored key, without its secret. */
export interface StoredKey {
  readonly id: string;
  readonly plan: KeyPlan;
  readonly label: string;
  readonly createdAt: string;
  readonly revokedAt: string | undefined;
}

/** A key just created: the only time the raw key exists. */
export interface CreatedKey extends StoredKey {
  readonly key: string;
}

interface KeyRow {
  id: string;
  plan: KeyPlan;
  label: string;
  created_at: string;
  revoked_at: string | null;
}

/** API keys in the state database. Lookups by key go through an in-process cache of one second (ADR 0217). */
export class KeyStore {
  readonly #findByHash: Database.Statement<[string], KeyRow>;
  readonly #cache: AuthenticatedKeyCache<StoredKey>;

  constructor(
    private readonly db: Database.Database,
    cache: AuthenticatedKeyCache<StoredKey> = new AuthenticatedKeyCache<StoredKey>(),
  ) {
    this.#cache = cache;
    db.exec(`CREATE TABLE IF NOT EXISTS api_keys (
      id TEXT PRIMARY KEY,
      key_hash TEXT NOT NULL UNIQUE,
      plan TEXT NOT NULL CHECK (plan IN ('pro', 'scale')),
      label TEXT NOT NULL,
      created_at TEXT NOT NULL,
      revoked_at TEXT
    )`);
    this.#findByHash = db.prepare('SELECT * FROM api_keys WHERE key_hash = ?');
  }

  /** Creates a key for `plan`. */
  create(input: { plan: KeyPlan; label: string; now: Date }): CreatedKey {
    const key = generateApiKey();
    const stored: StoredKey = {
      id: generateKeyId(),
      plan: input.plan,
      label: input.label,
      createdAt: input.now.toISOString(),
      revokedAt: undefined,
    };
    this.db
      .prepare('INSERT INTO api_keys (id, key_hash, plan, label, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(stored.id, hashApiKey(key), stored.plan, stored.label, stored.createdAt);
    return { ...stored, key };
  }

  /** Revokes a key; false when no active key has that id. */
  revoke(id: string, now: Date): boolean {
    const result = this.db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(now.toISOString(), id);
    this.#cache.forget(id);
    return result.changes === 1;
  }

  /**
   * The key whose raw value is `rawKey`, revoked or not. An active key found in the last second is answered
   * from memory; a key revoked by another process is therefore refused within a second of the revocation.
   */
  findByKey(rawKey: string): StoredKey | undefined {
    const keyHash = hashApiKey(rawKey);
    const cached = this.#cache.find(keyHash);
    if (cached !== undefined) return cached;
    const ticket = this.#cache.beginRead();
    const row = this.#findByHash.get(keyHash);
    if (row === undefined) return undefined;
    const key = fromRow(row);
    this.#cache.remember(keyHash, key, ticket);
    return key;
  }

  /** All keys, newest first. */
  list(): StoredKey[] {
    const rows = this.db.prepare('SELECT * FROM api_keys ORDER BY created_at DESC, id').all() as KeyRow[];
    return rows.map(fromRow);
  }
}

function fromRow(row: KeyRow): StoredKey {
  return {
    id: row.id,
    plan: row.plan,
    label: row.label,
    createdAt: row.created_at,
    revokedAt: row.revoked_at ?? undefined,
  };
}
