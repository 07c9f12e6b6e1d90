// The HTTP path of POST /api/query compared between builds, in turns, in one run: a bare node:http server, then
// each build's service on its own catalogue file (the search bench's generated catalogue, imported by that
// build) with a metered Scale key, loaded by wrk twice (from an empty result cache, then warm). Made to compare
// builds on a shared machine and to profile them (BENCH_CPU_PROF=<dir>: each server's warm run is profiled).
//   node bench/http-path.mjs <dist> [<dist> ...]        e.g. <checkout of main>/apps/price-search/dist ./dist
// Options (env): BENCH_LISTINGS (default 100000), BENCH_SECONDS (per wrk run, default 10), BENCH_CONNECTIONS
// (10), BENCH_ROUNDS (turns of every build, default 2), BENCH_KEEP (a directory to keep catalogues in between
// runs), BENCH_HEADER (authorization | x-api-key, default authorization), BENCH_ENGINE (sqlite | postgres, default
// sqlite: with postgres each build gets a fresh database on BENCH_POSTGRES_URL, dropped afterwards, and the CPU of
// that database's backends is reported per request beside the server's).
import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { generateFeed, generateQueries, resetRandom } from './generate.mjs';

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const HEADER = process.env.BENCH_HEADER ?? 'authorization';
const ENGINE = process.env.BENCH_ENGINE ?? 'sqlite';
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
// A catalogue location: a PostgreSQL URL or a SQLite file.
const locationOf = (catalogue) =>
  catalogue.startsWith('postgres') ? { catalogueUrl: catalogue } : { cataloguePath: catalogue };
const self = fileURLToPath(import.meta.url);
const load = (dist, module) => import(pathToFileURL(`${dist.replace(/\/$/, '')}/${module}`).href);

// Server child: one build's service on a catalogue file and a state file; prints its URL, serves until killed.
// With a profile path it profiles its CPU from SIGUSR2 (sent before the last run) and writes the profile at exit.
if (process.argv[2] === '--serve') {
  const [dist, cataloguePath, statePath, profilePath] = process.argv.slice(3);
  let stopProfile = async () => {};
  // The CPU this process spends in each run: SIGUSR1 (sent before each run) and SIGTERM print the CPU used
  // since the previous mark.
  let cpuFrom = process.cpuUsage();
  process.on('SIGUSR1', () => {
    const used = process.cpuUsage(cpuFrom);
    cpuFrom = process.cpuUsage();
    console.log(`CPU ${used.user + used.system}`);
  });
  if (profilePath !== undefined) {
    const { Session } = await import('node:inspector/promises');
    const session = new Session();
    session.connect();
    process.on('SIGUSR2', () => {
      void session.post('Profiler.enable').then(() => session.post('Profiler.start'));
      stopProfile = async () => {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(profilePath, JSON.stringify(profile));
      };
    });
  }
  const { startPriceSearch } = await load(dist, 'index.js');
  const running = await startPriceSearch({
    port: 0,
    ...locationOf(cataloguePath),
    statePath,
    demoFeed: false,
    requestsPerMinute: { free: 1e9, pro: 1e9, scale: 1e9 },
    // BENCH_WARM_UP_MS: the start-up warm-up's budget (ADR 0222; 0 turns it off); the service's default otherwise.
    ...(process.env.BENCH_WARM_UP_MS === undefined ? {} : { warmUpMs: Number(process.env.BENCH_WARM_UP_MS) }),
  });
  console.log(running.url);
  process.on('SIGTERM', () => {
    const used = process.cpuUsage(cpuFrom);
    console.log(`CPU ${used.user + used.system}`);
    return stopProfile()
      .then(() => running.close())
      .then(() => process.exit(0));
  });
  await new Promise(() => {});
}

