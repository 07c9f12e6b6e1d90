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
};

/** Registers the tool. */
export function registerServiceStatus(server: McpServer, client: PriceSearchClient): void {
  server.registerTool(
    'service_status',
    {
      title: 'Price search service status',
      description: 'Whether the price search service and each marketplace network are answering.',
      outputSchema: serviceStatusOutput,
      annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false },
    },
    async (): Promise<CallToolResult> => {
      try {
        const health = await client.health();
        const networks = health.networks.map((entry) => ({ network: entry.network, status: entry.status }));
        const structured = {
          healthy: health.status !== 'down',
          status: health.status,
          version: health.version,
          networks,
        };
        return {
          content: [
            {
              type: 'text',
              text: `Service ${health.status}: ${networks.map((entry) => `${entry.network} ${entry.status}`).join(', ')}`,
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
