import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KeyStore } from '../../src/keys/key-store.js';
import { monthKey } from '../../src/metering/calendar-month.js';
import { QuotaStore } from '../../src/metering/quota-store.js';
import { openStateDatabase } from '../../src/shared/state-database.js';
import { FakeClock } from '../support/fake-clock.js';
import { createTestService } from '../support/test-service.js';

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

function tempStatePath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'price-search-quota-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'state.db');
}

describe('free plan: 50 lookups a month per client address, no key', () => {
  it('refuses the 51st lookup from one address with monthly_quota_exceeded, and serves another address', async () => {
    const clock = new FakeClock('2026-11-20T12:00:00Z');
    const { query } = await createTestService({ clock });
    for (let lookup = 1; lookup <= 50; lookup += 1) {
      const response = await query({ query: 'kettle' }, { address: '198.51.100.1' });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-quota-remaining')).toBe(String(50 - lookup));
    }
    const refused = await query({ query: 'kettle' }, { address: '198.51.100.1' });
    expect(refused.status).toBe(429);
    expect(await errorCode(refused)).toBe('monthly_quota_exceeded');
    // Until 2026-12-01T00:00:00Z: 10 days and 12 hours.
    expect(refused.headers.get('retry-after')).toBe(String((10 * 24 + 12) * 3600));

    expect((await query({ query: 'kettle' }, { address: '198.51.100.2' })).status).toBe(200);
  });

  it('counts lookups that found nothing, but not refused requests', async () => {
    const { query } = await createTestService({ monthlyLookups: { free: 2, pro: 5000, scale: undefined } });
    expect((await query({ query: 'zeppelin mast' })).headers.get('x-quota-remaining')).toBe('1');
    expect((await query({ query: 'kettle', max_results: 99 })).status).toBe(400);
    expect((await query({ query: 'kettle' })).headers.get('x-quota-remaining')).toBe('0');
  });

  it('starts again at 00:00 UTC on the first of the next month', async () => {
    const clock = new FakeClock('2026-11-30T23:59:59Z');
    const { query } = await createTestService({ clock, monthlyLookups: { free: 1, pro: 5000, scale: undefined } });
    expect((await query({ query: 'kettle' })).status).toBe(200);
    const refused = await query({ query: 'kettle' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    clock.advance(1_000);
    expect((await query({ query: 'kettle' })).status).toBe(200);
  });

  it('counts IPv6 clients per /64', async () => {
    const { query } = await createTestService({ monthlyLookups: { free: 1, pro: 5000, scale: undefined } });
    expect((await query({ query: 'kettle' }, { address: '2001:db8:1:2::1' })).status).toBe(200);
    expect((await query({ query: 'kettle' }, { address: '2001:db8:1:2:ffff::9' })).status).toBe(429);
    expect((await query({ query: 'kettle' }, { address: '2001:db8:1:3::1' })).status).toBe(200);
  });
});

describe('Pro and Scale keys (local quota store)', () => {
  it('refuses a Pro key after 5,000 lookups in the month and serves it again next month', async () => {
    const statePath = tempStatePath();
    const clock = new FakeClock('2026-11-20T12:00:00Z');
    const seed = openStateDatabase(statePath);
    const pro = new KeyStore(seed).create({ plan: 'pro', label: 'acme', now: clock.now() });
    const quotas = new QuotaStore(seed);
    seed.transaction(() => {
      for (let lookup = 0; lookup < 4_999; lookup += 1) quotas.increment(`key:${pro.id}`, monthKey(clock.now()));
    })();
    seed.close();

    const { query } = await createTestService({ statePath, clock });
    const last = await query({ query: 'kettle' }, { key: pro.key });
    expect(last.status).toBe(200);
    expect(last.headers.get('x-quota-limit')).toBe('5000');
    expect(last.headers.get('x-quota-remaining')).toBe('0');

    const refused = await query({ query: 'kettle' }, { key: pro.key });
    expect(refused.status).toBe(429);
    expect(await errorCode(refused)).toBe('monthly_quota_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // A keyless client at the same address is counted separately.
    expect((await query({ query: 'kettle' })).status).toBe(200);

    clock.set('2026-12-01T00:00:00Z');
    expect((await query({ query: 'kettle' }, { key: pro.key })).status).toBe(200);
  });

  it('never refuses a Scale key for quota and sends no quota headers', async () => {
    const { query, service } = await createTestService({ monthlyLookups: { free: 1, pro: 1, scale: undefined } });
    const scale = service.keys.create({ plan: 'scale', label: '', now: new Date() });
    for (let lookup = 0; lookup < 5; lookup += 1) {
      const response = await query({ query: 'kettle' }, { key: scale.key });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-quota-remaining')).toBeNull();
    }
  });

  it('refuses an unknown key, a malformed header and a revoked key with invalid_api_key', async () => {
    const { query, app, service } = await createTestService();
    const unknown = await query({ query: 'kettle' }, { key: `psk_${'A'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(await errorCode(unknown)).toBe('invalid_api_key');

    const malformed = await app.request('/api/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Token abc' },
      body: JSON.stringify({ query: 'kettle' }),
    });
    expect(malformed.status).toBe(401);

    const key = service.keys.create({ plan: 'pro', label: '', now: new Date() });
    expect((await query({ query: 'kettle' }, { key: key.key })).status).toBe(200);
    service.keys.revoke(key.id, new Date());
    const revoked = await query({ query: 'kettle' }, { key: key.key });
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);
  });

  it('takes the key from X-API-Key as well as Bearer, and refuses two different keys', async () => {
    const { app, service } = await createTestService({ monthlyLookups: { free: 50, pro: 5_000, scale: undefined } });
    const pro = service.keys.create({ plan: 'pro', label: '', now: new Date() });
    const other = service.keys.create({ plan: 'pro', label: '', now: new Date() });
    const send = (headers: Record<string, string>) =>
      app.request('/api/query', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9', ...headers },
        body: JSON.stringify({ query: 'kettle' }),
      });

    const viaHeader = await send({ 'x-api-key': pro.key });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.headers.get('x-quota-limit')).toBe('5000');
    expect(viaHeader.headers.get('x-quota-remaining')).toBe('4999');
    const both = await send({ 'x-api-key': pro.key, authorization: `Bearer ${pro.key}` });
    expect(both.headers.get('x-quota-remaining')).toBe('4998');

    const unknown = await send({ 'x-api-key': `psk_${'B'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(await errorCode(unknown)).toBe('invalid_api_key');
    const conflicting = await send({ 'x-api-key': pro.key, authorization: `Bearer ${other.key}` });
    expect(conflicting.status).toBe(401);
    expect(await errorCode(conflicting)).toBe('invalid_api_key');
  });

  it('stores only the SHA-256 of a key', async () => {
    const statePath = tempStatePath();
    const db = openStateDatabase(statePath);
    const created = new KeyStore(db).create({ plan: 'pro', label: '', now: new Date() });
    const rows = db.prepare('SELECT * FROM api_keys').all();
    db.close();
    expect(JSON.stringify(rows)).not.toContain(created.key);
    expect(JSON.stringify(rows)).toMatch(/"key_hash":"[0-9a-f]{64}"/);
  });
});

describe('short-term rate limit', () => {
  it('answers too_many_requests with Retry-After, apart from the monthly quota, and lets the client back in', async () => {
    const clock = new FakeClock('2026-11-20T12:00:00Z');
    const { query } = await createTestService({ clock, requestsPerMinute: { free: 2, pro: 60, scale: 600 } });
    expect((await query({ query: 'kettle' })).status).toBe(200);
    expect((await query({ query: 'kettle' })).status).toBe(200);
    const limited = await query({ query: 'kettle' });
    expect(limited.status).toBe(429);
    expect(await errorCode(limited)).toBe('too_many_requests');
    expect(limited.headers.get('retry-after')).toBe('30');
    clock.advance(30_000);
    const again = await query({ query: 'kettle' });
    expect(again.status).toBe(200);
    // Rate-limited requests did not use monthly quota: 3 lookups answered of 50.
    expect(again.headers.get('x-quota-remaining')).toBe('47');
  });
});
