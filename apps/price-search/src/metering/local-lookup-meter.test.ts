import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Clock } from '../shared/clock.js';
import { LocalLookupMeter, QUOTA_FLUSH_BATCH } from './local-lookup-meter.js';
import type { ClientIdentity, LookupId } from './lookup-meter.js';
import { QuotaStore } from './quota-store.js';

function setup(iso: string) {
  let now = Date.parse(iso);
  const clock: Clock = { now: () => new Date(now) };
  const db = new Database(':memory:');
  onTestFinished(() => {
    db.close();
  });
  const store = new QuotaStore(db);
  const logged: string[] = [];
  const meter = new LocalLookupMeter(store, clock, { free: 2, pro: 3, scale: undefined }, (line) => logged.push(line));
  onTestFinished(() => meter.flush());
  const set = (next: string): void => {
    now = Date.parse(next);
  };
  return { meter, store, set, clock, logged };
}

const anonymous: ClientIdentity = { kind: 'anonymous', plan: 'free', address: '192.0.2.1' };
const id = (n: number) => `lkp_${n}` as LookupId;

describe('LocalLookupMeter', () => {
  it('allows the allowance and refuses the next lookup until the next UTC month', async () => {
    const { meter, set } = setup('2026-01-31T23:00:00Z');
    for (const n of [1, 2]) {
      expect(await meter.authorize(anonymous, id(n))).toMatchObject({ allowed: true, limit: 2, remaining: 2 - n });
      await meter.record(anonymous, id(n));
    }
    expect(await meter.authorize(anonymous, id(3))).toEqual({
      allowed: false,
      reason: 'monthly_quota_exceeded',
      limit: 2,
      resetsAt: new Date('2026-02-01T00:00:00Z'),
    });
    set('2026-02-01T00:00:00Z');
    expect((await meter.authorize(anonymous, id(4))).allowed).toBe(true);
  });

  it('holds a reservation so concurrent lookups cannot overrun the allowance', async () => {
    const { meter } = setup('2026-03-10T10:00:00Z');
    const decisions = await Promise.all([1, 2, 3].map((n) => meter.authorize(anonymous, id(n))));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
  });

  it('gives a released reservation back', async () => {
    const { meter } = setup('2026-03-10T10:00:00Z');
    await meter.authorize(anonymous, id(1));
    await meter.authorize(anonymous, id(2));
    await meter.release(anonymous, id(2));
    expect((await meter.authorize(anonymous, id(3))).allowed).toBe(true);
  });

  it('records a lookup once however often record is called', async () => {
    const { meter, store } = setup('2026-03-10T10:00:00Z');
    await meter.authorize(anonymous, id(1));
    await meter.record(anonymous, id(1));
    await meter.record(anonymous, id(1));
    meter.flush();
    expect(store.used('ip:192.0.2.1', '2026-03')).toBe(1);
  });

  it('charges a lookup to the month it was authorized in', async () => {
    const { meter, store, set } = setup('2026-03-31T23:59:59Z');
    await meter.authorize(anonymous, id(1));
    set('2026-04-01T00:00:01Z');
    await meter.record(anonymous, id(1));
    meter.flush();
    expect(store.used('ip:192.0.2.1', '2026-03')).toBe(1);
    expect(store.used('ip:192.0.2.1', '2026-04')).toBe(0);
  });

  it('never refuses an unlimited plan but still counts it', async () => {
    const { meter, store } = setup('2026-03-10T10:00:00Z');
    const scale: ClientIdentity = { kind: 'api_key', plan: 'scale', keyId: 'key_1' };
    for (let n = 0; n < 10; n += 1) {
      expect(await meter.authorize(scale, id(n))).toMatchObject({
        allowed: true,
        limit: undefined,
        remaining: undefined,
      });
      await meter.record(scale, id(n));
    }
    meter.flush();
    expect(store.used('key:key_1', '2026-03')).toBe(10);
  });

  it('counts keys and addresses separately', async () => {
    const { meter } = setup('2026-03-10T10:00:00Z');
    const pro: ClientIdentity = { kind: 'api_key', plan: 'pro', keyId: 'key_1' };
    await meter.authorize(anonymous, id(1));
    await meter.authorize(anonymous, id(2));
    expect((await meter.authorize(pro, id(3))).allowed).toBe(true);
  });

  it('refuses on counts not yet written, and writes them in one batch that a new meter reads', async () => {
    const { meter, store, clock } = setup('2026-03-10T10:00:00Z');
    for (const n of [1, 2]) {
      await meter.authorize(anonymous, id(n));
      await meter.record(anonymous, id(n));
    }
    // Recorded, not written yet: the store still says 0, and the allowance is used up all the same.
    expect(store.used('ip:192.0.2.1', '2026-03')).toBe(0);
    expect((await meter.authorize(anonymous, id(3))).allowed).toBe(false);
    meter.flush();
    expect(store.used('ip:192.0.2.1', '2026-03')).toBe(2);
    // A meter started later on the same store (a restart) sees the written counts.
    const restarted = new LocalLookupMeter(store, clock, { free: 2, pro: 3, scale: undefined });
    expect((await restarted.authorize(anonymous, id(4))).allowed).toBe(false);
  });

  it('writes as soon as a full batch is waiting', async () => {
    const { meter, store } = setup('2026-03-10T10:00:00Z');
    const scale: ClientIdentity = { kind: 'api_key', plan: 'scale', keyId: 'key_2' };
    for (let n = 0; n < QUOTA_FLUSH_BATCH; n += 1) {
      await meter.authorize(scale, id(n));
      await meter.record(scale, id(n));
    }
    expect(store.used('key:key_2', '2026-03')).toBe(QUOTA_FLUSH_BATCH);
  });

  it('keeps the counts of a failed write, still counted, and writes them with the next batch', async () => {
    const { meter, store, logged } = setup('2026-03-10T10:00:00Z');
    await meter.authorize(anonymous, id(1));
    await meter.record(anonymous, id(1));
    const addAll = store.addAll.bind(store);
    store.addAll = () => {
      throw new Error('disk full');
    };
    meter.flush();
    expect(logged.join('\n')).toMatch(/disk full/);
    expect(store.used('ip:192.0.2.1', '2026-03')).toBe(0);
    await meter.authorize(anonymous, id(2));
    await meter.record(anonymous, id(2));
    expect((await meter.authorize(anonymous, id(3))).allowed).toBe(false);
    store.addAll = addAll;
    meter.flush();
    expect(store.used('ip:192.0.2.1', '2026-03')).toBe(2);
  });
});
