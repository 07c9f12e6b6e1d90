/**
 * @module
 * The eBay UK connector, on the Browse API `item_summary/search`. The marketplace header is always sent:
 * without it eBay silently searches eBay US. Only fixed-price listings are asked for, since an auction's
 * `price` is a bid, not what the item costs.
 */
import type { Listing } from '../listing/listing.js';
import { formatPence, type Pence, penceFromDecimal } from '../money/pence.js';
import type { Connector, ConnectorDescription, ConnectorQuery } from '../search/connector.js';
import { meetsConstraints } from '../search/listing-filter.js';
import { conditionFromEbay, ebayConditionIds } from './ebay-conditions.js';
import { EbayApiError, ebayErrorDetail } from './ebay-error.js';
import type { EbayTokenProvider } from './ebay-token-provider.js';
import { EbayItemSummary, EbaySearchResponse } from './ebay-wire.js';

/** Connector id of the live eBay source. */
export const EBAY_CONNECTOR_ID = 'ebay_browse';

/** The Browse API's largest page. */
const MAX_LIMIT = 200;

/** Options of the eBay connector. */
export interface EbayBrowseConnectorOptions {
  /** `https://api.ebay.com` in production; a local server in tests. */
  readonly baseUrl: string;
  readonly tokens: EbayTokenProvider;
  /** eBay Partner Network campaign; when set, affiliate links are returned. */
  readonly affiliateCampaignId?: string | undefined;
  readonly fetch?: typeof fetch;
  /** Told about `warnings[]` in a response (the rows were re-filtered locally). */
  readonly onWarnings?: (messages: readonly string[]) => void;
}

/** Creates the `ebay_uk` connector. */
export function createEbayBrowseConnector(options: EbayBrowseConnectorOptions): Connector {
  const doFetch = options.fetch ?? fetch;
  let lastWarnings: readonly string[] = [];

  const requestSearch = async (query: ConnectorQuery, signal: AbortSignal, token: string): Promise<Response> => {
    const url = new URL('/buy/browse/v1/item_summary/search', options.baseUrl);
    url.searchParams.set('q', query.text);
    url.searchParams.set('limit', String(Math.min(Math.max(query.limit, 1), MAX_LIMIT)));
    url.searchParams.set('filter', buildFilter(query));
    if (query.sort === 'price_asc') url.searchParams.set('sort', 'price');
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      'x-ebay-c-marketplace-id': 'EBAY_GB',
      accept: 'application/json',
    };
    if (options.affiliateCampaignId !== undefined) {
      headers['x-ebay-c-enduserctx'] =
        `affiliateCampaignId=${options.affiliateCampaignId},contextualLocation=country%3DGB`;
    }
    return doFetch(url, { headers, signal });
  };

  return {
    id: EBAY_CONNECTOR_ID,
    networks: ['ebay_uk'],
    async search(query: ConnectorQuery, signal: AbortSignal): Promise<readonly Listing[]> {
      let response = await requestSearch(query, signal, await options.tokens.token(signal));
      if (response.status === 401) {
        // The cached token was revoked or expired early: fetch a new one and try exactly once more.
        options.tokens.invalidate();
        response = await requestSearch(query, signal, await options.tokens.token(signal));
      }
      if (!response.ok) throw new EbayApiError('search', response.status, await ebayErrorDetail(response));

      const envelope = EbaySearchResponse.safeParse(await response.json());
      if (!envelope.success) throw new EbayApiError('search', response.status, 'unexpected search response');
      const warnings = (envelope.data.warnings ?? []).map((warning) => warning.message ?? `error ${warning.errorId}`);
      lastWarnings = warnings;
      if (warnings.length > 0) options.onWarnings?.(warnings);

      const listings: Listing[] = [];
      for (const raw of envelope.data.itemSummaries ?? []) {
        const item = EbayItemSummary.safeParse(raw);
        if (!item.success) continue;
        const listing = toListing(item.data, listings.length, options.affiliateCampaignId !== undefined);
        // Filters are re-applied here whatever eBay claims: with warnings the rows are unfiltered.
        if (listing !== undefined && meetsConstraints(listing, query)) listings.push(listing);
      }
      return listings;
    },
    describe(): ConnectorDescription {
      return lastWarnings.length > 0 ? { detail: `last response had warnings: ${lastWarnings.join('; ')}` } : {};
    },
  };
}

function buildFilter(query: ConnectorQuery): string {
  const parts = ['buyingOptions:{FIXED_PRICE}', 'deliveryCountry:GB'];
  if (query.minPence !== undefined || query.maxPence !== undefined) {
    const low = query.minPence === undefined ? '' : formatPence(query.minPence);
    const high = query.maxPence === undefined ? '' : formatPence(query.maxPence);
    parts.push(`price:[${low}..${high}]`, 'priceCurrency:GBP');
  }
  if (query.condition !== undefined) parts.push(`conditionIds:{${ebayConditionIds(query.condition).join('|')}}`);
  return parts.join(',');
}

function toListing(item: EbayItemSummary, rank: number, preferAffiliate: boolean): Listing | undefined {
  if (item.price.currency !== 'GBP') return undefined;
  if (item.buyingOptions !== undefined && !item.buyingOptions.includes('FIXED_PRICE')) return undefined;
  const pricePence = penceFromDecimal(item.price.value);
  if (pricePence === undefined || pricePence === 0) return undefined;
  const condition = conditionFromEbay(item.conditionId, item.condition);
  if (condition === undefined) return undefined;
  const affiliate = preferAffiliate && item.itemAffiliateWebUrl !== undefined;
  return {
    product: item.title,
    pricePence,
    condition,
    network: 'ebay_uk',
    url: affiliate ? (item.itemAffiliateWebUrl ?? item.itemWebUrl) : item.itemWebUrl,
    sourceRank: rank,
    imageUrl: item.image?.imageUrl,
    shippingPence: shippingOf(item),
    // Shown with the listing, never stored (eBay's licence: no seller ids kept).
    seller: item.seller?.username,
    affiliate,
  };
}

/** The cheapest GBP delivery option; undefined when eBay gives none (then the cost is unknown, not free). */
function shippingOf(item: EbayItemSummary): Pence | undefined {
  const costs = (item.shippingOptions ?? [])
    .map((option) => option.shippingCost)
    .filter((cost) => cost?.currency === 'GBP')
    .map((cost) => penceFromDecimal(cost?.value ?? ''))
    .filter((pence): pence is Pence => pence !== undefined);
  return costs.length === 0 ? undefined : (Math.min(...costs) as Pence);
}
