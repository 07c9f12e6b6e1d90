import { describe, expect, it } from 'vitest';
import { forwardedClientAddress, parseTrustedRanges, proxyHops } from './client-address.js';

describe('forwardedClientAddress', () => {
  it('trusts nothing without trusted proxies', () => {
    expect(forwardedClientAddress('198.51.100.4', 0)).toBeUndefined();
    expect(forwardedClientAddress(undefined, 1)).toBeUndefined();
  });

  it('takes the entry the trusted proxy appended, never one the client wrote', () => {
    expect(forwardedClientAddress('6.6.6.6, 198.51.100.4', 1)).toBe('198.51.100.4');
    expect(forwardedClientAddress('198.51.100.4', 1)).toBe('198.51.100.4');
    expect(forwardedClientAddress('6.6.6.6, 198.51.100.4, 10.0.0.2', 2)).toBe('198.51.100.4');
  });

  it('takes the left-most entry when every entry came from a trusted proxy', () => {
    expect(forwardedClientAddress('198.51.100.4', 3)).toBe('198.51.100.4');
  });

  it('ignores empty entries', () => {
    expect(forwardedClientAddress('6.6.6.6,, 198.51.100.4 ,', 1)).toBe('198.51.100.4');
    expect(forwardedClientAddress(' , ', 1)).toBeUndefined();
  });
});

describe('proxyHops', () => {
  it('counts `--trust-proxy` as one proxy and takes a count as it is', () => {
    expect(proxyHops(false)).toBe(0);
    expect(proxyHops(true)).toBe(1);
    expect(proxyHops(2)).toBe(2);
    // Behind a balancer and Caddy: the balancer's entry, not Caddy's view of the balancer.
    expect(forwardedClientAddress('6.6.6.6, 198.51.100.4, 10.0.0.2', proxyHops(2))).toBe('198.51.100.4');
  });
});

describe('trusted proxies by address range (ADR 1522)', () => {
  const ranges = parseTrustedRanges('10.0.0.0/8, 192.0.2.7 ,fd00::/8');

  it('takes the first entry from the right that is not a trusted proxy, however many proxies there are', () => {
    expect(forwardedClientAddress('198.51.100.4', ranges, '10.1.2.3')).toBe('198.51.100.4');
    expect(forwardedClientAddress('6.6.6.6, 198.51.100.4, 10.9.9.9, 192.0.2.7', ranges, '10.1.2.3')).toBe(
      '198.51.100.4',
    );
    // A client that writes a trusted address to the left gains nothing: the first untrusted hop is it.
    expect(forwardedClientAddress('10.0.0.1, 198.51.100.4', ranges, '10.1.2.3')).toBe('198.51.100.4');
  });

  it('trusts no header from a peer outside the ranges, and reads IPv4-mapped and IPv6 peers', () => {
    expect(forwardedClientAddress('198.51.100.4', ranges, '203.0.113.5')).toBeUndefined();
    expect(forwardedClientAddress('198.51.100.4', ranges, undefined)).toBeUndefined();
    expect(forwardedClientAddress('198.51.100.4', ranges, '::ffff:10.0.0.8')).toBe('198.51.100.4');
    expect(forwardedClientAddress('2001:db8::1', ranges, 'fd12::3')).toBe('2001:db8::1');
  });

  it('takes the left-most entry when every entry is a trusted proxy', () => {
    expect(forwardedClientAddress('10.0.0.1, 10.0.0.2', ranges, '10.0.0.3')).toBe('10.0.0.1');
  });

  it('refuses what is not an address or a range', () => {
    for (const bad of ['', 'not-an-ip', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/1', '10.0.0.0/x']) {
      expect(() => parseTrustedRanges(bad), bad).toThrow();
    }
    expect(proxyHops(ranges)).toBe(ranges);
  });
});
