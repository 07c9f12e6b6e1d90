// Price search benchmark: a generated 100,000-listing catalogue, import time, index memory, query latency
// through the search engine, and end-to-end queries through the HTTP API with metering on (a Scale key, so
// every lookup is authorized and recorded in the SQLite quota store). Runs on the built dist:
//   npx tsc -b apps/price-search && npm run bench -w @drawdown/price-search
// Options (env): BENCH_LISTINGS (default 100000), BENCH_SECONDS (HTTP phase, default 10), BENCH_CONNECTIONS (10),
// BENCH_IMPORT_LISTINGS (a separate large import with its peak memory, e.g. 1000000; default off).
// The HTTP phase also loads a bare node:http server (reads the body, answers "[]") the same way, pinned the same,
// in the same run: the ratio of the two rates is the service's throughput relative to Node itself.
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CatalogueStore } from '../dist/catalogue/catalogue-store.js';
import { importFeed } from '../dist/catalogue/import-feed.js';
import { composeService, NETWORKS, parseQuery, startPriceSearch } from '../dist/index.js';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const P99_TARGET_MS = 20;
const RATIO_TARGET = 0.2;
const IMPORT_LISTINGS = Number(process.env.BENCH_IMPORT_LISTINGS ?? 0);

// Deterministic pseudo-random numbers (mulberry32), so every run indexes the same catalogue and asks the same
// queries.
let seed = 20261122;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const FAMILIES = [
  {
    type: 'Mobile Phones',
    brands: [
      'Apple iPhone',
      'Samsung Galaxy',
      'Google Pixel',
      'OnePlus',
      'Motorola moto',
      'Xiaomi Redmi',
      'Sony Xperia',
      'Nokia',
    ],
    models: ['12', '13', '14', '15', '16', 'S23', 'S24', 'A15', 'A55', '7a', '8', '8a', '9', 'Note 13', 'g84', 'X5'],
    variants: ['64GB', '128GB', '256GB', '512GB'],
    colours: ['Black', 'Blue', 'Midnight', 'Starlight', 'Green', 'Silver'],
    price: [99, 1299],
  },
  {
    type: 'Laptops',
    brands: [
      'Lenovo ThinkPad',
      'Lenovo IdeaPad',
      'Dell XPS',
      'Dell Latitude',
      'HP Pavilion',
      'HP EliteBook',
      'ASUS Vivobook',
      'ASUS ROG',
      'Acer Aspire',
      'Apple MacBook Air',
      'Apple MacBook Pro',
      'Microsoft Surface Laptop',
    ],
    models: ['T480', 'T14', 'X1 Carbon', '13 9340', '7490', '15', '14', 'G14', '5', 'M1', 'M2', 'M3', '5 13.5'],
    variants: ['8GB 256GB', '16GB 512GB', '16GB 1TB', '32GB 1TB'],
    colours: ['Silver', 'Space Grey', 'Black', 'Graphite'],
    price: [199, 2499],
  },
  {
    type: 'Headphones',
    brands: [
      'Sony',
      'Bose',
      'Apple AirPods',
      'Sennheiser',
      'JBL',
      'Beats',
      'Soundcore by Anker',
      'Jabra',
      'Audio-Technica',
    ],
    models: [
      'WH-1000XM4',
      'WH-1000XM5',
      'WF-1000XM5',
      'QuietComfort 45',
      'QuietComfort Ultra',
      'Pro 2',
      'Max',
      'Momentum 4',
      'Tune 520BT',
      'Studio Pro',
      'Life Q30',
      'Elite 85t',
      'ATH-M50x',
    ],
    variants: ['Wireless Headphones', 'Noise Cancelling Earbuds', 'Over-Ear Headphones', 'On-Ear Headphones'],
    colours: ['Black', 'White', 'Silver', 'Blue', 'Midnight Blue'],
    price: [19, 549],
  },
  {
    type: 'Televisions',
    brands: ['Samsung', 'LG', 'Sony BRAVIA', 'Hisense', 'TCL', 'Philips', 'Panasonic'],
    models: ['43 Inch', '50 Inch', '55 Inch', '65 Inch', '75 Inch'],
    variants: ['4K HDR Smart TV', 'QLED 4K Smart TV', 'OLED 4K Smart TV', 'LED Full HD TV'],
    colours: ['Black', 'Titan Grey', 'Silver'],
    price: [179, 2999],
  },
  {
    type: 'Consoles',
    brands: [
      'Sony PlayStation 5',
      'Xbox Series X',
      'Xbox Series S',
      'Nintendo Switch',
      'Nintendo Switch OLED',
      'Steam Deck',
      'Meta Quest 3',
    ],
    models: ['Console', 'Slim', 'Digital Edition', 'Disc Edition', 'Bundle', 'Pro'],
    variants: ['512GB', '1TB', '2TB', '128GB'],
    colours: ['White', 'Black', 'Neon Red/Neon Blue'],
    price: [199, 749],
  },
  {
    type: 'Kitchen Appliances',
    brands: [
      'Ninja',
      'Tower',
      'Cosori',
      'Breville',
      "De'Longhi",
      'Russell Hobbs',
      'KitchenAid',
      'Kenwood',
      'Smeg',
      'Sage',
      'Instant',
    ],
    models: [
      'Air Fryer',
      'Dual Zone Air Fryer',
      'Espresso Machine',
      'Bean to Cup Coffee Machine',
      'Kettle',
      '4-Slice Toaster',
      'Stand Mixer',
      'Blender',
      'Multi-Cooker',
      'Pressure Cooker',
    ],
    variants: ['1.7L', '3.8L', '5.5L', '9.5L', '4.8L', '6L'],
    colours: ['Black', 'Stainless Steel', 'Cream', 'Red', 'Pastel Blue'],
    price: [19, 899],
  },
  {
    type: 'Vacuum Cleaners',
    brands: ['Dyson', 'Shark', 'Henry', 'Vax', 'iRobot Roomba', 'eufy', 'Hoover', 'Bosch'],
    models: [
      'V8',
      'V11',
      'V15 Detect',
      'Gen5detect',
      'Stratos',
      'Anti Hair Wrap',
      'HVR160',
      'Platinum',
      'Combo i5+',
      'RoboVac 11S',
      'H-Free 500',
    ],
    variants: ['Cordless Vacuum Cleaner', 'Upright Vacuum Cleaner', 'Robot Vacuum', 'Pet Vacuum'],
    colours: ['Nickel', 'Purple', 'Grey', 'Red'],
    price: [69, 899],
  },
  {
    type: 'Toys',
    brands: [
      'LEGO Star Wars',
      'LEGO Technic',
      'LEGO City',
      'LEGO Harry Potter',
      'LEGO Icons',
      'Barbie',
      'Hot Wheels',
      'Playmobil',
      'Tonies',
    ],
    models: [
      'Millennium Falcon',
      'Police Station',
      'Hogwarts Castle',
      'Lamborghini Sian',
      'Titanic',
      'Dreamhouse',
      'Track Set',
      'Toniebox',
    ],
    variants: ['Set', 'Building Kit', 'Playset', 'Starter Set'],
    colours: [''],
    price: [9, 649],
  },
  {
    type: 'Power Tools',
    brands: ['Bosch Professional', 'DeWalt', 'Makita', 'Ryobi ONE+', 'Milwaukee', 'Black+Decker'],
    models: ['18V Combi Drill', 'Impact Driver', 'Circular Saw', 'Jigsaw', 'Multi Sander', 'Angle Grinder'],
    variants: ['Body Only', '2 x 2.0Ah', '2 x 5.0Ah', 'Kit'],
    colours: [''],
    price: [29, 449],
  },
];
const CONDITIONS = ['new', 'new', 'new', 'used', 'refurbished'];
const DOMAINS = { amazon_uk: 'amazon', argos_uk: 'argos', currys_uk: 'currys', ebay_uk: 'ebay' };

