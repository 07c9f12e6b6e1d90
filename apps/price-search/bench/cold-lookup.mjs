// Cold lookups through the search engine, CPU time per lookup (process.cpuUsage), on an existing catalogue:
// a fresh process, 100 warm-up lookups (JIT, the vocabulary), then 400 distinct lookups each computed (the result
// cache never holds them). Made to compare builds in turns on a shared machine, and to profile one
// (`node --cpu-prof bench/cold-lookup.mjs ...`). Prints one JSON line.
//   node bench/cold-lookup.mjs <catalogue.db | postgres://...> [rounds]
//   node bench/cold-lookup.mjs --make <catalogue.db | postgres://...> [listings]   (the search bench's catalogue)
// BENCH_DIST: the build to load (default ../dist), e.g. a copy of an older build's dist directory.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateFeed, generateQueries, resetRandom } from './generate.mjs';

const dist = process.env.BENCH_DIST ?? new URL('../dist/', import.meta.url).pathname;
const load = (module) => import(pathToFileURL(`${dist.replace(/\/$/, '')}/${module}`).href);
const { composeService, NETWORKS, parseQuery } = await load('index.js');
const { importFeed } = await load('catalogue/import-feed.js');

if (process.argv[2] === '--make') {
  const [target, listings] = process.argv.slice(3);
  const dir = mkdtempSync(join(tmpdir(), 'price-search-cold-'));
  try {
    const feed = join(dir, 'feed.tsv');
    resetRandom();
    generateFeed(feed, Number(listings ?? 100_000));
    const location = target.startsWith('postgres') ? { catalogueUrl: target } : { cataloguePath: target };
    const service = await composeService({ ...location, statePath: ':memory:', demoFeed: false });
    const report = await importFeed(service.catalogue, { path: feed, network: 'ebay_uk' });
    await service.close();
    console.log(JSON.stringify({ imported: report.imported }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

const [target, roundsArgument] = process.argv.slice(2);
if (target === undefined) throw new Error('usage: cold-lookup.mjs <catalogue.db | postgres://...> [rounds]');
const rounds = Number(roundsArgument ?? 1);

const location = target.startsWith('postgres') ? { catalogueUrl: target } : { cataloguePath: target };
const service = await composeService({ ...location, statePath: ':memory:', demoFeed: false });
try {
  resetRandom();
  const all = generateQueries(400 + 100 * rounds);
  const search = (text) => service.deps.engine.search({ parsed: parseQuery(text), networks: NETWORKS, maxResults: 5 });
  for (const text of all.slice(400)) await search(text);
  // On PostgreSQL the database's own work happens in its backends: their CPU time (from /proc, this database's
  // connections only) is reported beside this process's.
  const backends = target.startsWith('postgres') ? await backendCpu(target) : undefined;
  const cpu = [];
  let empty = 0;
  // Each round asks the 400 queries with a different result count, so no lookup is answered from the cache.
  for (let round = 0; round < rounds; round += 1) {
    for (const text of all.slice(0, 400)) {
      const before = process.cpuUsage();
      const outcome = await service.deps.engine.search({
        parsed: parseQuery(text),
        networks: NETWORKS,
        maxResults: 5 + round,
      });
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
      if (outcome.listings.length === 0) empty += 1;
    }
  }
  const total = cpu.reduce((sum, value) => sum + value, 0);
  cpu.sort((x, y) => x - y);
  const at = (p) => cpu[Math.min(cpu.length - 1, Math.ceil((p / 100) * cpu.length) - 1)];
  console.log(
    JSON.stringify({
      lookups: cpu.length,
      empty,
      cpuMeanMs: +(total / cpu.length).toFixed(3),
      cpuP50Ms: +at(50).toFixed(3),
      cpuP90Ms: +at(90).toFixed(3),
      cpuP99Ms: +at(99).toFixed(3),
      ...(backends === undefined
        ? {}
        : { databaseCpuMeanMs: +(((await backendCpu(target)) - backends) / cpu.length).toFixed(3) }),
    }),
  );
} finally {
  await service.close();
}

/** CPU milliseconds used so far by the PostgreSQL backends connected to the database of `url` (Linux /proc). */
async function backendCpu(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const ticks = rows.reduce((sum, { pid }) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return sum + Number(fields[11]) + Number(fields[12]);
      } catch {
        return sum;
      }
    }, 0);
    return (ticks * 1000) / 100;
  } finally {
    await client.end();
  }
}
