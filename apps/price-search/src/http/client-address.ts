/**
 * @module
 * The address a keyless client is counted by. IPv4 addresses count as they are; IPv6 addresses count per /64,
 * since one subscriber usually holds a whole /64 and could otherwise rotate through it for fresh quota.
 * `X-Forwarded-For` is trusted only when the operator says a proxy stands in front, by the rule every Drawdown
 * server shares (`@drawdown/http-kit`, ADR 0903).
 */
import { isIPv4, isIPv6 } from 'node:net';
import { forwardedClientAddress, type ProxyTrust } from '@drawdown/http-kit';

/** The counting key for a client address; undefined for text that is not an IP address. */
export function addressKey(address: string): string | undefined {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped?.[1] !== undefined && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(trimmed)) return trimmed;
  const withoutZone = trimmed.replace(/%.*$/, '');
  if (!isIPv6(withoutZone)) return undefined;
  return `${expandIpv6(withoutZone).slice(0, 4).join(':')}::/64`;
}

/**
 * The client address of a request, by the billing service's rule (`@drawdown/http-kit`, ADRs 0903, 1522):
 * with a count, the `X-Forwarded-For` entry the outermost of `trustedProxies` proxies appended; with
 * address ranges, from a trusted peer only, the first entry from the right outside them; else the socket's
 * remote address.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: ProxyTrust,
): string | undefined {
  const address = forwardedClientAddress(forwardedFor, trustedProxies, socketAddress) ?? socketAddress;
  return address === undefined ? undefined : addressKey(address);
}

function expandIpv6(address: string): string[] {
  let text = address.toLowerCase();
  const embeddedIpv4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (embeddedIpv4) {
    const [a, b, c, d] = embeddedIpv4.slice(1).map(Number);
    const high = (((a ?? 0) << 8) | (b ?? 0)).toString(16);
    const low = (((c ?? 0) << 8) | (d ?? 0)).toString(16);
    text = `${text.slice(0, embeddedIpv4.index)}${high}:${low}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...tailGroups];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}