function generateFeed(path, count) {
  const lines = ['id\ttitle\tlink\tprice\tcondition\tavailability\tbrand\tproduct_type\tnetwork'];
  for (let index = 0; index < count; index += 1) {
    const family = pick(FAMILIES);
    const brand = pick(family.brands);
    const title = [brand, pick(family.models), pick(family.variants), pick(family.colours)].filter(Boolean).join(' ');
    const network = pick(NETWORKS);
    const condition = network === 'ebay_uk' ? pick(CONDITIONS) : 'new';
    const [low, high] = family.price;
    const pence = Math.round((low + random() * (high - low)) * 100);
    const price = `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')} GBP`;
    const availability = random() < 0.05 ? 'out_of_stock' : 'in_stock';
    const link = `https://${DOMAINS[network]}.example.co.uk/item/${index}`;
    lines.push(
      [`B${index}`, title, link, price, condition, availability, brand.split(' ')[0], family.type, network].join('\t'),
    );
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}

function generateQueries(count) {
  const budgets = [
    '',
    '',
    '',
    ' under £50',
    ' under £200',
    ' below 500 pounds',
    ' between £100 and £300',
    ' £1,000 max',
    ' <£80',
  ];
  const prefixes = ['', '', '', 'cheapest ', 'used ', 'refurbished ', 'new '];
  const queries = [];
  for (let index = 0; index < count; index += 1) {
    const family = pick(FAMILIES);
    const shape = random();
    let text;
    if (shape < 0.3) text = `${pick(family.brands)} ${pick(family.models)}`;
    else if (shape < 0.55) text = pick(family.brands);
    else if (shape < 0.8) text = `${pick(family.brands)} ${pick(family.variants)}`;
    else text = `${pick(family.models)} ${pick(family.colours)}`.trim();
    queries.push(`${pick(prefixes)}${text.toLowerCase()}${pick(budgets)}`);
  }
  return queries;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// Memory probe: run in a fresh child process so the parent's garbage does not blur the figure.
if (process.argv[2] === '--memory-probe') {
  const feed = process.argv[3];
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const store = CatalogueStore.open(':memory:');
  await importFeed(store, { path: feed });
  globalThis.gc?.();
  console.log(JSON.stringify({ delta: process.memoryUsage().rss - before }));
  store.close();
  process.exit(0);
}

// Bare server child: node:http reading the request body and answering an empty JSON array.
if (process.argv[2] === '--bare') {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
  await new Promise(() => {});
}

// Import probe: imports a feed into a fresh catalogue file and reports the time and the process's peak RSS.
if (process.argv[2] === '--import-probe') {
  const [feed, file] = process.argv.slice(3);
  const store = CatalogueStore.open(file);
  const started = performance.now();
  const report = await importFeed(store, { path: feed, network: 'ebay_uk', batchSize: 5_000 });
  store.close();
  console.log(
    JSON.stringify({
      imported: report.imported,
      seconds: (performance.now() - started) / 1000,
      peakRss: process.resourceUsage().maxRSS * 1024,
    }),
  );
  process.exit(0);
}

// Server child: the HTTP phase runs the service in its own process (pinned to core 0 when taskset exists), so
// the load generator never shares an event loop with it. Prints its URL, serves until killed.
if (process.argv[2] === '--serve') {
  const running = await startPriceSearch({
    port: 0,
    cataloguePath: process.argv[3],
    statePath: process.argv[4],
    demoFeed: false,
    requestsPerMinute: { free: 1e9, pro: 1e9, scale: 1e9 },
  });
  console.log(running.url);
  process.on('SIGTERM', () => running.close().then(() => process.exit(0)));
  await new Promise(() => {});
}

const hasCommand = (command, args) => spawnSync(command, args).error === undefined;
const pinned = (core, command, args) =>
  hasCommand('taskset', ['--version']) ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];

const dir = mkdtempSync(join(tmpdir(), 'price-search-bench-'));
const rows = [];
try {
  const feedPath = join(dir, 'feed.tsv');
  generateFeed(feedPath, LISTINGS);

  // Import into a catalogue file (the production shape) and, separately, into memory for the RSS delta.
  const cataloguePath = join(dir, 'catalogue.db');
  const fileStore = CatalogueStore.open(cataloguePath);
  const started = performance.now();
  const report = await importFeed(fileStore, { path: feedPath, network: 'ebay_uk' });
  const importSeconds = (performance.now() - started) / 1000;
  fileStore.close();
  rows.push(['listings imported', `${report.imported.toLocaleString('en-GB')} (${report.rejected} rejected)`]);
  rows.push([
    'import time (TSV → SQLite FTS5 file)',
    `${importSeconds.toFixed(2)} s (${Math.round(report.imported / importSeconds).toLocaleString('en-GB')} rows/s)`,
  ]);

  const probe = execFileSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), '--memory-probe', feedPath],
    { encoding: 'utf8' },
  );
  rows.push(['index memory (in-memory catalogue, RSS delta)', mb(JSON.parse(probe).delta)]);

  // Query latency through the engine: query understanding, FTS5 + bm25, re-filter, rank, dedupe.
  const service = await composeService({ cataloguePath, statePath: ':memory:', demoFeed: false });
  const queries = generateQueries(400);
  const search = (text) => service.deps.engine.search({ parsed: parseQuery(text), networks: NETWORKS, maxResults: 5 });
  // JIT warm-up on other queries, then one cold round (every lookup computed: the result cache is empty) and
  // two warm rounds (answered from the engine's result cache).
  for (const text of generateQueries(100)) await search(text);
  const measure = async (rounds) => {
    const wall = [];
    const cpu = [];
    let empty = 0;
    for (let round = 0; round < rounds; round += 1) {
      for (const text of queries) {
        const before = process.cpuUsage();
        const start = performance.now();
        const outcome = await search(text);
        wall.push(performance.now() - start);
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
        if (outcome.listings.length === 0) empty += 1;
      }
    }
    wall.sort((x, y) => x - y);
    cpu.sort((x, y) => x - y);
    return { wall, cpu, empty };
  };
  const cold = await measure(1);
  const warm = await measure(2);
  const p99 = percentile(cold.wall, 99);
  rows.push([
    'queries (400 distinct)',
    `${cold.wall.length} cold + ${warm.wall.length} warm (${((cold.empty / cold.wall.length) * 100).toFixed(0)}% empty)`,
  ]);
  // CPU time is the work itself; on a shared machine wall time also holds waits for a core.
  for (const [label, run] of [
    ['cold', cold],
    ['warm (result cache)', warm],
  ]) {
    rows.push([
      `query wall p50 / p99 / max, ${label}`,
      `${percentile(run.wall, 50).toFixed(2)} / ${percentile(run.wall, 99).toFixed(2)} / ${run.wall.at(-1).toFixed(2)} ms`,
    ]);
    rows.push([
      `query CPU p50 / p99, ${label}`,
      `${percentile(run.cpu, 50).toFixed(2)} / ${percentile(run.cpu, 99).toFixed(2)} ms`,
    ]);
  }
  rows.push([`p99 target < ${P99_TARGET_MS} ms (cold wall time)`, p99 < P99_TARGET_MS ? 'met' : 'NOT MET']);
  await service.close();

  // End to end through HTTP, with metering on: a Scale key is authorized and recorded on every lookup.
  const statePath = join(dir, 'state.db');
  const keyService = await composeService({ statePath, demoFeed: false });
  const { key } = keyService.keys.create({ plan: 'scale', label: 'bench', now: new Date() });
  keyService.close();
  const [serverCommand, serverArgs] = pinned(0, process.execPath, [
    fileURLToPath(import.meta.url),
    '--serve',
    cataloguePath,
    statePath,
  ]);
  // The same server is loaded twice: first from a cold result cache, then with it warm from the first run.
  const [coldHttp, serviceHttp] = await loadServer([serverCommand, serverArgs], key, queries, 2);
  rows.push([
    `HTTP POST /api/query from an empty cache (${coldHttp.tool}, ${CONNECTIONS} connections, ${HTTP_SECONDS} s)`,
    `${coldHttp.rate.toFixed(0)} req/s, p50 / p99 ${coldHttp.latency}`,
  ]);
  rows.push([
    'HTTP POST /api/query, warm (same server, second run)',
    `${serviceHttp.rate.toFixed(0)} req/s, p50 / p99 ${serviceHttp.latency}`,
  ]);
  rows.push([
    `HTTP p99 target < ${P99_TARGET_MS} ms (first / second run)`,
    `${coldHttp.p99 < P99_TARGET_MS ? 'met' : 'NOT MET'} / ${serviceHttp.p99 < P99_TARGET_MS ? 'met' : 'NOT MET'}`,
  ]);
  const [bare] = await loadServer(
    pinned(0, process.execPath, [fileURLToPath(import.meta.url), '--bare']),
    key,
    queries,
    1,
  );
  rows.push([`bare node:http, same load (${bare.tool})`, `${bare.rate.toFixed(0)} req/s, p50 / p99 ${bare.latency}`]);
  for (const [label, run] of [
    ['cold', coldHttp],
    ['warm', serviceHttp],
  ]) {
    const ratio = run.rate / bare.rate;
    rows.push([
      `throughput / bare node:http, ${label} (target ≥ ${RATIO_TARGET})`,
      `${ratio.toFixed(3)} ${ratio >= RATIO_TARGET ? 'met' : 'NOT MET'}`,
    ]);
  }

  if (IMPORT_LISTINGS > 0) {
    const bigFeed = join(dir, 'big-feed.tsv');
    generateFeed(bigFeed, IMPORT_LISTINGS);
    const probe = JSON.parse(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--import-probe', bigFeed, join(dir, 'big.db')], {
        encoding: 'utf8',
      }),
    );
    rows.push([
      `import of ${IMPORT_LISTINGS.toLocaleString('en-GB')} listings (TSV → SQLite file)`,
      `${probe.seconds.toFixed(1)} s (${Math.round(probe.imported / probe.seconds).toLocaleString('en-GB')} rows/s), peak RSS ${mb(probe.peakRss)}`,
    ]);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const width = Math.max(...rows.map(([label]) => label.length));