// Bare child: node:http reading the body and answering an empty JSON array (as the search bench's).
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
  let cpuFrom = process.cpuUsage();
  process.on('SIGUSR1', () => {
    const used = process.cpuUsage(cpuFrom);
    cpuFrom = process.cpuUsage();
    console.log(`CPU ${used.user + used.system}`);
  });
  process.on('SIGTERM', () => {
    const used = process.cpuUsage(cpuFrom);
    console.log(`CPU ${used.user + used.system}`);
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
  await new Promise(() => {});
}

// Setup child: imports the feed into a catalogue file and creates a Scale key in a state file, with one build.
if (process.argv[2] === '--setup') {
  const [dist, feed, cataloguePath, statePath] = process.argv.slice(3);
  const { composeService } = await load(dist, 'index.js');
  const { importFeed } = await load(dist, 'catalogue/import-feed.js');
  const service = await composeService({ ...locationOf(cataloguePath), statePath, demoFeed: false });
  if (Object.keys(service.catalogue.countByNetwork()).length === 0) {
    await importFeed(service.catalogue, { path: feed, network: 'ebay_uk' });
  }
  const { key } = service.keys.create({ plan: 'scale', label: 'bench', now: new Date() });
  await service.close();
  console.log(key);
  process.exit(0);
}

const dists = process.argv.slice(2).map((dist) => resolve(dist));
if (dists.length === 0) throw new Error('usage: http-path.mjs <dist> [<dist> ...]');
const keep = process.env.BENCH_KEEP;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'price-search-http-'));
mkdirSync(dir, { recursive: true });
const run = promisify(execFile);
const wrkScript = join(dir, 'query.lua');
const databases = [];
try {
  const feed = join(dir, 'feed.tsv');
  if (!existsSync(feed)) {
    resetRandom();
    generateFeed(feed, LISTINGS);
  }
  resetRandom();
  const queries = generateQueries(400);
  const builds = [];
  for (const [index, dist] of dists.entries()) {
    let cataloguePath = join(dir, `catalogue-${index}.db`);
    if (ENGINE === 'postgres') {
      const database = `price_search_http_${process.pid}_${index}`;
      await admin((client) => client.query(`CREATE DATABASE ${database}`));
      databases.push(database);
      const url = new URL(POSTGRES_URL);
      url.pathname = `/${database}`;
      cataloguePath = url.toString();
    }
    const statePath = join(dir, `state-${index}-${Date.now()}.db`);
    const { stdout } = await run(process.execPath, [self, '--setup', dist, feed, cataloguePath, statePath], {
      encoding: 'utf8',
    });
    builds.push({ dist, cataloguePath, statePath, key: stdout.trim() });
  }
  const bodies = queries.map((text) => JSON.stringify(JSON.stringify({ query: text }))).join(',\n  ');
  const results = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const load0 = loadavg()[0];
    const [bare] = await loadServer([self, '--bare'], undefined, 1, bodies);
    const row = {
      round,
      load: load0.toFixed(2),
      bare: `${Math.round(bare.rate)} req/s, ${bare.cpuPerRequestUs.toFixed(0)} µs CPU a request`,
    };
    for (const [index, build] of builds.entries()) {
      const profile = process.env.BENCH_CPU_PROF
        ? [join(process.env.BENCH_CPU_PROF, `warm-build${index}-r${round}.cpuprofile`)]
        : [];
      const [cold, warm] = await loadServer(
        [self, '--serve', build.dist, build.cataloguePath, build.statePath, ...profile],
        build.key,
        2,
        bodies,
      );
      row[`b${index}`] = {
        cold: `${Math.round(cold.rate)} req/s (${(cold.rate / bare.rate).toFixed(3)}) p50/p99 ${cold.p50}/${cold.p99} ms, ${cold.cpuPerRequestUs.toFixed(0)} µs CPU a request${databaseText(cold)}`,
        warm: `${Math.round(warm.rate)} req/s (${(warm.rate / bare.rate).toFixed(3)}) p50/p99 ${warm.p50}/${warm.p99} ms, ${warm.cpuPerRequestUs.toFixed(0)} µs CPU a request${databaseText(warm)}`,
      };
    }
    row.loadAfter = loadavg()[0].toFixed(2);
    results.push(row);
    console.log(JSON.stringify(row));
  }
  console.log(`builds: ${dists.map((dist, index) => `b${index}=${dist}`).join(', ')}`);
} finally {
  if (keep === undefined) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) {
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
}

