// Each request's latency from an empty result cache, to see what decides the p99: a Node client (run it on the
// other core: `taskset -c 1 node ...`) sends the search bench's 400 distinct queries in turn over 10 keep-alive
// connections for BENCH_SECONDS (10) to one build's service (on core 0, a copy of the catalogue, a metered Scale
// key), and reports the p99, the requests over 20 ms against the 1% a p99 allows, and how long the first 400
// (all cold lookups) waited. Prints one JSON line.
//   node bench/request-latency.mjs <dist> <catalogue.db>      (a catalogue from `cold-lookup.mjs --make`)
// BENCH_CPU_PROF=<dir> profiles the server (written at exit).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateQueries, resetRandom } from './generate.mjs';

const [dist, catalogue] = process.argv.slice(2).map((path) => resolve(path));
if (catalogue === undefined) throw new Error('usage: request-latency.mjs <dist> <catalogue.db>');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const httpPath = fileURLToPath(new URL('./http-path.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'price-search-latency-'));
try {
  const cataloguePath = join(dir, 'catalogue.db');
  copyFileSync(catalogue, cataloguePath);
  const statePath = join(dir, 'state.db');
  const key = execFileSync(
    process.execPath,
    [httpPath, '--setup', dist, join(dir, 'none.tsv'), cataloguePath, statePath],
    {
      encoding: 'utf8',
    },
  ).trim();
  resetRandom();
  const bodies = generateQueries(400).map((text) => JSON.stringify({ query: text }));
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const serve = [...profile, httpPath, '--serve', dist, cataloguePath, statePath];
  const server =
    spawnSync('taskset', ['--version']).error === undefined
      ? spawn('taskset', ['-c', '0', process.execPath, ...serve], { stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn(process.execPath, serve, { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(server.stdout, 'data');
  const url = new URL(String(line).trim());
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const post = (body) =>
    new Promise((done, fail) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/query',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${key}`,
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => done(response.statusCode));
        },
      );
      request.on('error', fail);
      request.end(body);
    });
  const results = [];
  let next = 0;
  const started = performance.now();
  const end = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const index = next++;
        const sent = performance.now();
        const status = await post(bodies[index % bodies.length]);
        results.push({ index, sent: sent - started, ms: performance.now() - sent, status });
      }
    }),
  );
  agent.destroy();
  server.kill('SIGTERM');
  await once(server, 'exit');
  const sorted = (values) => values.sort((a, b) => a - b);
  const at = (values, p) => values[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];
  const all = sorted(results.map((result) => result.ms));
  const cold = results.filter((result) => result.index < bodies.length);
  const coldMs = sorted(cold.map((result) => result.ms));
  console.log(
    JSON.stringify({
      requests: results.length,
      non200: results.filter((result) => result.status !== 200).length,
      p50Ms: +at(all, 50).toFixed(2),
      p99Ms: +at(all, 99).toFixed(2),
      over20Ms: results.filter((result) => result.ms > 20).length,
      onePercent: Math.floor(results.length / 100),
      first400: {
        p50Ms: +at(coldMs, 50).toFixed(2),
        p90Ms: +at(coldMs, 90).toFixed(2),
        maxMs: +coldMs.at(-1).toFixed(2),
        doneAfterMs: Math.round(Math.max(...cold.map((result) => result.sent + result.ms))),
      },
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
