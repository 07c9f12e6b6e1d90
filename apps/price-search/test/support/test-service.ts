import { onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { composeService, type PriceSearchService, type ServiceOptions } from '../../src/compose-service.js';
import type { Listing } from '../../src/listing/listing.js';
import type { NetworkId } from '../../src/listing/networks.js';
import type { Pence } from '../../src/money/pence.js';
import type { Connector, ConnectorQuery } from '../../src/search/connector.js';

// High enough that no test meets the short-term rate limit unless it sets its own.
export const UNLIMITED_RATE = { free: 100_000, pro: 100_000, scale: 100_000 } as const;

/** A composed service on in-memory databases with its app; closed when the test finishes. */
export interface TestService {
  readonly service: PriceSearchService;
  readonly app: ReturnType<typeof createApp>;
  /** POST /api/query from `address` (sent as X-Forwarded-For; the test service trusts one proxy). */
  query(body: unknown, init?: { address?: string; key?: string; contentType?: string }): Promise<Response>;
}

/** `closeWith` registers the cleanup: after this test by default, or e.g. `afterAll` for a shared service. */
export async function createTestService(
  options: ServiceOptions = {},
  closeWith: (cleanup: () => void) => void = onTestFinished,
): Promise<TestService> {
  const service = await composeService({
    cataloguePath: ':memory:',
    statePath: ':memory:',
    trustedProxies: 1,
    requestsPerMinute: UNLIMITED_RATE,
    ...options,
  });
  closeWith(() => service.close());
  const app = createApp(service.deps);
  return {
    service,
    app,
    query: async (body, init = {}) => {
      const headers: Record<string, string> = {
        'content-type': init.contentType ?? 'application/json',
        'x-forwarded-for': init.address ?? '203.0.113.7',
      };
      if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
      return app.request('/api/query', {
        method: 'POST',
        headers,
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
  };
}

/** A listing for fake connectors. */
export function aListing(overrides: Partial<Listing> & { network: NetworkId }): Listing {
  return {
    product: 'Test Product',
    pricePence: 1000 as Pence,
    condition: 'new',
    url: `https://www.example.co.uk/${overrides.network}/${Math.random().toString(36).slice(2)}`,
    sourceRank: 0,
    ...overrides,
  };
}

/** A connector answering with fixed listings and remembering what it was asked. */
export function fixedConnector(
  id: string,
  networks: readonly NetworkId[],
  listings: readonly Listing[],
): Connector & { readonly queries: ConnectorQuery[] } {
  const queries: ConnectorQuery[] = [];
  return {
    id,
    networks,
    queries,
    async search(query) {
      queries.push(query);
      return listings;
    },
  };
}

/** A connector that always throws. */
export function failingConnector(id: string, networks: readonly NetworkId[], message: string): Connector {
  return {
    id,
    networks,
    async search() {
      throw new Error(message);
    },
  };
}

/** A connector that never answers and ignores its abort signal, the worst case for the deadline. */
export function hangingConnector(id: string, networks: readonly NetworkId[]): Connector {
  return {
    id,
    networks,
    search: () => new Promise<never>(() => {}),
  };
}
