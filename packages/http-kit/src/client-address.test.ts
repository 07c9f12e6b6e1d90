import { describe, expect, it } from 'vitest';
import { forwardedClientAddress, proxyHops } from './client-address.js';

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
