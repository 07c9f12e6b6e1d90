/**
 * @module
 * The `search_products` tool: the query fields of the API in, `{results, meta}` out. Every failure (bad input,
 * quota, service down) is a tool result with `isError: true` and a message an agent can act on.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  type RuleFollowingClient,
  type RuleFollowingResult,
  SearchFailedError,
} from '../../client/rule-following-client.js';
import { NETWORKS } from '../../listing/networks.js';
import { formatPence, penceFromPounds } from '../../money/pence.js';

const listing = z.object({
  product: z.string(),
  price: z.number(),
  currency: z.literal('GBP'),
  condition: z.enum(['New', 'Used', 'Refurbished']),
  network: z.enum(NETWORKS),
  url: z.string(),
  delivery_cost: z.number().nullable(),
  total_price: z.number().nullable(),
  availability: z.literal('in_stock'),
  image: z.string().nullable(),
  seller: z.string().nullable(),
  offers: z.int(),
  affiliate_disclosure: z.string().nullable(),
});

/** Input of search_products (the API's request fields). */
export const searchProductsInput = {
  query: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .describe('Natural-language product query, e.g. "used thinkpad t480 under £300"'),
  max_results: z.int().min(1).max(20).default(5).describe('Maximum listings to return (1-20)'),
  max_price: z
    .number()
    .positive()
    .optional()
    .describe('Price ceiling in pounds; set it whenever the user states a budget'),
  min_price: z
    .number()
    .min(0)
    .optional()
    .describe('Price floor in pounds, e.g. to skip accessories when the user wants the product itself'),
  currency: z.enum(['GBP']).optional().describe('Listings are priced in GBP only; omit it or send GBP'),
  networks: z
    .array(z.enum(NETWORKS))
    .min(1)
    .optional()
    .describe('Marketplaces to search, <marketplace>_uk; all when omitted'),
};

/** Output of search_products. */
export const searchProductsOutput = {
  results: z.array(listing),
  meta: z.object({
    query: z.string(),
    searched_query: z.string(),
    broadened: z.boolean(),
    returned: z.int(),
    networks_searched: z.array(z.string()),
    networks_failed: z.array(z.string()),
  }),
};

/** Registers the tool. */
export function registerSearchProducts(server: McpServer, client: RuleFollowingClient): void {
  server.registerTool(
    'search_products',
    {
      title: 'Search UK product listings',
      description:
        'UK marketplace listings (GBP) for a physical product, with a direct purchase link each; call ' +
        'service_status to learn whether they are live or only the demo catalogue. ' +
        'Show every url to the user unchanged. When nothing matches, one broader query is tried automatically: ' +
        'then meta.broadened is true, meta.searched_query is what was searched, and the text says that the ' +
        'listings are other products, not the one asked for.',
      inputSchema: searchProductsInput,
      outputSchema: searchProductsOutput,
      annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: false, destructiveHint: false },
    },
    async (args): Promise<CallToolResult> => {
      try {
        const result = await client.search({
          query: args.query,
          max_results: args.max_results,
          ...(args.max_price === undefined ? {} : { max_price: args.max_price }),
          ...(args.min_price === undefined ? {} : { min_price: args.min_price }),
          ...(args.currency === undefined ? {} : { currency: args.currency }),
          ...(args.networks === undefined ? {} : { networks: args.networks }),
        });
        return {
          content: [{ type: 'text', text: summaryText(result) }],
          structuredContent: { results: [...result.results], meta: result.meta },
        };
      } catch (error) {
        return { isError: true, content: [{ type: 'text', text: describeFailure(error) }] };
      }
    },
  );
}

/**
 * A wire price (a JSON number of pounds) as the text shows it, through whole pence as every other
 * amount here: `£1299.90`. A number that is not whole pence (never sent by the service) is shown as given.
 */
export function poundsText(pounds: number): string {
  const pence = penceFromPounds(pounds);
  return pence === undefined ? `£${pounds}` : `£${formatPence(pence)}`;
}

/**
 * The tool's text: the listings, one a line. When the client rules broadened the query, the text says so first,
 * plainly, with the query searched: those listings are not what was asked for, and an agent must not present
 * them as if they were (issue 38).
 */
export function summaryText(result: RuleFollowingResult): string {
  const { query, searched_query: searched, broadened } = result.meta;
  const lines = result.results.map(
    (item) => `${item.product} — ${poundsText(item.price)} (${item.condition}, ${item.network}) ${item.url}`,
  );
  if (!broadened) return lines.length === 0 ? `No listings found for "${query}".` : lines.join('\n');
  if (lines.length === 0) {
    return `No listings found for "${query}", nor for the broader search "${searched}" that was tried next.`;
  }
  return [
    `No listings found for "${query}". The search was broadened to "${searched}": these listings are NOT ` +
      `"${query}" but other products matching the broader words. Tell the user so before showing them.`,
    ...lines,
  ].join('\n');
}

function describeFailure(error: unknown): string {
  if (!(error instanceof SearchFailedError)) {
    console.error('price-search mcp: unexpected error', error);
    return `Search failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  const { code, retryAfterSeconds } = error.apiError;
  const wait = retryAfterSeconds === undefined ? '' : ` Retry after ${retryAfterSeconds} s.`;
  switch (code) {
    case 'monthly_quota_exceeded':
      return `Monthly lookup quota used up: ${error.message}${wait}`;
    case 'too_many_requests':
      return `Rate limited by the price search service.${wait}`;
    case 'invalid_api_key':
      return `The configured API key was refused (${error.message}). Check PRICE_SEARCH_API_KEY.`;
    default:
      return `Search failed (${code}): ${error.message}${wait}`;
  }
}
