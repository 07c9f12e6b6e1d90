/**
 * @module
 * The address a request comes from, for rate limits and quotas. Without trusted proxies it is
 * the socket's peer. Behind `trustedProxies` proxies it is the `X-Forwarded-For` entry the
 * outermost trusted proxy appended: the right-most entry for one proxy, the one before it for
 * two, and so on (ADR 0903). Entries to its left were written by the client and prove nothing.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The entry of an `X-Forwarded-For` value that the outermost of `trustedProxies` proxies
 * appended, or undefined when there is none to trust. With fewer entries than trusted proxies
 * every entry was written by a trusted proxy, and the left-most is the nearest to the client.
 *
 * @example forwardedClientAddress('6.6.6.6, 203.0.113.9', 1) // '203.0.113.9'
 */
export function forwardedClientAddress(forwardedFor: string | undefined, trustedProxies: number): string | undefined {
  if (trustedProxies < 1 || forwardedFor === undefined) return undefined;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  return hops[Math.max(0, hops.length - trustedProxies)];
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
export function clientAddress(c: Context, trustedProxies: number): string | undefined {
  return forwardedClientAddress(c.req.header('x-forwarded-for'), trustedProxies) ?? socketAddress(c);
}

/** Trusted proxies as a count: `true` is one proxy (`--trust-proxy`), a number is that many. */
export function proxyHops(trust: boolean | number): number {
  if (typeof trust === 'number') return Math.max(0, Math.floor(trust));
  return trust ? 1 : 0;
}
