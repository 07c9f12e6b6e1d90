/**
 * @module
 * Which IP addresses a live webhook must never reach: loopback, private networks, link-local,
 * and every other range that is not a public unicast destination (ADR 0506). IPv6 forms that
 * carry an IPv4 address inside (mapped, NAT64, 6to4, IPv4-compatible) are judged by that
 * address, so `::ffff:127.0.0.1` is as loopback as `127.0.0.1`.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** A range in CIDR form with the reason a delivery there is refused. */
interface Range {
  readonly base: bigint;
  readonly prefix: number;
  readonly label: string;
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** The 128-bit value of an IPv6 address (zone index dropped, embedded IPv4 tail allowed). */
function ipv6Value(text: string): bigint {
  const address = text.split('%')[0] ?? '';
  let groups: string[];
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  let prefix = address;
  const tailGroups: string[] = [];
  if (tail?.[1] !== undefined) {
    const value = ipv4Value(tail[1]);
    tailGroups.push(((value >> 16n) & 0xffffn).toString(16), (value & 0xffffn).toString(16));
    prefix = address.slice(0, -tail[1].length);
    if (prefix.endsWith(':') && !prefix.endsWith('::')) prefix = prefix.slice(0, -1);
  }
  const [head = '', rest] = prefix.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  if (rest === undefined) {
    groups = [...headGroups, ...tailGroups];
  } else {
    const restGroups = [...(rest === '' ? [] : rest.split(':')), ...tailGroups];
    const missing = 8 - headGroups.length - restGroups.length;
    groups = [...headGroups, ...Array.from({ length: missing }, () => '0'), ...restGroups];
  }
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group || '0', 16)), 0n);
}

function v4(cidr: string, label: string): Range {
  const [base = '', prefix = '32'] = cidr.split('/');
  return { base: ipv4Value(base), prefix: Number(prefix), label };
}

function v6(cidr: string, label: string): Range {
  const [base = '', prefix = '128'] = cidr.split('/');
  return { base: ipv6Value(base), prefix: Number(prefix), label };
}

const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0/8', 'the unspecified address or "this network"'),
  v4('10.0.0.0/8', 'a private network'),
  v4('100.64.0.0/10', 'carrier-grade NAT space'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local (cloud metadata services live here)'),
  v4('172.16.0.0/12', 'a private network'),
  v4('192.0.0.0/24', 'IETF protocol assignments'),
  v4('192.0.2.0/24', 'documentation space'),
  v4('192.88.99.0/24', '6to4 relay anycast'),
  v4('192.168.0.0/16', 'a private network'),
  v4('198.18.0.0/15', 'benchmarking space'),
  v4('198.51.100.0/24', 'documentation space'),
  v4('203.0.113.0/24', 'documentation space'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved space (and broadcast)'),
];

const IPV6_RANGES: readonly Range[] = [
  v6('::/128', 'the unspecified address'),
  v6('::1/128', 'loopback'),
  v6('64:ff9b:1::/48', 'local-use NAT64'),
  v6('100::/64', 'discard-only space'),
  v6('2001::/32', 'Teredo tunnelling'),
  v6('2001:db8::/32', 'documentation space'),
  v6('2001:10::/28', 'ORCHID space'),
  v6('fc00::/7', 'a unique-local (private) network'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'site-local'),
  v6('ff00::/8', 'multicast'),
];

function inRange(value: bigint, bits: number, range: Range): boolean {
  const shift = BigInt(bits - range.prefix);
  return value >> shift === range.base >> shift;
}

function classifyIpv4(value: bigint): string | null {
  return IPV4_RANGES.find((range) => inRange(value, 32, range))?.label ?? null;
}

/** IPv6 prefixes whose low bits carry an IPv4 address, and where that address sits. */
function embeddedIpv4(value: bigint): bigint | null {
  const top96 = value >> 32n;
  if (top96 === 0xffffn) return value & 0xffffffffn; // ::ffff:a.b.c.d (mapped)
  if (top96 === 0n && value > 1n) return value & 0xffffffffn; // ::a.b.c.d (IPv4-compatible)
  if (top96 === 0x64ff9b0000000000000000n) return value & 0xffffffffn; // 64:ff9b::/96 (NAT64)
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn; // 2002::/16 (6to4)
  return null;
}

function classifyIpv6(value: bigint): string | null {
  const own = IPV6_RANGES.find((range) => inRange(value, 128, range));
  if (own) return own.label;
  const inner = embeddedIpv4(value);
  return inner === null ? null : classifyIpv4(inner);
}

/**
 * Why `address` is not a public unicast destination, or null when it is. Anything that is not
 * a valid IPv4 or IPv6 address is refused too.
 */
export function nonPublicReason(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return classifyIpv4(ipv4Value(bare));
  if (isIPv6(bare)) return classifyIpv6(ipv6Value(bare));
  return 'not an IP address';
}

/** True for loopback, private-network and every other non-public address. */
export function isNonPublicAddress(address: string): boolean {
  return nonPublicReason(address) !== null;
}
