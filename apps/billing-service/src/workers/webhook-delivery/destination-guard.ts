/**
 * @module
 * Server-side request forgery rules for webhook destinations (ADR 0506). In live, unless the
 * operator allows private destinations, a destination must resolve only to public addresses:
 * checked when a setting is saved (for a clear error), and checked again on every delivery,
 * inside the connection's own DNS lookup, so a name that is re-pointed later (DNS rebinding)
 * is refused on the very address the socket would have used. The sandbox delivers anywhere.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { DestinationPolicy, DestinationVerdict, Environment } from '@drawdown/billing-core';
import { nonPublicReason } from './private-address.js';

/** Resolves a host name to every address it has. Tests swap in their own answers. */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolveHost: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** Raised inside a guarded connection when the destination resolves to a refused address. */
export class DestinationNotAllowedError extends Error {
  override readonly name = 'DestinationNotAllowedError';
  readonly code = 'EDESTINATIONNOTALLOWED';
}

export interface DestinationGuardOptions {
  /** Allow loopback and private destinations in live too (local development). */
  readonly allowPrivate: boolean;
  readonly resolveHost?: ResolveHost | undefined;
}

export interface DestinationGuard extends DestinationPolicy {
  /** Why a delivery in `environment` to this url's literal IP host is refused, or null. */
  refusalForLiteralHost(url: URL, environment: Environment): string | null;
  /** The DNS lookup a delivery's connection uses in `environment`. */
  lookupFor(environment: Environment): LookupFunction;
}

/** The host of a url without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function describeRefusal(host: string, address: string, reason: string): string {
  return host === address ? `${address} is ${reason}` : `${host} resolves to ${address}, which is ${reason}`;
}

function firstRefused(host: string, addresses: readonly LookupAddress[]): string | null {
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason !== null) return describeRefusal(host, address, reason);
  }
  return null;
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  return error;
}

export function createDestinationGuard(options: DestinationGuardOptions): DestinationGuard {
  const resolveHost = options.resolveHost ?? systemResolveHost;
  const enforces = (environment: Environment) => environment === 'live' && !options.allowPrivate;

  const lookup =
    (enforce: boolean): LookupFunction =>
    (hostname, lookupOptions, callback) => {
      resolveHost(hostname).then(
        (resolved) => {
          // Every address is checked, not only the one used: the connection may fall back to any.
          const refused = enforce ? firstRefused(hostname, resolved) : null;
          if (refused !== null) {
            callback(new DestinationNotAllowedError(refused), '', 0);
            return;
          }
          const family =
            lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
          const usable = family === 4 || family === 6 ? resolved.filter((entry) => entry.family === family) : resolved;
          const [first] = usable;
          if (!first) callback(notFound(hostname), '', 0);
          else if (lookupOptions.all) callback(null, [...usable]);
          else callback(null, first.address, first.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  const guarded = lookup(true);
  const open = lookup(false);

  return {
    async check(url: URL, environment: Environment): Promise<DestinationVerdict> {
      if (!enforces(environment)) return { allowed: true };
      const host = bareHostname(url);
      if (isIP(host) !== 0) {
        const reason = nonPublicReason(host);
        return reason === null ? { allowed: true } : { allowed: false, reason: describeRefusal(host, host, reason) };
      }
      let addresses: readonly LookupAddress[];
      try {
        addresses = await resolveHost(host);
      } catch {
        // A name that does not resolve yet may later; every delivery checks it again.
        return { allowed: true };
      }
      const refused = firstRefused(host, addresses);
      return refused === null ? { allowed: true } : { allowed: false, reason: refused };
    },
    refusalForLiteralHost(url, environment) {
      const host = bareHostname(url);
      if (!enforces(environment) || isIP(host) === 0) return null;
      const reason = nonPublicReason(host);
      return reason === null ? null : describeRefusal(host, host, reason);
    },
    lookupFor(environment) {
      return enforces(environment) ? guarded : open;
    },
  };
}
