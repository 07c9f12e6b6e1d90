#!/usr/bin/env node
// `npm start`: the whole system on the embedded database, in one process: the billing service
// (live and sandbox), the customer billing portal demo on the sandbox, and the price search
// service. Runs on the built workspace (`npm start` builds first).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiKey } from '@drawdown/billing-core';
import { startPortalDemo } from '@drawdown/billing-portal';
import {
  composeServices,
  createLogger,
  resolveServiceConfig,
  startOperationsServer,
  startService,
} from '@drawdown/billing-service';
import {
  BILLING_WEBHOOK_PATH,
  ebayOptionsFrom,
  priceSearchFiles,
  readEnvironment,
  setupDrawdownPlans,
  startPriceSearch,
} from '@drawdown/price-search';
import { Drawdown } from '@drawdown/sdk';

// Anything that stops the start (a busy port, an unreadable data folder) is one line, as
// `drawdown serve` reports it, not a stack trace.
process.on('uncaughtException', (error) => {
  process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

const portalPort = Number(process.env.DRAWDOWN_PORTAL_PORT ?? 8082);
// Sandbox portal session links and management URLs lead to the portal demo started below (ADR 1440).
const demoHost = (process.env.DRAWDOWN_HOST ?? '127.0.0.1').replace(/^(0\.0\.0\.0|::)$/, '127.0.0.1');
const config = resolveServiceConfig({
  ...(process.env.DRAWDOWN_SANDBOX_PORTAL_URL
    ? {}
    : { 'sandbox-portal-url': `http://${demoHost}:${portalPort}/billing` }),
  // The demo's own price search service takes its webhooks on this machine, so the demo lets
  // webhooks reach private destinations (ADR 1485) unless DRAWDOWN_ALLOW_PRIVATE_WEBHOOKS says otherwise.
  ...(process.env.DRAWDOWN_ALLOW_PRIVATE_WEBHOOKS === undefined ? { 'allow-private-webhooks': true } : {}),
});
const searchPort = Number(process.env.DRAWDOWN_SEARCH_PORT ?? 8090);
mkdirSync(config.dataDir, { recursive: true });

// The local all-in-one run migrates the embedded database itself and asks for the demo account
// explicitly (ADR 1403, 1404): made once, after the server listens, with a sandbox key only.
// The demo's own setup (the portal's customers, price search's plans) makes a few hundred requests:
// their access lines are held back until the start is done, so the key and what to do next are the
// last lines printed. Requests after that are logged at the configured level.
const logger = createLogger({ level: config.logLevel });
logger.level = logger.isLevelEnabled('warn') ? 'warn' : config.logLevel;
const services = await composeServices(config, { schema: 'migrate', logger });
const billing = await startService(services, config);
const operations = config.opsAddress ? await startOperationsServer(billing.operations, config.opsAddress) : null;
const demo = await services.useCases.createDemoAccount({ liveKey: false });

// The portal demo needs a sandbox key of the demo account at every start, but keys are shown only
// once: the launcher keeps its own in the data folder (readable by this user only), next to the
// database it unlocks, and makes a new one when the stored one no longer works.
const keyFile = join(config.dataDir, 'launcher-keys.json');
async function launcherSandboxKey() {
  if (existsSync(keyFile)) {
    const stored = JSON.parse(readFileSync(keyFile, 'utf8'));
    const key = await services.store.apiKeys.findById(stored.keyId);
    if (key && key.revokedAt === null) return stored.token;
  }
  const { key, token } = await createApiKey(services, {
    accountId: demo.accountId,
    environment: 'sandbox',
    name: 'Launcher (portal demo)',
    permissions: ['all'],
  });
  writeFileSync(keyFile, JSON.stringify({ keyId: key.id, token }), { mode: 0o600 });
  chmodSync(keyFile, 0o600);
  return token;
}

// Price search's paid plans are metered by this Drawdown, in the demo account's sandbox: the plans
// exist as prices with a `lookups` allowance, usage is reported per lookup, and the depletion and
// renewal webhooks come back to the price search service.
const sandboxKey = await launcherSandboxKey();
async function priceSearchBilling() {
  const client = new Drawdown(sandboxKey, { baseUrl: billing.sandboxUrl });
  const plans = await setupDrawdownPlans(client);
  const destination = `http://${config.host}:${searchPort}${BILLING_WEBHOOK_PATH}`;
  const events = ['usage_balance.depleted', 'subscription.updated'];
  let setting;
  for await (const existing of client.notificationSettings.list()) {
    if (existing.destination === destination) setting = existing;
  }
  setting ??= await client.notificationSettings.create({
    description: 'Price search metering',
    destination,
    subscribedEvents: events,
  });
  return {
    baseUrl: billing.sandboxUrl,
    apiKey: sandboxKey,
    webhookSecret: setting.endpointSecretKey,
    lookupsUnitId: plans.lookupsUnitId,
  };
}

// The price search keeps its files where `price-search keys create` and `import` look by default
// (`PRICE_SEARCH_DATA_DIR`, else `price-search` in this data folder), so a key made with the CLI works here.
// Older launches kept the state (keys, quotas) as price-search-state.sqlite: moved once.
const searchEnvironment = readEnvironment({ ...process.env, DRAWDOWN_DATA_DIR: config.dataDir });
const searchFiles = priceSearchFiles(searchEnvironment.PRICE_SEARCH_DATA_DIR);
const oldState = join(config.dataDir, 'price-search-state.sqlite');
if (existsSync(oldState) && !existsSync(searchFiles.state)) {
  mkdirSync(searchEnvironment.PRICE_SEARCH_DATA_DIR, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(oldState + suffix)) renameSync(oldState + suffix, searchFiles.state + suffix);
  }
}
const search = await startPriceSearch({
  drawdown: await priceSearchBilling(),
  port: searchPort,
  host: config.host,
  // eBay credentials in the environment (EBAY_CLIENT_ID, EBAY_CLIENT_SECRET) turn the live connector on.
  ebay: ebayOptionsFrom(searchEnvironment),
  trustedProxies: searchEnvironment.PRICE_SEARCH_TRUSTED_PROXIES ?? 0,
  // The start-up warm-up's budget (ADR 0222), as `price-search serve` reads it.
  warmUpMs: searchEnvironment.PRICE_SEARCH_WARM_UP_MS,
  cataloguePath: searchFiles.catalogue,
  statePath: searchFiles.state,
});
const portal = await startPortalDemo({
  billingSandboxUrl: billing.sandboxUrl,
  sandboxKey,
  port: portalPort,
  host: config.host,
});

const next = (key) => `Next, the README's "A subscription in two sandbox calls" with:
  export SANDBOX=${billing.sandboxUrl} KEY=${key}
  curl "$SANDBOX/customers?per_page=5" -H "Authorization: Bearer $KEY"
`;
console.log(`
Drawdown is running (SQLite in ${config.dataDir}):
  billing API, live       ${billing.liveUrl}
  billing API, sandbox    ${billing.sandboxUrl}
  billing portal (demo)   ${portal.url}
  price search            ${search.url}  (POST /api/query, GET /health; paid plans metered by the sandbox;
                          keys: node apps/price-search/bin/price-search.js keys create --plan pro)
${operations ? `  operations              ${operations.url}  (/livez /readyz /metrics /version /openapi.json)\n` : ''}`);
if (demo.created) {
  console.log(`Demo account ${demo.accountId} (early access). Its sandbox API key is shown once, keep it:
  sandbox: ${demo.sandboxKey}

${next(demo.sandboxKey)}`);
} else {
  console.log(`Demo account ${demo.accountId}. Its sandbox key was shown at the first start; make another with:
  npx drawdown keys create --account ${demo.accountId} --env sandbox --permission all --data-dir ${config.dataDir}

${next('<that key>')}`);
}
// The start is done: requests are logged from here on at the configured level.
logger.level = config.logLevel;

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([portal.close(), search.close()]);
  await billing.close();
  await operations?.close();
  process.exit(0);
}
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
