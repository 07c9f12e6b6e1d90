/**
 * @module
 * The `price-search` command: serve, import, keys, mcp. Human output goes to stderr except what a script
 * would capture (a created key, a key list); `mcp` keeps stdout for JSON-RPC alone.
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CustomerLinkStore, isCustomerId } from './billing/customer-links.js';
import { drawdownBillingFromEnv } from './billing/drawdown-billing.js';
import type { Catalogue } from './catalogue/catalogue.js';
import { CatalogueStore } from './catalogue/catalogue-store.js';
import { FEED_FORMATS, type FeedFormat, FeedFormatError } from './catalogue/feed/read-feed.js';
import { type ImportProgress, importFeed } from './catalogue/import-feed.js';
import { PostgresCatalogue } from './catalogue/postgres-catalogue.js';
import { ebayOptionsFrom, priceSearchFiles, readEnvironment } from './config.js';
import { type FeedSource, readFeedSources } from './feeds/feed-source.js';
import { KeyStore } from './keys/key-store.js';
import { isNetworkId, NETWORKS } from './listing/networks.js';
import type { WarmUpReport } from './lookup/warm-up.js';
import { createMcpServer } from './mcp/mcp-server.js';
import { isKeyPlan, KEY_PLANS } from './metering/plans.js';
import { openStateDatabase } from './shared/state-database.js';
import { startPriceSearch } from './start-price-search.js';

const USAGE = `Usage: price-search <command> [options]

Commands:
  serve [--port 8090] [--host 127.0.0.1] [--data-dir DIR] [--catalogue FILE | --catalogue-url URL] [--demo] [--feeds FILE]
        [--billing-url URL] [--lookups-unit ubu_…] [--warm-up-ms 6000]
      Start the HTTP API. Without an imported catalogue or live feeds the bundled demo feed is served from
      memory. Before listening, the catalogue is warmed up for at most --warm-up-ms (or PRICE_SEARCH_WARM_UP_MS;
      0 disables it) with lookups made from its own listings, sent to a stand-in of the service on a loopback
      port, none metered or cached. --feeds (or PRICE_SEARCH_FEEDS) names a JSON list of live product feeds refreshed on a schedule.
      With a billing URL (and DRAWDOWN_BILLING_KEY, DRAWDOWN_WEBHOOK_SECRET), keys linked to a Drawdown
      customer are metered by Drawdown, which notifies POST /billing/webhooks.
  import <feed> [--network ID] [--format tsv|xml|awin_csv] [--replace] [--data-dir DIR] [--catalogue FILE | --catalogue-url URL]
      Import a Google Merchant Center (TSV, XML) or Awin (CSV) feed into the catalogue; rejected rows are
      listed with reasons.
  keys create --plan pro|scale [--label TEXT] [--customer ctm_…] [--data-dir DIR]
  keys revoke <key-id> [--data-dir DIR]
  keys list [--data-dir DIR]
  mcp [--api-url URL] [--api-key KEY]
      Run the MCP stdio server against the HTTP API (env PRICE_SEARCH_API_URL, PRICE_SEARCH_API_KEY).

Environment: PRICE_SEARCH_PORT, PRICE_SEARCH_HOST, PRICE_SEARCH_DATA_DIR, PRICE_SEARCH_TRUSTED_PROXIES,
  PRICE_SEARCH_WARM_UP_MS,
  EBAY_CLIENT_ID, EBAY_CLIENT_SECRET, EBAY_BASE_URL, EBAY_AFFILIATE_CAMPAIGN_ID,
  DRAWDOWN_BILLING_URL, DRAWDOWN_BILLING_KEY, DRAWDOWN_WEBHOOK_SECRET, DRAWDOWN_LOOKUPS_UNIT_ID`;

/** Runs the CLI with `argv` (without node and script); resolves to the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return serveCommand(rest);
    case 'import':
      return importCommand(rest);
    case 'keys':
      return keysCommand(rest);
    case 'mcp':
      return mcpCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.error(USAGE);
      return command === undefined ? 1 : 0;
    default:
      console.error(`price-search: unknown command "${command}"\n\n${USAGE}`);
      return 1;
  }
}

function paths(dataDir: string | undefined, catalogue: string | undefined) {
  const files = priceSearchFiles(dataDir ?? readEnvironment().PRICE_SEARCH_DATA_DIR);
  return { catalogue: catalogue ?? files.catalogue, state: files.state };
}

async function serveCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'catalogue-url': { type: 'string' },
      catalogue: { type: 'string' },
      demo: { type: 'boolean', default: false },
      feeds: { type: 'string' },
      'billing-url': { type: 'string' },
      'lookups-unit': { type: 'string' },
      'warm-up-ms': { type: 'string' },
    },
  });
  const env = readEnvironment();
  const files = paths(values['data-dir'], values.catalogue);
  const warmUpMs = values['warm-up-ms'] === undefined ? env.PRICE_SEARCH_WARM_UP_MS : wholeNumber(values['warm-up-ms']);
  if (!Number.isInteger(warmUpMs) || warmUpMs < 0 || warmUpMs > 600_000) {
    console.error(`price-search: invalid --warm-up-ms "${values['warm-up-ms']}" (0 to 600000)`);
    return 1;
  }
  const feedsPath = values.feeds ?? process.env.PRICE_SEARCH_FEEDS;
  let feeds: FeedSource[] = [];
  try {
    feeds = feedsPath === undefined ? [] : readFeedSources(feedsPath);
  } catch (error) {
    console.error(`price-search: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const catalogueUrl = values['catalogue-url'] ?? process.env.PRICE_SEARCH_CATALOGUE_URL;
  // A PostgreSQL catalogue gets the demo feed only when asked (--demo): it may be shared.
  const useDemo = values.demo || (catalogueUrl === undefined && feeds.length === 0 && !existsSync(files.catalogue));
  const port = values.port === undefined ? env.PRICE_SEARCH_PORT : wholeNumber(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`price-search: invalid port "${values.port}"`);
    return 1;
  }
  const ebay = ebayOptionsFrom(env);
  const drawdown = drawdownBillingFromEnv(process.env, {
    baseUrl: values['billing-url'],
    lookupsUnitId: values['lookups-unit'],
  });
  if (drawdown === undefined && (values['billing-url'] ?? process.env.DRAWDOWN_BILLING_URL) !== undefined) {
    console.error(
      'price-search: billing needs DRAWDOWN_BILLING_KEY, DRAWDOWN_WEBHOOK_SECRET and --lookups-unit (or DRAWDOWN_LOOKUPS_UNIT_ID)',
    );
    return 1;
  }
  const running = await startPriceSearch({
    port,
    host: values.host ?? env.PRICE_SEARCH_HOST,
    cataloguePath: useDemo ? ':memory:' : files.catalogue,
    ...(catalogueUrl === undefined ? {} : { catalogueUrl }),
    demoFeed: useDemo,
    statePath: files.state,
    trustedProxies: env.PRICE_SEARCH_TRUSTED_PROXIES,
    ebay,
    drawdown,
    feeds,
    warmUpMs,
  });
  console.error(`price-search listening on ${running.url}`);
  console.error(`  warm-up:   ${describeWarmUp(running.warmUp)}`);
  console.error(
    `  catalogue: ${catalogueUrl !== undefined ? 'PostgreSQL' : useDemo ? 'bundled demo feed (in memory): example listings, not live offers' : files.catalogue}`,
  );
  for (const feed of feeds) {
    console.error(
      `  feed ${feed.id}: ${feed.network} from ${feed.url} (${feed.format}, every ${feed.refreshMinutes} min)`,
    );
  }
  console.error(
    `  ebay_uk:   ${ebay ? `live eBay Browse API at ${ebay.baseUrl}` : 'catalogue (EBAY_CLIENT_ID not set)'}`,
  );
  console.error(`  keys and quotas: ${files.state}`);
  console.error(`  billing:   ${drawdown ? `Drawdown at ${drawdown.baseUrl} for linked keys` : 'local quotas'}`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await running.close();
  return 0;
}

/**
 * A flag's value as a whole number written in decimal digits, or NaN: `Number` alone would read "" as 0 and
 * "0x10" or "1e3" as numbers nobody typed.
 */
