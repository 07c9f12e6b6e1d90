import { describe, expect, it } from 'vitest';
import { LoginRateLimiter } from './login-rate-limit.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SessionStore, tokensEqual } from './sessions.js';

describe('demo sessions', () => {
  it('issues random 256-bit ids and tokens, different for every session', () => {
    const store = new SessionStore();
    const first = store.create('grace@example.com');
    const second = store.create('ada@example.com');
    expect(first.id).toMatch(/^[\w-]{43}$/);
    expect(first.id).not.toBe(second.id);
    expect(first.csrfToken).not.toBe(second.csrfToken);
  });

  it('expires a session after 30 idle minutes', () => {
    let now = 0;
    const store = new SessionStore(() => now);
    const session = store.create('ada@example.com');
    now += SESSION_IDLE_MS - 1;
    expect(store.find(session.id)).toBe(session);
    now += SESSION_IDLE_MS + 1;
    expect(store.find(session.id)).toBeUndefined();
  });

  it('expires a session after 12 hours even when in use', () => {
    let now = 0;
    const store = new SessionStore(() => now);
    const session = store.create('ada@example.com');
    while (now < SESSION_ABSOLUTE_MS - 60_000) {
      now += 60_000;
      expect(store.find(session.id)).toBe(session);
    }
    now += 120_000;
    expect(store.find(session.id)).toBeUndefined();
  });

  it('bounds sessions per owner: past the bound the owner’s own oldest ends', () => {
    const store = new SessionStore(() => 0, { maxSessions: 100, maxSessionsPerOwner: 3 });
    const ada = store.create('ada@example.com');
    const links = Array.from({ length: 10_050 }, () => store.create('', 'ctm_grace'));
    expect(store.find(ada.id)).toBe(ada);
    expect(store.countOf({ customerId: 'ctm_grace' })).toBe(3);
    expect(links.slice(-3).map((session) => store.find(session.id))).toEqual(links.slice(-3));
    expect(links.slice(0, -3).filter((session) => store.find(session.id) !== undefined)).toEqual([]);
    expect(store.size).toBe(4);
  });

  it('past the store’s bound, takes from the owner holding the most sessions', () => {
    const store = new SessionStore(() => 0, { maxSessions: 4, maxSessionsPerOwner: 3 });
    const ada = store.create('ada@example.com');
    const grace = [store.create('', 'ctm_grace'), store.create('', 'ctm_grace'), store.create('', 'ctm_grace')];
    const linus = store.create('', 'ctm_linus');
    expect(store.size).toBe(4);
    expect(store.find(ada.id)).toBe(ada);
    expect(store.find(linus.id)).toBe(linus);
    expect(store.find(grace[0]?.id)).toBeUndefined();
    expect(store.countOf({ customerId: 'ctm_grace' })).toBe(2);
  });

  it('ignores ids that are not of the issued shape', () => {
    expect(new SessionStore().find('../../etc/passwd')).toBeUndefined();
  });

  it('compares tokens only when equal in full', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abd')).toBe(false);
    expect(tokensEqual('abc', 'ab')).toBe(false);
    expect(tokensEqual('abc', undefined)).toBe(false);
  });
});

describe('sign-in throttling', () => {
  it('holds an email after 5 failures for the rest of the window, then lets it try again', () => {
    let now = 0;
    const limiter = new LoginRateLimiter({ now: () => now });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(limiter.retryAfterSeconds('1.2.3.4', 'ada@example.com')).toBe(0);
      limiter.recordFailure('1.2.3.4', 'ada@example.com');
      now += 1_000;
    }
    expect(limiter.retryAfterSeconds('5.6.7.8', 'ADA@example.com')).toBe(15 * 60 - 5);
    now = 15 * 60 * 1000 + 1;
    expect(limiter.retryAfterSeconds('5.6.7.8', 'ada@example.com')).toBe(0);
  });

  it('holds an address after 20 failures across emails', () => {
    const limiter = new LoginRateLimiter({ now: () => 0 });
    for (let attempt = 0; attempt < 20; attempt += 1) limiter.recordFailure('1.2.3.4', `user${attempt}@example.com`);
    expect(limiter.retryAfterSeconds('1.2.3.4', 'new@example.com')).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds('9.9.9.9', 'new@example.com')).toBe(0);
  });
});
