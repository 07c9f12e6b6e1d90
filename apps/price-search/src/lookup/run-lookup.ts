/**
 * @module
 * One metered lookup: understand the query, ask the meter, search, then count the lookup only if it was
 * answered. An answered lookup with no results still counts (the search ran); a lookup where every network
 * failed does not.
 */
import { randomFillSync } from 'node:crypto';
import type { Listing } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { ClientIdentity, LookupId, LookupMeter } from '../metering/lookup-meter.js';
import type { Pence } from '../money/pence.js';
import { type ParsedQuery, parseQuery, withPriceRange } from '../query/parse-query.js';
import type { SearchEngine } from '../search/search-engine.js';

/** A validated lookup request. */
export interface LookupInput {
  readonly client: ClientIdentity;
  readonly query: string;
  readonly maxResults: number;
  readonly maxPence: Pence | undefined;
  readonly minPence?: Pence | undefined;
  readonly networks: readonly NetworkId[];
}

/** Quota state after an allowed lookup. */
export interface QuotaState {
  readonly limit: number | undefined;
  readonly remaining: number | undefined;
  readonly resetsAt: Date;
}

/** Why a lookup was refused. */
export type LookupRefusal =
  | { readonly code: 'query_without_terms'; readonly message: string }
  | { readonly code: 'monthly_quota_exceeded'; readonly message: string; readonly resetsAt: Date }
  | { readonly code: 'networks_unavailable'; readonly message: string };

/** The result of a lookup. */
export type LookupResult =
  | {
      readonly ok: true;
      readonly lookupId: LookupId;
      readonly listings: readonly Listing[];
      readonly networksSearched: readonly NetworkId[];
      readonly networksFailed: readonly NetworkId[];
      readonly quota: QuotaState;
    }
  | ({ readonly ok: false } & LookupRefusal);

/** Dependencies of a lookup. */
export interface LookupDependencies {
  readonly engine: SearchEngine;
  readonly meter: LookupMeter;
  readonly newLookupId?: () => LookupId;
}

// Random bytes for lookup ids are drawn 4 KB at a time: one system call for 512 ids instead of one each.
const ID_BYTES = 8;
const idPool = Buffer.alloc(4096);
let idPoolUsed = idPool.length;

/** A new lookup id, `lkp_` and 16 hex digits (64 random bits). */
export function newLookupId(): LookupId {
  if (idPoolUsed === idPool.length) {
    randomFillSync(idPool);
    idPoolUsed = 0;
  }
  const id = idPool.toString('hex', idPoolUsed, idPoolUsed + ID_BYTES);
  idPoolUsed += ID_BYTES;
  return `lkp_${id}` as LookupId;
}

// Parsed query texts kept for repeated lookups (parsing is pure: the same text always gives the same answer).
const PARSED_ENTRIES = 2_000;
const parsedTexts = new Map<string, ParsedQuery>();

/** `parseQuery`, remembering the last 2,000 texts. */
export function parseQueryText(text: string): ParsedQuery {
  const known = parsedTexts.get(text);
  if (known !== undefined) return known;
  const parsed = parseQuery(text);
  parsedTexts.set(text, parsed);
  if (parsedTexts.size > PARSED_ENTRIES) parsedTexts.delete(parsedTexts.keys().next().value ?? '');
  return parsed;
}

/**
 * The requested networks narrowed to the retailers the text names ("ps5 at currys"). When the request's
 * `networks` field and the text disagree entirely, the field wins, as `max_price` wins over a budget in the text.
 */
export function networksToSearch(
  requested: readonly NetworkId[],
  named: readonly NetworkId[] | undefined,
): readonly NetworkId[] {
  if (named === undefined) return requested;
  const both = requested.filter((network) => named.includes(network));
  return both.length === 0 ? requested : both;
}

/** Runs one lookup for `input.client`. */
export async function runLookup(deps: LookupDependencies, input: LookupInput): Promise<LookupResult> {
  const parsed = withPriceRange(parseQueryText(input.query), input.minPence, input.maxPence);
  if (parsed.terms.length === 0) {
    return {
      ok: false,
      code: 'query_without_terms',
      message: 'The query names no product, only a budget, condition or sort; add what you are looking for.',
    };
  }

  const lookupId = (deps.newLookupId ?? newLookupId)();
  const decision = await deps.meter.authorize(input.client, lookupId);
  if (!decision.allowed) {
    return {
      ok: false,
      code: 'monthly_quota_exceeded',
      resetsAt: decision.resetsAt,
      message:
        `The monthly allowance of ${decision.limit} lookups is used up; it renews on ` +
        `${decision.resetsAt.toISOString()}.` +
        (input.client.kind === 'anonymous' ? ' An API key on the Pro or Scale plan raises the limit.' : ''),
    };
  }

  try {
    const outcome = await deps.engine.search({
      parsed,
      networks: networksToSearch(input.networks, parsed.networks),
      maxResults: input.maxResults,
    });
    if (outcome.networksSearched.length === 0 && outcome.networksFailed.length > 0) {
      await deps.meter.release(input.client, lookupId);
      return {
        ok: false,
        code: 'networks_unavailable',
        message: `Every requested network failed (${outcome.networksFailed.join(', ')}); see GET /health.`,
      };
    }
    await deps.meter.record(input.client, lookupId);
    return {
      ok: true,
      lookupId,
      listings: outcome.listings,
      networksSearched: outcome.networksSearched,
      networksFailed: outcome.networksFailed,
      quota: { limit: decision.limit, remaining: decision.remaining, resetsAt: decision.resetsAt },
    };
  } catch (error) {
    await deps.meter.release(input.client, lookupId);
    throw error;
  }
}
