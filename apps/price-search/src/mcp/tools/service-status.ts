/**
 * @module
 * The `service_status` tool: the service's /health, reduced to what an agent needs to decide whether to retry.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { PriceSearchClient } from '../../client/price-search-client.js';

/** Output of service_status. */
export const serviceStatusOutput = {
  healthy: z.boolean(),
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  networks: z.array(z.object({ network: z.string(), status: z.string() })),
  catalogue_source: z.string(),
  notice: z.string().nullable(),
  feeds: z.array(
    z.object({ id: z.string(), network: z.string(), status: z.string(), last_success_at: z.string().nullable() }),
  ),
};

/** Registers the tool. */
export function registerServiceStatus(server: McpServer, client: PriceSearchClient): void {
  server.registerTool(
    'service_status',
    {
      title: 'Price search service status',
      description:
        'Whether the price search service and each marketplace network are answering, where listings come from ' +
        '(live feeds, an imported catalogue, or only the demo catalogue) and how fresh each feed is.',
      outputSchema: serviceStatusOutput,
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false },
    },
    async (): Promise<CallToolResult> => {
      try {
        const health = await client.health();
        const networks = health.networks.map((entry) => ({ network: entry.network, status: entry.status }));
        // Older services send neither catalogue nor feeds.
        const catalogue = health.catalogue ?? { source: 'imported', notice: null };
        const feeds = (health.feeds ?? []).map((feed) => ({
          id: feed.id,
          network: feed.network,
          status: feed.status,
          last_success_at: feed.last_success_at,
        }));
        const structured = {
          healthy: health.status !== 'down',
          status: health.status,
          version: health.version,
          networks,
          catalogue_source: catalogue.source,
          notice: catalogue.notice,
          feeds,
        };
        const feedText = feeds.map(
          (feed) => `feed ${feed.id} ${feed.status} (last success ${feed.last_success_at ?? 'never'})`,
        );
        return {
          content: [
            {
              type: 'text',
              text: [
                `Service ${health.status}: ${networks.map((entry) => `${entry.network} ${entry.status}`).join(', ')}`,
                ...feedText,
                ...(catalogue.notice === null ? [] : [catalogue.notice]),
              ].join('\n'),
            },
          ],
          structuredContent: structured,
        };
      } catch (error) {
        return {
          isError: true,
          content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
        };
      }
    },
  );
}
