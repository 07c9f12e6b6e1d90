/**
 * @module
 * The offline catalogue as a connector. SQLite answers synchronously in about a millisecond, so the signal is
 * only checked before the query runs.
 */
import type { Listing } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { Connector, ConnectorDescription, ConnectorQuery } from '../search/connector.js';
import type { Catalogue } from './catalogue.js';

/** Connector id of the offline catalogue. */
export const CATALOGUE_CONNECTOR_ID = 'catalogue';

/** Serves `networks` from the catalogue. */
export function createCatalogueConnector(store: Catalogue, networks: readonly NetworkId[]): Connector {
  return {
    id: CATALOGUE_CONNECTOR_ID,
    networks,
    async search(query: ConnectorQuery, signal: AbortSignal): Promise<readonly Listing[]> {
      signal.throwIfAborted();
      const hits = await store.search({
        terms: query.terms,
        networks: query.networks,
        minPence: query.minPence,
        maxPence: query.maxPence,
        condition: query.condition,
        sort: query.sort,
        limit: query.limit,
      });
      return hits.map((hit, rank) => ({
        product: hit.title,
        pricePence: hit.pricePence,
        condition: hit.condition,
        network: hit.network,
        url: hit.url,
        sourceRank: rank,
        imageUrl: hit.imageUrl ?? undefined,
        shippingPence: hit.shippingPence ?? undefined,
        offers: hit.offers,
      }));
    },
    cacheStamp: () => store.cacheStamp(),
    answersMaxAgeMs: store.answersMaxAgeMs,
    describe(): ConnectorDescription {
      return { listingsByNetwork: store.countByNetwork() };
    },
  };
}
