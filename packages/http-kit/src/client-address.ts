/**
 * @module
 * The address a request comes from, for rate limits and quotas. Without trusted proxies it is
 * the socket's peer. Behind `trustedProxies` proxies it is the `X-Forwarded-For` entry the
 * outermost trusted proxy appended: the right-most entry for one proxy, the one before it for
 * two, and so on (ADR 0903). Entries to its left were written by the client and prove nothing.
 * Trusted proxies may also be named by their address ranges (ADR 1522): then each hop is trusted
 * for what it is, not for how many there are, so a balancer that scales out changes nothing.
 */
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** Trusted proxies named by address ranges (`10.0.0.0/8,fd00::/8,192.0.2.7`). */
export interface TrustedRanges {
  readonly kind: 'ranges';
  /** The ranges as configured, for logs and the configuration's own answers. */
  readonly text: string;
  contains(address: string): boolean;
}

/** How far `X-Forwarded-For` is trusted: a number of proxies in a row, or the proxies' address ranges. */
export type ProxyTrust = number | TrustedRanges;

/** An IPv4 address a dual-stack socket reports as IPv4-mapped IPv6 (`::ffff:10.0.0.1`), as IPv4. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * Parses trusted proxy ranges: comma-separated addresses and CIDR ranges, IPv4 or IPv6.
 * @throws Error naming the entry that is not an address or a range.
 */
export function parseTrustedRanges(text: string): TrustedRanges {
  const list = new BlockList();
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new Error('names no address or range');
  for (const entry of entries) {
    const [address = '', prefixText, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) throw new Error(`${entry} is not an IP address or CIDR range`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefixText === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText) || prefix > (family === 4 ? 32 : 128)) {
      throw new Error(`${entry} has no valid prefix length (0 to ${family === 4 ? 32 : 128})`);
    }
    list.addSubnet(address, prefix, type);
  }
  return {
    kind: 'ranges',
    text: entries.join(','),
    contains: (candidate) => {
      const address = plainAddress(candidate);
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** The most proxies in a row a count may name. */
export const MAX_PROXY_HOPS = 10;

/**
 * Parses a trusted-proxies setting, as the billing service and the price search both take it: a
 * count of proxies in a row (0 to 10), or their addresses and CIDR ranges (ADR 1522).
 * @throws Error saying what is wrong: a count above 10, or the entry that is no address or range.
 */
export function parseProxyTrust(text: string): ProxyTrust {
  const value = text.trim();
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_PROXY_HOPS) throw new Error(`a count of proxies is at most ${MAX_PROXY_HOPS}; got ${value}`);
    return hops;
  }
  return parseTrustedRanges(value);
}

/**
 * The entry of an `X-Forwarded-For` value that the outermost of `trustedProxies` proxies
 * appended, or undefined when there is none to trust. With fewer entries than trusted proxies
 * every entry was written by a trusted proxy, and the left-most is the nearest to the client.
 *
 * By ranges, the peer (the socket's address) must be a trusted proxy, and the client is the first
 * hop from the right that is not.
 *
 * @example forwardedClientAddress('6.6.6.6, 203.0.113.9', 1) // '203.0.113.9'
 */
export function forwardedClientAddress(
  forwardedFor: string | undefined,
  trustedProxies: ProxyTrust,
  peer?: string,
): string | undefined {
  if (forwardedFor === undefined) return undefined;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  if (typeof trustedProxies === 'number') {
    if (trustedProxies < 1) return undefined;
    return hops[Math.max(0, hops.length - trustedProxies)];
  }
  // By ranges: only a trusted peer's header counts; from the right, the first hop that is not a
  // trusted proxy is the client (every hop trusted: the left-most, the nearest to the client).
  if (peer === undefined || !trustedProxies.contains(peer)) return undefined;
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    const hop = hops[index] ?? '';
    if (!trustedProxies.contains(hop)) return hop;
  }
  return hops[0];
}

/** The socket peer's address of a request served by @hono/node-server, or undefined in process. */
export function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // In-process requests (app.request() in tests) have no socket.
    return undefined;
  }
}

/**
 * The client address of a request: the trusted proxy's `X-Forwarded-For` entry when proxies
 * are trusted and one is present, else the socket's peer.
 */
export function clientAddress(c: Context, trustedProxies: ProxyTrust): string | undefined {
  const peer = socketAddress(c);
  return forwardedClientAddress(c.req.header('x-forwarded-for'), trustedProxies, peer) ?? peer;
}

/** Trusted proxies: `true` is one proxy (`--trust-proxy`), a number is that many, ranges are themselves. */
export function proxyHops(trust: boolean | ProxyTrust): ProxyTrust {
  if (typeof trust === 'number') return Math.max(0, Math.floor(trust));
  if (typeof trust === 'boolean') return trust ? 1 : 0;
  return trust;
}
