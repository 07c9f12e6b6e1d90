/**
 * The price search's trusted proxies take the billing service's forms (issue 37; ADRs 1522, 1524):
 * a count, or the proxies' addresses and CIDR ranges, parsed and applied by `@drawdown/http-kit`.
 * Served on a real socket (the peer is 127.0.0.1), a free-plan client's monthly quota shows whose
 * address a lookup counted against: a trusted peer's `X-Forwarded-For` names the client (the first
 * entry from the right outside the ranges), an untrusted peer's is ignored.
 */
import { parseProxyTrust } from '@drawdown/http-kit';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, readEnvironment } from '../../src/config.js';
import { startPriceSearch } from '../../src/start-price-search.js';

async function serving(trustedProxies: string): Promise<(forwardedFor: string) => Promise<number>> {
  const running = await startPriceSearch({
    port: 0,
    cataloguePath: ':memory:',
    statePath: ':memory:',
    demoFeed: false,
    warmUpMs: 0,
    trustedProxies: parseProxyTrust(trustedProxies),
    monthlyLookups: { free: 10, pro: 100, scale: undefined },
  });
  onTestFinished(() => running.close());
  // The lookups left this month for whoever the service counted this request against.
  return async (forwardedFor) => {
    const response = await fetch(`${running.url}/api/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ query: 'kettle' }),
    });
    expect(response.status).toBe(200);
    return Number(response.headers.get('x-quota-remaining'));
  };
}

describe('price search trusted proxies', () => {
  it('reads PRICE_SEARCH_TRUSTED_PROXIES as a count or as ranges, and refuses anything else naming it', () => {
    expect(readEnvironment({}).PRICE_SEARCH_TRUSTED_PROXIES).toBe(0);
    expect(readEnvironment({ PRICE_SEARCH_TRUSTED_PROXIES: '2' }).PRICE_SEARCH_TRUSTED_PROXIES).toBe(2);
    const ranges = readEnvironment({
      PRICE_SEARCH_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8,192.0.2.7',
    }).PRICE_SEARCH_TRUSTED_PROXIES;
    expect(typeof ranges === 'object' && ranges.text).toBe('10.0.0.0/8,fd00::/8,192.0.2.7');
    for (const [value, named] of [
      ['11', 'at most 10'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['proxy.internal', 'proxy.internal'],
      ['10.0.0.0/8/8', '10.0.0.0/8/8'],
    ]) {
      expect(() => readEnvironment({ PRICE_SEARCH_TRUSTED_PROXIES: value }), value).toThrow(ConfigError);
      expect(() => readEnvironment({ PRICE_SEARCH_TRUSTED_PROXIES: value }), value).toThrow(named);
    }
  });

  it('with ranges, counts a trusted peer’s client by the first X-Forwarded-For entry outside them', async () => {
    const remaining = await serving('127.0.0.0/8,10.0.0.0/8');
    // A forged entry on the left, the client, then two trusted proxies: the client counts.
    expect(await remaining('6.6.6.6, 198.51.100.4, 10.0.0.2, 127.0.0.2')).toBe(9);
    expect(await remaining('198.51.100.4')).toBe(8);
    // Another client has a quota of its own; a forged left-most entry changes nothing.
    expect(await remaining('198.51.100.5')).toBe(9);
    expect(await remaining('198.51.100.4, 198.51.100.5')).toBe(8);
  });

  it('ignores X-Forwarded-For from a peer outside the ranges: the socket address counts', async () => {
    const remaining = await serving('10.0.0.0/8');
    expect(await remaining('198.51.100.4')).toBe(9);
    expect(await remaining('198.51.100.5')).toBe(8);
  });
});
