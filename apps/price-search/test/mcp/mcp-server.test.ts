import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { WireListing } from '../../src/listing/listing.js';
import { startPriceSearch } from '../../src/start-price-search.js';
import { startFakeEbay } from '../support/fake-ebay-server.js';
import { UNLIMITED_RATE } from '../support/test-service.js';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = `${packageRoot}bin/price-search.js`;

// The MCP server runs as a real child process on the built output. `npm test` builds first; a bare
// `vitest run` on a clean clone builds here.
beforeAll(() => {
  if (!existsSync(`${packageRoot}dist/cli.js`)) {
    execFileSync(process.execPath, [`${repositoryRoot}node_modules/typescript/bin/tsc`, '-b', 'apps/price-search'], {
      cwd: repositoryRoot,
      stdio: 'inherit',
    });
  }
}, 120_000);

async function startService(options: Parameters<typeof startPriceSearch>[0] = {}) {
  const service = await startPriceSearch({
    port: 0,
    cataloguePath: ':memory:',
    statePath: ':memory:',
    requestsPerMinute: UNLIMITED_RATE,
    ...options,
  });
  onTestFinished(() => service.close());
  return service;
}

async function connectMcp(apiUrl: string, closeAfterTest = true): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', '--api-url', apiUrl],
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'price-search-test', version: '1.0.0' });
  await client.connect(transport);
  if (closeAfterTest) onTestFinished(() => client.close());
  return client;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

interface SearchOutput {
  results: WireListing[];
  meta: { query: string; searched_query: string; broadened: boolean; returned: number; networks_failed: string[] };
}

