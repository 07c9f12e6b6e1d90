import { parseTrustedRanges } from '@drawdown/http-kit';
import { describe, expect, it } from 'vitest';
import { addressKey, clientAddress } from './client-address.js';

describe('addressKey', () => {
  it('keeps IPv4 addresses and unwraps IPv4-mapped IPv6', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('reduces IPv6 addresses to their /64', () => {
    expect(addressKey('2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('refuses text that is not an address', () => {
    expect(addressKey('unknown')).toBeUndefined();
    expect(addressKey('999.1.1.1')).toBeUndefined();
  });
});

describe('clientAddress', () => {
  it('uses the socket address unless proxies are trusted', () => {
    expect(clientAddress('10.0.0.1', '198.51.100.4', 0)).toBe('10.0.0.1');
  });

  it('takes the entry the trusted proxy appended, not one the client could forge', () => {
    expect(clientAddress('10.0.0.1', '1.1.1.1, 198.51.100.4', 1)).toBe('198.51.100.4');
    expect(clientAddress('10.0.0.1', '1.1.1.1, 198.51.100.4, 10.0.0.2', 2)).toBe('198.51.100.4');
  });
});

describe('clientAddress by trusted ranges', () => {
  const ranges = parseTrustedRanges('10.0.0.0/8');

  it('takes the first entry from the right outside the ranges, from a trusted peer only', () => {
    expect(clientAddress('10.0.0.1', '6.6.6.6, 198.51.100.4, 10.0.0.2', ranges)).toBe('198.51.100.4');
    expect(clientAddress('::ffff:10.0.0.1', '198.51.100.4', ranges)).toBe('198.51.100.4');
    expect(clientAddress('192.0.2.1', '198.51.100.4', ranges)).toBe('192.0.2.1');
  });
});
