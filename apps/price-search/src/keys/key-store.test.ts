import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openStateDatabase } from '../shared/state-database.js';
import { AuthenticatedKeyCache, KEY_CACHE_TTL_MS, type KeyReadTicket } from './key-cache.js';
import { KeyStore, type StoredKey } from './key-store.js';

/** A service's key store and the CLI's (another connection to the same state file), on a clock the test moves. */
function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'price-search-keys-'));
  const service = openStateDatabase(join(dir, 'state.db'));
  const cli = openStateDatabase(join(dir, 'state.db'));
  onTestFinished(() => {
    service.close();
    cli.close();
    rmSync(dir, { recursive: true, force: true });
  });
  let now = 1_000;
  const cache = new AuthenticatedKeyCache<StoredKey>(() => now);
  return {
    keys: new KeyStore(service, cache),
    cliKeys: new KeyStore(cli),
    cache,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('KeyStore with its one-second cache (ADR 0217)', () => {
  it('honours a revocation made by another process within the second, not before the entry expires', () => {
    const { keys, cliKeys, advance } = setup();
    const created = cliKeys.create({ plan: 'pro', label: '', now: new Date() });
    expect(keys.findByKey(created.key)?.revokedAt).toBeUndefined();
    expect(cliKeys.revoke(created.id, new Date())).toBe(true);
    // Still the cached entry: the bound the ADR accepts.
    advance(KEY_CACHE_TTL_MS - 1);
    expect(keys.findByKey(created.key)?.revokedAt).toBeUndefined();
    advance(1);
    expect(keys.findByKey(created.key)?.revokedAt).toBeDefined();
    // A revoked key is never kept: it is read (and refused) every time.
    advance(KEY_CACHE_TTL_MS * 10);
    expect(keys.findByKey(created.key)?.revokedAt).toBeDefined();
  });

  it('applies a revocation in this process at once', () => {
    const { keys } = setup();
    const created = keys.create({ plan: 'scale', label: '', now: new Date() });
    expect(keys.findByKey(created.key)?.plan).toBe('scale');
    keys.revoke(created.id, new Date());
    expect(keys.findByKey(created.key)?.revokedAt).toBeDefined();
  });

  it('does not remember an unknown key: one created a moment later works at once', () => {
    const { keys, cliKeys } = setup();
    const created = cliKeys.create({ plan: 'pro', label: '', now: new Date() });
    expect(keys.findByKey(`${created.key.slice(0, -1)}${created.key.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(keys.findByKey(created.key)?.id).toBe(created.id);
  });

  it('does not keep a read that a revocation in this process overtook', () => {
    let now = 0;
    const cache = new AuthenticatedKeyCache(() => now);
    const key = { id: 'key_1', plan: 'pro' as const, label: '', createdAt: '', revokedAt: undefined };
    const ticket: KeyReadTicket = cache.beginRead();
    cache.forget('key_1');
    cache.remember('hash', key, ticket);
    expect(cache.find('hash')).toBeUndefined();
    // The lifetime counts from before the read.
    now = 500;
    const later = cache.beginRead();
    now = 900;
    cache.remember('hash', key, later);
    now = 500 + KEY_CACHE_TTL_MS - 1;
    expect(cache.find('hash')).toEqual(key);
    now = 500 + KEY_CACHE_TTL_MS;
    expect(cache.find('hash')).toBeUndefined();
  });
});
