/**
 * @module
 * Server-side request forgery rules for webhook destinations (ADRs 0506, 1485), one rule for
 * live and sandbox alike: unless the operator allows private destinations
 * (`--allow-private-webhooks`), a destination must resolve only to public addresses. Checked
 * when a setting is saved (for a clear error), and checked again on every delivery, real or
 * simulated, inside the connection's own DNS lookup, so a name that is re-pointed later (DNS
 * rebinding) is refused on the very address the socket would have used. A refusal never says
 * which address a name resolved to: only the caller's own literal is echoed, so the service's
 * resolver cannot be used to map an internal network.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { DestinationPolicy, DestinationVerdict } from '@drawdown/billing-core';
import { nonPublicReason } from './private-address.js';

/** Resolves a host name to every address it has. Tests swap in their own answers. */
export type ResolveHost = (hostname: string) => Promise<readonly LookupAddress[]>;

export const systemResolveHost: ResolveHost = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The error code a refused destination is reported with, at saving and in delivery logs. */
export const DESTINATION_REFUSED_CODE = 'notification_destination_not_allowed';

/** Raised inside a guarded connection when the destination resolves to a refused address. */
export class DestinationNotAllowedError extends Error {
  override readonly name = 'DestinationNotAllowedError';
  readonly code = 'EDESTINATIONNOTALLOWED';
}

export interface DestinationGuardOptions {
  /** Allow loopback, private and link-local destinations (local development, tests, the demo). */
  readonly allowPrivate: boolean;
  readonly resolveHost?: ResolveHost | undefined;
}

export interface DestinationGuard extends DestinationPolicy {
  /** Why a delivery to this url's literal IP host is refused, or null. */
  refusalForLiteralHost(url: URL): string | null;
  /** The DNS lookup every delivery's connection uses. */
  readonly lookup: LookupFunction;
}

/** The host of a url without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

function describeLiteral(address: string, reason: string): string {
  return `${address} is ${reason}`;
}

/** A name's refusal names the kind of address, never the address its resolver gave. */
function describeName(host: string, reason: string): string {
  return `${host} resolves to a non-public address (${reason})`;
}

function firstRefused(host: string, addresses: readonly LookupAddress[]): string | null {
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason !== null) return describeName(host, reason);
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
  const enforce = !options.allowPrivate;

  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolveHost(hostname).then(
      (resolved) => {
        // Every address is checked, not only the one used: the connection may fall back to any.
        const refused = enforce ? firstRefused(hostname, resolved) : null;
        if (refused !== null) {
          callback(new DestinationNotAllowedError(refused), '', 0);
          return;
        }
        const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
        const usable = family === 4 || family === 6 ? resolved.filter((entry) => entry.family === family) : resolved;
        const [first] = usable;
        if (!first) callback(notFound(hostname), '', 0);
        else if (lookupOptions.all) callback(null, [...usable]);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  return {
    async check(url: URL): Promise<DestinationVerdict> {
      if (!enforce) return { allowed: true };
      const host = bareHostname(url);
      if (isIP(host) !== 0) {
        const reason = nonPublicReason(host);
        return reason === null ? { allowed: true } : { allowed: false, reason: describeLiteral(host, reason) };
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
    refusalForLiteralHost(url) {
      const host = bareHostname(url);
      if (!enforce || isIP(host) === 0) return null;
      const reason = nonPublicReason(host);
      return reason === null ? null : describeLiteral(host, reason);
    },
    lookup,
  };
}
