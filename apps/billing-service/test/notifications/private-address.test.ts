/** Which addresses a live webhook must not reach. */
import { describe, expect, it } from 'vitest';
import { isNonPublicAddress, nonPublicReason } from '../../src/workers/webhook-delivery/private-address.js';

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456:789a::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    '::127.0.0.1',
    '[::1]',
  ])('refuses %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
  ])('allows the public address %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });

  it('says why an address is refused', () => {
    expect(nonPublicReason('127.0.0.1')).toBe('loopback');
    expect(nonPublicReason('::ffff:192.168.0.1')).toBe('a private network');
    expect(nonPublicReason('fe80::1')).toBe('link-local');
  });

  it('refuses what is not an IP address at all', () => {
    expect(nonPublicReason('example.com')).toBe('not an IP address');
  });
});