describe('MCP stdio server', () => {
  // One service and one MCP process for the read-only tests: spawning node costs about a second each.
  let shared: { client: Client; close(): Promise<void> };
  beforeAll(async () => {
    const service = await startPriceSearch({
      port: 0,
      cataloguePath: ':memory:',
      statePath: ':memory:',
      requestsPerMinute: UNLIMITED_RATE,
    });
    const client = await connectMcp(service.url, false);
    shared = {
      client,
      close: async () => {
        await client.close();
        await service.close();
      },
    };
  });
  afterAll(() => shared.close());

  it('introduces itself and lists search_products and service_status with their schemas', async () => {
    const { client } = shared;
    expect(client.getServerVersion()).toEqual({ name: 'price-search', version: '0.1.0' });
    expect(client.getInstructions()).toContain('set max_price whenever the user states a budget');

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['search_products', 'service_status']);
    const search = tools.find((tool) => tool.name === 'search_products');
    expect(search?.inputSchema.required).toEqual(['query']);
    expect(search?.inputSchema.properties).toMatchObject({
      query: { type: 'string', maxLength: 200 },
      max_results: { default: 5, minimum: 1, maximum: 20 },
      max_price: { type: 'number' },
      min_price: { type: 'number', minimum: 0 },
      currency: { type: 'string', enum: ['GBP'] },
      networks: { type: 'array' },
    });
    expect(search?.outputSchema?.properties).toHaveProperty('results');
    expect(search?.annotations?.readOnlyHint).toBe(true);
  });

  it('searches through the HTTP API and returns structured listings', async () => {
    const { client } = shared;
    const result = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'sony wh-1000xm5', max_results: 3, max_price: 300 },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as unknown as SearchOutput;
    expect(output.results.length).toBeGreaterThan(0);
    expect(output.results.length).toBeLessThanOrEqual(3);
    for (const listing of output.results) {
      expect(listing.product).toContain('WH-1000XM5');
      expect(listing.price).toBeLessThanOrEqual(300);
      expect(listing.currency).toBe('GBP');
      expect(text(result)).toContain(listing.url);
    }
    expect(output.meta).toMatchObject({ query: 'sony wh-1000xm5', broadened: false, returned: output.results.length });
  });

  it('passes min_price and currency to the API: listings below the floor are left out', async () => {
    const { client } = shared;
    const all = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'kettle', max_results: 20 },
    })) as CallToolResult;
    const prices = (all.structuredContent as unknown as SearchOutput).results.map((listing) => listing.price);
    expect(new Set(prices).size).toBeGreaterThan(1);
    const floor = Math.max(...prices);
    const result = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'kettle', max_results: 20, min_price: floor, currency: 'GBP' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as unknown as SearchOutput;
    expect(output.results.length).toBeGreaterThan(0);
    expect(output.results.length).toBeLessThan(prices.length);
    for (const listing of output.results) expect(listing.price).toBeGreaterThanOrEqual(floor);

    const euros = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'kettle', currency: 'EUR' },
    })) as CallToolResult;
    expect(euros.isError).toBe(true);
    expect(text(euros)).toContain('currency');
  });

  it('retries once with a broader query when nothing is found', async () => {
    const { client } = shared;
    const result = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'refurbished russell hobbs 26200 kettle' },
    })) as CallToolResult;
    const output = result.structuredContent as unknown as SearchOutput;
    expect(output.meta).toMatchObject({ broadened: true, searched_query: 'russell kettle' });
    expect(output.results.length).toBeGreaterThan(0);
    // The text says plainly that these are other products, and what was searched (issue 38).
    expect(text(result).split('\n')[0]).toBe(
      'No listings found for "refurbished russell hobbs 26200 kettle". The search was broadened to "russell kettle": ' +
        'these listings are NOT "refurbished russell hobbs 26200 kettle" but other products matching the broader ' +
        'words. Tell the user so before showing them.',
    );
  });

  it('returns invalid arguments as a tool error', async () => {
    const { client } = shared;
    const result = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'kettle', max_results: 50 },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('max_results');
  });

  it('returns an API refusal as a tool error with its reason', async () => {
    const service = await startService({ monthlyLookups: { free: 1, pro: 5000, scale: undefined } });
    const client = await connectMcp(service.url);
    await client.callTool({ name: 'search_products', arguments: { query: 'kettle' } });
    const result = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'kettle' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Monthly lookup quota used up: The monthly allowance of 1 lookups is used up/);
    expect(text(result)).toMatch(/Retry after \d+ s\./);
  });

  it('reports service status', async () => {
    const { client } = shared;
    const result = (await client.callTool({ name: 'service_status', arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ healthy: true, status: 'ok', version: '0.1.0' });
    expect((result.structuredContent as { networks: unknown[] }).networks).toHaveLength(4);
  });

  it('checks health after two consecutive failed calls and says what it found', async () => {
    const ebay = await startFakeEbay(() => ({
      status: 500,
      body: { errors: [{ errorId: 1, message: 'System error' }] },
    }));
    const service = await startService({
      demoFeed: false,
      ebay: { clientId: 'client-id', clientSecret: 'client-secret', baseUrl: ebay.baseUrl },
    });
    const client = await connectMcp(service.url);
    const call = async () =>
      (await client.callTool({
        name: 'search_products',
        arguments: { query: 'iphone 13', networks: ['ebay_uk'] },
      })) as CallToolResult;
    const first = await call();
    expect(first.isError).toBe(true);
    expect(text(first)).toContain('networks_unavailable');
    expect(text(first)).not.toContain('Health check');
    const second = await call();
    expect(second.isError).toBe(true);
    expect(text(second)).toContain(
      'Health check: service down; ebay_browse failing (eBay search failed with HTTP 500: System error)',
    );
    expect(ebay.searches().length).toBeGreaterThanOrEqual(2);
  });

  it('reports an unreachable API as tool errors', async () => {
    const service = await startService();
    const deadUrl = service.url;
    await service.close();
    const client = await connectMcp(deadUrl);
    const search = (await client.callTool({
      name: 'search_products',
      arguments: { query: 'kettle' },
    })) as CallToolResult;
    expect(search.isError).toBe(true);
    expect(text(search)).toContain(`The price search API at ${deadUrl} did not answer`);
    const status = (await client.callTool({ name: 'service_status', arguments: {} })) as CallToolResult;
    expect(status.isError).toBe(true);
  });
});