function wholeNumber(text: string): number {
  return /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
}

function describeWarmUp(report: WarmUpReport): string {
  if (!report.ran) return 'off';
  const failures =
    report.failed === 0 ? '' : `, ${report.failed} failed (first: ${report.firstError ?? 'unknown error'})`;
  const budget = report.stoppedByBudget ? ', stopped by its time budget' : '';
  const path = report.overHttp ? ' over HTTP to a stand-in' : ' through the engine';
  return `${report.ms} ms (catalogue prepared in ${report.prepareMs} ms, then ${report.lookups} synthetic lookups${path})${failures}${budget}`;
}

async function importCommand(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      network: { type: 'string' },
      format: { type: 'string' },
      replace: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      'catalogue-url': { type: 'string' },
      catalogue: { type: 'string' },
    },
  });
  const [feedPath] = positionals;
  if (feedPath === undefined) {
    console.error('price-search import: give the path of a feed (TSV or RSS XML)');
    return 1;
  }
  if (values.network !== undefined && !isNetworkId(values.network)) {
    console.error(`price-search import: unknown network "${values.network}" (${NETWORKS.join(', ')})`);
    return 1;
  }
  const format = values.format;
  if (format !== undefined && !(FEED_FORMATS as readonly string[]).includes(format)) {
    console.error(`price-search import: --format is ${FEED_FORMATS.join(', ')}`);
    return 1;
  }
  const files = paths(values['data-dir'], values.catalogue);
  const catalogueUrl = values['catalogue-url'] ?? process.env.PRICE_SEARCH_CATALOGUE_URL;
  const store: Catalogue =
    catalogueUrl === undefined ? CatalogueStore.open(files.catalogue) : await PostgresCatalogue.open(catalogueUrl);
  const target = catalogueUrl === undefined ? files.catalogue : 'the PostgreSQL catalogue';
  const interactive = process.stderr.isTTY === true;
  const totalBytes = statSync(feedPath, { throwIfNoEntry: false })?.size;
  const started = performance.now();
  let shownRejections = 0;
  try {
    if (values.replace) await store.clear();
    const report = await importFeed(store, {
      path: feedPath,
      ...(format === undefined ? {} : { format: format as FeedFormat }),
      ...(values.network === undefined ? {} : { network: values.network }),
      onProgress: (progress) => {
        const line = progressLine(progress, totalBytes, performance.now() - started);
        if (interactive) process.stderr.write(`\r\u001b[K${line}`);
        else if (progress.read % 100_000 < 2_000) console.error(line);
      },
      onRejected: (rejection) => {
        shownRejections += 1;
        if (shownRejections <= 50) {
          if (interactive) process.stderr.write('\r\u001b[K');
          console.error(
            `  rejected row ${rejection.position}${rejection.itemId ? ` (id ${rejection.itemId})` : ''}: ${rejection.reason}`,
          );
        }
      },
    });
    if (interactive) process.stderr.write('\n');
    if (report.rejected > 50) console.error(`  … and ${report.rejected - 50} more rejected rows`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.error(
      `Imported ${report.imported} of ${report.read} rows into ${target} in ${seconds} s (${report.rejected} rejected).`,
    );
    return 0;
  } catch (error) {
    if (error instanceof FeedFormatError || (error instanceof Error && 'code' in error)) {
      console.error(`price-search import: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}

const BAR_WIDTH = 30;

/** "[#########.....]  31%  310,000 rows  12,400 rows/s  0 rejected" (no bar when the size is unknown). */
export function progressLine(progress: ImportProgress, totalBytes: number | undefined, elapsedMs: number): string {
  const rate = Math.round(progress.read / Math.max(elapsedMs / 1000, 0.001));
  const counts = `${progress.read.toLocaleString('en-GB')} rows  ${rate.toLocaleString('en-GB')} rows/s  ${progress.rejected.toLocaleString('en-GB')} rejected`;
  if (totalBytes === undefined || totalBytes === 0 || progress.bytesRead === undefined) return counts;
  const share = Math.min(progress.bytesRead / totalBytes, 1);
  const filled = Math.round(share * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${counts}`;
}

async function keysCommand(args: readonly string[]): Promise<number> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      plan: { type: 'string' },
      label: { type: 'string' },
      'data-dir': { type: 'string' },
      customer: { type: 'string' },
    },
  });
  const db = openStateDatabase(paths(values['data-dir'], undefined).state);
  const keys = new KeyStore(db);
  try {
    switch (action) {
      case 'create': {
        if (values.plan === undefined || !isKeyPlan(values.plan)) {
          console.error(`price-search keys create: --plan is one of ${KEY_PLANS.join(', ')}`);
          return 1;
        }
        if (values.customer !== undefined && !isCustomerId(values.customer)) {
          console.error('price-search keys create: --customer is a Drawdown customer id (ctm_…)');
          return 1;
        }
        const created = keys.create({ plan: values.plan, label: values.label ?? '', now: new Date() });
        if (values.customer !== undefined) {
          new CustomerLinkStore(db).link(created.id, values.customer, new Date());
          console.error(`Linked to Drawdown customer ${values.customer}: its lookups are billed there.`);
        }
        console.error(`Created ${created.plan} key ${created.id}. The key is shown once; store it now:`);
        console.log(created.key);
        return 0;
      }
      case 'revoke': {
        const [id] = positionals;
        if (id === undefined) {
          console.error('price-search keys revoke: give the key id (key_…)');
          return 1;
        }
        if (!keys.revoke(id, new Date())) {
          console.error(`price-search keys revoke: no active key ${id}`);
          return 1;
        }
        console.error(`Revoked ${id}.`);
        return 0;
      }
      case 'list':
        for (const key of keys.list()) {
          console.log([key.id, key.plan, key.revokedAt ? `revoked ${key.revokedAt}` : 'active', key.label].join('\t'));
        }
        return 0;
      default:
        console.error('price-search keys: create, revoke or list');
        return 1;
    }
  } finally {
    db.close();
  }
}

async function mcpCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { 'api-url': { type: 'string' }, 'api-key': { type: 'string' } },
  });
  const env = readEnvironment();
  const apiUrl = values['api-url'] ?? env.PRICE_SEARCH_API_URL;
  const server = createMcpServer({ apiUrl, apiKey: values['api-key'] ?? env.PRICE_SEARCH_API_KEY });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  console.error(`price-search mcp: serving tools over stdio against ${apiUrl}`);
  await closed;
  await server.close();
  return 0;
}