// The server on one core and wrk on the other, when taskset exists.
function pinned(core, command, args) {
  return spawnSync('taskset', ['--version']).error === undefined
    ? ['taskset', ['-c', String(core), command, ...args]]
    : [command, args];
}

async function loadServer(args, key, runs, bodies) {
  // The server on core 0, wrk on core 1.
  const server = spawn(...pinned(0, process.execPath, args), { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [firstLine] = await once(server.stdout, 'data');
    const url = String(firstLine).trim();
    writeFileSync(
      wrkScript,
      `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
${key === undefined ? '' : HEADER === 'x-api-key' ? `wrk.headers["X-API-Key"] = "${key}"` : `wrk.headers["Authorization"] = "Bearer ${key}"`}
local bodies = {
  ${bodies}
}
local i = 0
request = function()
  i = (i % #bodies) + 1
  return wrk.format(nil, "/api/query", nil, bodies[i])
end
done = function(summary, latency, requests)
  io.write(string.format("BENCH %d %d %d %.3f %.3f\\n", summary.requests, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
`,
    );
    const results = [];
    let output = '';
    server.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const catalogue = args[3] ?? '';
    const databaseCpu = [];
    for (let index = 0; index < runs; index += 1) {
      // A CPU mark before each run; the last run is the one profiled (BENCH_CPU_PROF).
      server.kill('SIGUSR1');
      if (catalogue.startsWith('postgres')) databaseCpu.push(await backendCpuUs(catalogue));
      if (index === runs - 1 && args.at(-1).endsWith('.cpuprofile')) server.kill('SIGUSR2');
      const { stdout } = await run(
        ...pinned(1, 'wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-s', wrkScript, url]),
        { encoding: 'utf8' },
      );
      const match = /BENCH (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+)/.exec(stdout);
      if (match === null) throw new Error(`unexpected wrk output:\n${stdout}`);
      const [, requests, statusErrors, otherErrors, p50, p99] = match;
      if (Number(statusErrors) + Number(otherErrors) > 0) {
        console.error(`wrk: ${statusErrors} non-2xx answers, ${otherErrors} socket errors`);
      }
      if (catalogue.startsWith('postgres'))
        databaseCpu[index] = cpuSince(databaseCpu[index], await backendCpuUs(catalogue));
      results.push({
        rate: Number(requests) / SECONDS,
        p50: Number(p50).toFixed(2),
        p99: Number(p99).toFixed(2),
      });
    }
    server.kill('SIGTERM');
    await once(server, 'exit');
    // The first mark is the start-up's CPU; then one per run.
    const marks = [...output.matchAll(/CPU (\d+)/g)].map((match) => Number(match[1])).slice(1);
    results.forEach((result, index) => {
      result.cpuPerRequestUs = (marks[index] ?? Number.NaN) / (result.rate * SECONDS);
      if (databaseCpu[index] !== undefined)
        result.databaseCpuPerRequestUs = databaseCpu[index] / (result.rate * SECONDS);
    });
    return results;
  } finally {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  }
}

function databaseText(result) {
  return result.databaseCpuPerRequestUs === undefined
    ? ''
    : ` + ${result.databaseCpuPerRequestUs.toFixed(0)} µs database CPU a request`;
}

/** Runs `work` with a client on the server's maintenance database. */
async function admin(work) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The CPU microseconds the backends used between two marks: a backend that started since counts whole, one that
 * ended is not counted (the pool closes idle connections), so the figure can only be low.
 */
function cpuSince(before, after) {
  let used = 0;
  for (const [pid, us] of after) used += us - (before.get(pid) ?? 0);
  return used;
}

/** CPU microseconds used so far by each backend connected to the database of `url` (Linux /proc), by pid. */
async function backendCpuUs(url) {
  const { default: pg } = await import('pg');
  const { readFileSync } = await import('node:fs');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const used = new Map();
    for (const { pid } of rows) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        used.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100);
      } catch {
        // The backend ended meanwhile.
      }
    }
    return used;
  } finally {
    await client.end();
  }
}