console.log(`\nprice-search benchmark (Node ${process.version}, ${LISTINGS.toLocaleString('en-GB')} listings)\n`);
for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
console.log('');

async function loadServer([command, args], key, queries, runs) {
  const server = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [firstLine] = await once(server.stdout, 'data');
    const url = String(firstLine).trim();
    const results = [];
    for (let run = 0; run < runs; run += 1) {
      results.push(
        hasCommand('wrk', ['--version']) ? await runWrk(url, key, queries) : await runFetchLoop(url, key, queries),
      );
    }
    return results;
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
}

async function runWrk(url, key, queries) {
  const script = join(dir, 'query.lua');
  const bodies = queries.map((text) => JSON.stringify(JSON.stringify({ query: text }))).join(',\n  ');
  writeFileSync(
    script,
    `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer ${key}"
local bodies = {
  ${bodies}
}
local i = 0
request = function()
  i = (i % #bodies) + 1
  return wrk.format(nil, "/api/query", nil, bodies[i])
end
done = function(summary, latency, requests)
  io.write(string.format("BENCH %d %d %.3f %.3f\\n", summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
`,
  );
  // wrk on core 1, the server on core 0.
  const [command, args] = pinned(1, 'wrk', ['-t1', `-c${CONNECTIONS}`, `-d${HTTP_SECONDS}s`, '-s', script, url]);
  const { stdout } = await promisify(execFile)(command, args, { encoding: 'utf8' });
  const match = /BENCH (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(stdout);
  if (match === null) throw new Error(`unexpected wrk output:\n${stdout}`);
  const [, requests, errors, p50, p99] = match;
  if (Number(errors) > 0) console.error(`wrk reported ${errors} errors`);
  return {
    tool: 'wrk',
    rate: Number(requests) / HTTP_SECONDS,
    p99: Number(p99),
    latency: `${Number(p50).toFixed(2)} / ${Number(p99).toFixed(2)} ms`,
  };
}

async function runFetchLoop(url, key, queries) {
  const deadline = performance.now() + HTTP_SECONDS * 1000;
  let done = 0;
  let next = 0;
  const latencies = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const text = queries[next++ % queries.length];
        const started = performance.now();
        const response = await fetch(`${url}/api/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ query: text }),
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        if (response.ok) done += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    tool: 'fetch loop, wrk not installed',
    rate: done / HTTP_SECONDS,
    p99: percentile(latencies, 99),
    latency: `${percentile(latencies, 50).toFixed(2)} / ${percentile(latencies, 99).toFixed(2)} ms`,
  };
}
