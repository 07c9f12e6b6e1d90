/**
 * @module
 * The stdio MCP server: a thin client of the HTTP API (not the engine in-process), so plans, keys, quotas and
 * health are those of the service it points at, and the seed's client rules apply to every tool call.
 * stdout belongs to JSON-RPC; everything else goes to stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PriceSearchClient } from '../client/price-search-client.js';
import { RuleFollowingClient } from '../client/rule-following-client.js';
import { PACKAGE_VERSION } from '../shared/package-info.js';
import { registerSearchProducts } from './tools/search-products.js';
import { registerServiceStatus } from './tools/service-status.js';

/** Where the MCP server finds the API. */
export interface McpServerOptions {
  readonly apiUrl: string;
  readonly apiKey?: string | undefined;
}

const INSTRUCTIONS = [
  'UK marketplace listings for physical products (find, compare, cheapest, under a budget, in stock).',
  'Whether they are live depends on the service: service_status says where listings come from and how fresh',
  'they are, and says plainly when only the demo catalogue (example links) is served.',
  'Tell the user when a listing carries an affiliate_disclosure.',
  'Not for digital products, subscriptions, services, non-UK regions or price history.',
  "Pass the user's intent as a natural query; set max_price whenever the user states a budget;",
  'show each url to the user exactly as given. Prices are GBP.',
].join(' ');

/** Creates the MCP server with its two tools. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const api = new PriceSearchClient({ baseUrl: options.apiUrl, apiKey: options.apiKey });
  const server = new McpServer({ name: 'price-search', version: PACKAGE_VERSION }, { instructions: INSTRUCTIONS });
  registerSearchProducts(server, new RuleFollowingClient(api));
  registerServiceStatus(server, api);
  return server;
}
