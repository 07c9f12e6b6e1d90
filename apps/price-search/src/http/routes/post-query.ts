/**
 * @module
 * POST /api/query: translates HTTP to a lookup and back. The response is the contract's bare JSON array of
 * listings; what else a client may want (networks that failed, quota left) travels in headers.
 */
import { readRequestText, requestHeader } from '@drawdown/http-kit';
import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono } from 'hono';
import { type Listing, toWireListing } from '../../listing/listing.js';
import { runLookup } from '../../lookup/run-lookup.js';
import { secondsUntil } from '../../metering/calendar-month.js';
import { meterKeyOf } from '../../metering/lookup-meter.js';
import { formatPence } from '../../money/pence.js';
import { broadenQuery } from '../../query/broaden-query.js';
import { ApiError } from '../api-error.js';
import { clientAddress } from '../client-address.js';
import type { HttpDependencies } from '../http-dependencies.js';
import { identifyClient } from '../identify-client.js';
import { parseQueryBody, type QueryRequest } from '../query-body.js';

// Clients are told to come back after this long when every network failed: long enough for a marketplace
// blip to pass, short enough for an agent's conversation.
const NETWORKS_RETRY_AFTER_SECONDS = 30;

/** Registers POST /api/query. */
export function registerPostQuery(app: Hono<{ Bindings: HttpBindings }>, deps: HttpDependencies): void {
  app.post('/api/query', async (c) => {
    const address = clientAddress(
      c.env?.incoming?.socket?.remoteAddress,
      requestHeader(c, 'x-forwarded-for'),
      deps.trustedProxies,
    );
    const client = identifyClient(
      { authorization: requestHeader(c, 'authorization'), apiKey: requestHeader(c, 'x-api-key') },
      address,
      deps.keys,
    );

    const rate = deps.rateLimiter.take(meterKeyOf(client), deps.requestsPerMinute[client.plan]);
    if (!rate.allowed) {
      throw new ApiError(
        'too_many_requests',
        `Too many requests; at most ${deps.requestsPerMinute[client.plan]} a minute on the ${client.plan} plan.`,
        { retryAfterSeconds: rate.retryAfterSeconds },
      );
    }

    const request = await readQueryRequest(c);
    const result = await runLookup(deps, { client, ...request });
    if (!result.ok) {
      switch (result.code) {
        case 'query_without_terms':
          throw new ApiError(result.code, result.message, { field: 'query' });
        case 'monthly_quota_exceeded':
          throw new ApiError(result.code, result.message, {
            retryAfterSeconds: secondsUntil(deps.clock.now(), result.resetsAt),
          });
        case 'networks_unavailable':
          throw new ApiError(result.code, result.message, { retryAfterSeconds: NETWORKS_RETRY_AFTER_SECONDS });
      }
    }

    // Headers as a plain object: on @hono/node-server the response is then written without building WHATWG
    // Headers (c.header() would build them on every request).
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-lookup-id': result.lookupId,
      'x-networks-searched': result.networksSearched.join(','),
    };
    if (result.networksFailed.length > 0) headers['x-networks-failed'] = result.networksFailed.join(',');
    if (result.quota.limit !== undefined && result.quota.remaining !== undefined) {
      headers['x-quota-limit'] = String(result.quota.limit);
      headers['x-quota-remaining'] = String(result.quota.remaining);
      headers['x-quota-reset'] = result.quota.resetsAt.toISOString();
    }
    // An empty answer names the broader query the client rules retry with (issue 38): the body stays the seed's
    // array. Percent-encoded UTF-8, as the query may hold any script and "£".
    if (result.listings.length === 0) {
      const broader = broadenQuery(request.query);
      if (broader !== undefined) {
        headers['x-broadened-query'] = encodeURIComponent(broader.query);
        if (broader.maxPence !== undefined) headers['x-broadened-max-price'] = formatPence(broader.maxPence);
      }
    }
    return new Response(wireBody(result.listings), { status: 200, headers });
  });
}

// The engine answers a repeated lookup with the same listings array: its JSON is built once and kept as long
// as the engine keeps the answer.
const wireBodies = new WeakMap<readonly Listing[], string>();

function wireBody(listings: readonly Listing[]): string {
  let body = wireBodies.get(listings);
  if (body === undefined) {
    body = JSON.stringify(listings.map(toWireListing));
    wireBodies.set(listings, body);
  }
  return body;
}

// Valid bodies seen lately and what they ask (validation is pure): a repeated body is not parsed again. Only
// short bodies are kept (a real query's body is under 200 bytes; padding could make one 16 KB).
const BODIES_KEPT = 2_000;
const BODY_KEPT_CHARS = 1_024;
const requests = new Map<string, QueryRequest>();

async function readQueryRequest(c: Context): Promise<QueryRequest> {
  const type = requestHeader(c, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  }
  const text = await readRequestText(c);
  const known = requests.get(text);
  if (known !== undefined) return known;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
  const request = parseQueryBody(body);
  if (text.length <= BODY_KEPT_CHARS) {
    requests.set(text, request);
    if (requests.size > BODIES_KEPT) requests.delete(requests.keys().next().value ?? '');
  }
  return request;
}
