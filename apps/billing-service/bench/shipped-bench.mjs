/**
 * @module
 * Usage ingestion as a user runs it (issue 39): `drawdown serve` with its shipped defaults
 * (access line at `info`, both rate limits on, the operations address on; only the ports, the
 * data directory, `--migrate` and `--demo` are given) against a bare `node:http` server doing
 * the minimum (lib/minimal-server.mjs: read the body, JSON.parse it, answer 202), both pinned to the same
 * core and loaded from the other core in the same run, pair by pair:
 *
 *   for each engine (SQLite, PostgreSQL), environment (sandbox, live) and connection count
 *   (32, 100): the bare server, then the service, each for BENCH_DURATION seconds after a warm-up.
 *
 * The first figure is the request rate of the service over the bare server's measured just
 * before it (the ratio a user measures); CPU per request of each (from /proc/<pid>/stat) is the
 * secondary figure, and on PostgreSQL the database backends' CPU per accepted event. Every event
 * has a unique key; after an engine's runs the bench waits for the drawdown to drain and checks
 * that the units drawn on both environments equal the events stored, and that every event
 * answered accepted is stored.
 *
 * The service writes its log (the access lines) to a file, as it would to a journal or a
 * container log: the bench itself never reads the stream while measuring.
 *
 * Load: Debian's `wrk` (installed by scripts/ensure-wrk.sh when missing and allowed), else the
 * Node generator (say so in the output). The load average (`/proc/loadavg`) is printed before and
 * after: on a shared machine only ratios within one run mean anything.
 *
 * Each row is BENCH_ROUNDS (3) rounds of bare then service; its ratio is the median of the rounds'
 * ratios (all of them are printed), its other figures the medians of each side's.
 *
 * Environment: BENCH_DURATION (s per measured run, default 5), BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (32,100), BENCH_ENGINES (sqlite,postgres), BENCH_ENVIRONMENTS (sandbox,live),
 * BENCH_POSTGRES_URL, BENCH_SERVICE_ARGS (extra `serve` flags, to measure a setting against the
 * defaults, e.g. `--log-level warn`), BENCH_PROFILE=1 (the service runs with --cpu-prof; the top
 * self-time functions are printed, and where the measured runs' CPU went per request, part by part
 * of the usage path, start-up, warm-ups and drains left out), BENCH_PERF=1 (`perf record -g` of every thread of the service
 * over each measured round, beside the results: native, kernel, JIT and garbage collector time,
 * which --cpu-prof attributes to the JavaScript frame that called them), BENCH_PG_PROCESSES (e.g. 1,2,4: PostgreSQL with that many
 * service processes on one database, each loaded by its own share of the connections),
 * BENCH_OCCURRED_AT (default: each event's occurred_at is the time it is sent, as a client sends
 * it; `fixed`: one occurred_at for every event, the run's start), BENCH_BASELINE (another checkout's apps/billing-service, built: both builds run side by side
 * and every round measures bare, the baseline, then this build), BENCH_QUICK=1 (defaults for repeated use while working:
 * SQLite, sandbox, 32 connections, one round of 4 s after 1 s of warm-up; any setting above
 * still overrides it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_SERVICE_DIR } from './lib/billing-service.mjs';
import { createPostgresDatabase, openEventStore } from './lib/event-store.mjs';
import { drawnUnits, setUpUsageFixtures } from './lib/fixtures.mjs';
import { runLoad } from './lib/load-generator.mjs';
import {
  commandExists,
  cpuTimeOf,
  databaseCpuTimeOf,
  killAll,
  PINNING,
  pinnedCommand,
  SERVER_CORE,
  startProcess,
  stopProcess,
} from './lib/processes.mjs';
import { formatTable, machine, round, writeJson } from './lib/report.mjs';
import { summarizeParts, summarizeProfile } from './lib/summarize-profile.mjs';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const env = process.env;
const list = (text, fallback) =>
  (text ?? fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

// wrk is the load generator a user reaches for; install it when missing and allowed.
const ensured = spawnSync('bash', [join(repoRoot, 'scripts/ensure-wrk.sh')], { stdio: 'inherit' });
const WRK = ensured.status === 0 && commandExists('wrk');

/** BENCH_QUICK=1: one short round of SQLite on the sandbox at 32 connections, for repeated use while working. */
const QUICK = env.BENCH_QUICK === '1';

/**
 * The events' occurred_at: by default the time each is sent, to the millisecond, as a client
 * reporting what just happened sends it (ADR 0738: the idempotency index is ordered by it).
 * BENCH_OCCURRED_AT=fixed sends the run's start time as every event's, as the bench did before.
 */
const OCCURRED_AT = env.BENCH_OCCURRED_AT === 'fixed' ? new Date().toISOString() : 'now';

const config = {
  durationSec: Number(env.BENCH_DURATION ?? (QUICK ? 4 : 5)),
  warmupSec: Number(env.BENCH_WARMUP ?? (QUICK ? 1 : 2)),
  connections: list(env.BENCH_CONNECTIONS, QUICK ? '32' : '32,100').map(Number),
  engines: list(env.BENCH_ENGINES, QUICK ? 'sqlite' : 'sqlite,postgres').filter(
    (name) => name === 'sqlite' || name === 'postgres',
  ),
  environments: list(env.BENCH_ENVIRONMENTS, QUICK ? 'sandbox' : 'sandbox,live').filter(
    (name) => name === 'sandbox' || name === 'live',
  ),
  quick: QUICK,
  /** Another checkout's apps/billing-service, built: measured first, then this one, in the same run. */
  baseline: env.BENCH_BASELINE ? resolvePath(env.BENCH_BASELINE) : null,
  postgresUrl: env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  serviceArgs: list(env.BENCH_SERVICE_ARGS?.replace(/\s+/g, ','), ''),
  pgProcesses: list(env.BENCH_PG_PROCESSES, '').map(Number),
  profile: env.BENCH_PROFILE === '1',
  /** `perf record` of the service's every thread during each measured round (native, kernel and JIT time). */
  perf: env.BENCH_PERF === '1',
  rounds: Number(env.BENCH_ROUNDS ?? (QUICK ? 1 : 3)),
  generator: WRK ? 'wrk' : 'node',
  customers: 8,
};

/** Issue 39's targets: the service's request rate over the bare server's, in the same run. */
const TARGETS = { sqlite: 0.3, postgres: 0.2 };

const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const resultsFile = join(repoRoot, 'bench-results', `shipped-${stamp}.json`);
const profileDir = join(repoRoot, 'bench-results', `profiles-shipped-${stamp}`);
const runId = Date.now().toString(36);
/**
 * The measured service runs, for the profile's parts: each with the services' profile names, its
 * span on the monotonic clock (µs, the clock of V8's profiles), its requests and server CPU.
 */
const measuredWindows = [];
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const log = (message) => process.stderr.write(`[shipped-bench] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Services this bench spawned itself (startProcess tracks the rest), killed on a failure. */
const spawned = new Set();
const killEverything = () => {
  for (const child of spawned) child.kill('SIGKILL');
  killAll();
};
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/**
 * `drawdown serve` as shipped, pinned to the server core, its output in a file (as a journal
 * or container log would take it). Resolves once the banner names both environments' keys.
 */
async function startShippedService({ dataDir, databaseUrl, name, demo, serviceDir }) {
  const logFile = join(dataDir, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const profile = config.profile
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
    : [];
  const args = [
    ...profile,
    join(serviceDir, 'bin/drawdown.js'),
    'serve',
    '--live-port',
    '0',
    '--sandbox-port',
    '0',
    '--ops-address',
    '127.0.0.1:0',
    '--data-dir',
    dataDir,
    ...(demo ? ['--migrate', '--demo', '--demo-live-key'] : []),
    ...(databaseUrl ? ['--database-url', databaseUrl] : []),
    ...config.serviceArgs,
  ];
  const line = pinnedCommand(SERVER_CORE, process.execPath, args);
  const child = spawn(line.command, line.args, { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const handle = { child, exited, stdout: () => readFileSync(logFile, 'utf8'), stderr: () => '' };
  const text = () => readFileSync(logFile, 'utf8');
  // Generous: on a saturated machine a Node process can take a minute to print its banner.
  const deadline = Date.now() + 180_000;
  const wanted = demo
    ? /operations: (http:\/\/\S+)[\s\S]*Created demo account (acc_\w+)[\s\S]*sandbox:\s+(pdl_\S+)[\s\S]*live:\s+(pdl_\S+)/
    : /operations: (http:\/\/\S+)/;
  for (;;) {
    const output = text();
    const match = wanted.exec(output);
    const urls = /live:\s+(http:\/\/\S+)\s+sandbox: (http:\/\/\S+)/.exec(output);
    if (match && urls) {
      return {
        handle,
        pid: child.pid,
        logFile,
        urls: { live: urls[1], sandbox: urls[2] },
        opsUrl: match[1],
        name,
        accountId: match[2],
        keys: demo ? { sandbox: match[3], live: match[4] } : null,
      };
    }
    if (child.exitCode !== null) throw new Error(`drawdown serve exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`drawdown serve did not start:\n${output}`);
    await sleep(50);
  }
}

/**
 * One measured load with the server's (and the database's) CPU over it; `perfName` records it
 * with perf, and `profiled` (the services' profile names) keeps its window for the profile's parts.
 */
async function measured(spec, pids, databaseName, perfName, profiled) {
  const cpu = () => pids.reduce((sum, pid) => sum + (cpuTimeOf(pid) ?? 0), 0);
  const serverBefore = cpu();
  const databaseBefore = databaseName ? databaseCpuTimeOf(databaseName) : 0;
  const durationSec = (Array.isArray(spec) ? spec[0] : spec).durationSec;
  const perf =
    config.perf && perfName
      ? spawn(
          'perf',
          [
            'record',
            '-F',
            '999',
            '-g',
            '-p',
            pids.join(','),
            '-o',
            join(profileDir, `${perfName}.perf.data`),
            '--',
            'sleep',
            String(durationSec),
          ],
          { stdio: 'ignore' },
        )
      : null;
  const from = monotonicUs();
  const result = Array.isArray(spec) ? combine(await Promise.all(spec.map(runLoad))) : await runLoad(spec);
  const to = monotonicUs();
  if (perf) await new Promise((resolve) => (perf.exitCode === null ? perf.once('exit', resolve) : resolve()));
  const serverMs = cpu() - serverBefore;
  const databaseMs = databaseName ? databaseCpuTimeOf(databaseName) - databaseBefore : null;
  const perRequest = (ms) => (ms === null || result.requests === 0 ? null : Math.round((ms * 1000) / result.requests));
  if (profiled)
    measuredWindows.push({ profiled, from, to, requests: result.requests, serverMs, processes: pids.length });
  return {
    ...result,
    serverCpuUsPerRequest: perRequest(serverMs),
    serverCoreShare: round(serverMs / 1000 / result.durationSec),
    databaseCpuUsPerRequest: perRequest(databaseMs),
  };
}

function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The rounds of one side as one run: the median of each figure. */
function medianRun(runs) {
  const of = (pick) => median(runs.map(pick));
  return {
    requestsPerSecond: Math.round(of((run) => run.requestsPerSecond)),
    accepted: runs.reduce((sum, run) => sum + run.accepted, 0),
    serverCpuUsPerRequest: Math.round(of((run) => run.serverCpuUsPerRequest)),
    databaseCpuUsPerRequest:
      runs[0].databaseCpuUsPerRequest === null ? null : Math.round(of((run) => run.databaseCpuUsPerRequest)),
    latencyMs: { p50: of((run) => run.latencyMs.p50), p99: of((run) => run.latencyMs.p99) },
  };
}

/** Several generators' results as one: summed counts, the worst latencies. */
function combine(results) {
  const durationSec = Math.max(...results.map((item) => item.durationSec));
  const sum = (key) => results.reduce((total, item) => total + item[key], 0);
  const worst = (key) => Math.max(...results.map((item) => item.latencyMs[key]));
  return {
    generator: results[0].generator,
    requests: sum('requests'),
    durationSec,
    requestsPerSecond: Math.round(sum('requests') / durationSec),
    accepted: sum('accepted'),
    refused: sum('refused'),
    socketErrors: sum('socketErrors'),
    latencyMs: { p50: worst('p50'), p90: worst('p90'), p99: worst('p99'), p999: worst('p999'), max: worst('max') },
  };
}

async function startBare() {
  const server = startProcess({
    core: SERVER_CORE,
    command: process.execPath,
    args: [fileURLToPath(new URL('./lib/minimal-server.mjs', import.meta.url))],
  });
  const [, port] = await server.waitFor(/listening (\d+)/);
  return { server, url: `http://127.0.0.1:${port}` };
}

async function waitForDrain(store, timeoutMs = 120_000) {
  const started = Date.now();
  let emptyWith = null;
  for (;;) {
    if ((await store.pending()) === 0) {
      const stored = await store.count();
      if (emptyWith === stored) return;
      emptyWith = stored;
    } else emptyWith = null;
    if (Date.now() - started > timeoutMs) throw new Error(`events still pending after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * One build of the service on one engine, started and given its fixtures: its own data folder or
 * PostgreSQL database, one service process (or several on PostgreSQL), the demo account's keys.
 */
async function prepareBuild(engine, processes, build) {
  const label = `${processes > 1 ? `${engine} ×${processes}` : engine}${build.name ? ` (${build.name})` : ''}`;
  const context = { label, services: [], dirs: [], database: null, store: null, rows: [], accepted: { total: 0 } };
  const dataDir = mkdtempSync(join(tmpdir(), `drawdown-shipped-${engine}-`));
  context.dirs.push(dataDir);
  if (engine === 'postgres') {
    context.database = await createPostgresDatabase(config.postgresUrl);
    if (context.database.error) {
      log(`PostgreSQL skipped: no server at ${config.postgresUrl} (${context.database.error})`);
      return { ...context, skipped: context.database.error };
    }
  }
  const storage = { dataDir, databaseUrl: context.database?.url };
  const { serviceDir } = build;
  const tag = `${build.name ?? ''}${runId}`;
  context.services.push(await startShippedService({ ...storage, name: `${engine}-1-${tag}`, demo: true, serviceDir }));
  for (let index = 2; index <= processes; index += 1) {
    const moreDir = mkdtempSync(join(tmpdir(), `drawdown-shipped-${engine}-${index}-`));
    context.dirs.push(moreDir);
    context.services.push(
      await startShippedService({
        dataDir: moreDir,
        databaseUrl: context.database?.url,
        name: `${engine}-${index}-${tag}`,
        serviceDir,
      }),
    );
  }
  const first = context.services[0];
  context.first = first;
  context.store = await openEventStore(storage);
  context.fixtures = {};
  for (const environment of config.environments) {
    context.fixtures[environment] = await setUpUsageFixtures({
      serviceDir,
      liveUrl: first.urls.live,
      liveKey: first.keys.live,
      baseUrl: first.urls[environment],
      key: first.keys[environment],
      environment,
      accountId: first.accountId,
      storage,
      customers: config.customers,
    });
  }
  return context;
}

/** Exactly once: every event stored is drawn down once on its environment, and every accepted one is stored. */
async function verifyExactlyOnce(context) {
  const { label, store, first, fixtures, accepted } = context;
  await waitForDrain(store);
  const stored = await store.count();
  let drawn = 0n;
  for (const environment of config.environments) {
    drawn += await drawnUnits(
      { baseUrl: first.urls[environment], key: first.keys[environment] },
      fixtures[environment].customerIds,
      fixtures[environment].unitId,
    );
  }
  if (drawn !== BigInt(stored)) throw new Error(`${label}: balances drew ${drawn} units for ${stored} stored events`);
  const measuredStored = await store.countWithPrefix('m');
  if (measuredStored < accepted.total) {
    throw new Error(`${label}: ${accepted.total} events answered accepted, ${measuredStored} stored`);
  }
  log(
    `${label}: ${stored} events stored, ${drawn} units drawn, ${accepted.total} measured events accepted: exactly once`,
  );
  return { stored, drawn: Number(drawn), accepted: accepted.total };
}

async function releaseBuild(context) {
  await context.store?.close();
  for (const service of context.services) {
    const exit = await stopProcess(service.handle);
    if (exit.code !== 0) log(`${context.label} service exited with ${JSON.stringify(exit)}`);
  }
  await context.database?.drop?.();
  for (const dir of context.dirs) rmSync(dir, { recursive: true, force: true });
}

/**
 * One engine: each build's service (or several on PostgreSQL), both environments, each connection
 * count, beside the bare server. With a baseline both builds run side by side and every round
 * measures bare, then the baseline, then this build: a burst of other work on the machine hits
 * one round of all three, not one build.
 */
async function runEngine(engine, bare, processes, builds) {
  const contexts = [];
  try {
    for (const build of builds) {
      const context = await prepareBuild(engine, processes, build);
      if (context.skipped) return [{ engine, skipped: context.skipped }];
      contexts.push(context);
    }
    for (const environment of config.environments) {
      const specFor = (context, url, connections, keyPrefix, durationSec) => ({
        kind: 'post-events',
        url,
        token: context.first.keys[environment],
        customers: context.fixtures[environment].customerIds,
        action: context.fixtures[environment].action,
        occurredAt: OCCURRED_AT,
        connections,
        keyPrefix,
        durationSec,
        generator: config.generator,
      });
      const serviceSpec = (context, connections, keyPrefix, durationSec) =>
        context.services.map((service, index) =>
          specFor(
            context,
            service.urls[environment],
            Math.max(1, Math.round(connections / context.services.length)),
            `${keyPrefix}-${index}`,
            durationSec,
          ),
        );
      for (const context of contexts) {
        await Promise.all(serviceSpec(context, 32, `warm-${environment}-${runId}`, config.warmupSec).map(runLoad));
      }
      // The warm-up's events drawn down before the first measured round, which would pay for them.
      for (const context of contexts) await waitForDrain(context.store);
      for (const connections of config.connections) {
        // Bare and service take turns, round by round: a burst of other work on the machine hits
        // one round, not one side. The row's figures are the medians of the rounds.
        const rounds = contexts.map(() => []);
        for (let round = 1; round <= config.rounds; round += 1) {
          const bareRound = await measured(
            {
              ...specFor(contexts[0], bare.url, connections, `bare-${runId}`, config.durationSec),
              token: '',
            },
            [bare.server.child.pid],
          );
          for (const [index, context] of contexts.entries()) {
            const serviceRound = await measured(
              serviceSpec(
                context,
                connections,
                `m-${environment}-${connections}-${round}-${runId}`,
                config.durationSec,
              ),
              context.services.map((service) => service.pid),
              context.database?.name,
              `${context.label}-${environment}-${connections}-${round}`.replace(/[^\w-]+/g, '_'),
              context.services.map((service) => service.name),
            );
            context.accepted.total += serviceRound.accepted;
            if (serviceRound.refused > 0 || serviceRound.socketErrors > 0) {
              throw new Error(
                `${context.label} ${environment}: ${serviceRound.refused} refused, ${serviceRound.socketErrors} socket errors`,
              );
            }
            rounds[index].push({ bare: bareRound, service: serviceRound });
          }
        }
        for (const [index, context] of contexts.entries()) {
          const own = rounds[index];
          const bareResult = medianRun(own.map((item) => item.bare));
          const serviceResult = medianRun(own.map((item) => item.service));
          const row = {
            engine: context.label,
            environment,
            connections,
            bare: bareResult,
            service: serviceResult,
            rounds: own,
            ratio: round(median(own.map((item) => item.service.requestsPerSecond / item.bare.requestsPerSecond))),
            ratioByCpu: round(
              median(own.map((item) => item.bare.serverCpuUsPerRequest / item.service.serverCpuUsPerRequest)),
            ),
            ratioSpread: own.map((item) => round(item.service.requestsPerSecond / item.bare.requestsPerSecond)),
            loadAverage: load(),
          };
          context.rows.push(row);
          log(
            `${context.label} ${environment} c${connections}: service ${serviceResult.requestsPerSecond} req/s ` +
              `(${serviceResult.accepted} accepted over ${config.rounds} rounds, none refused) ` +
              `/ bare ${bareResult.requestsPerSecond} = ${row.ratio}; CPU ${serviceResult.serverCpuUsPerRequest} / ` +
              `${bareResult.serverCpuUsPerRequest} µs per request (${row.ratioByCpu}); rounds ${row.ratioSpread.join(' ')}` +
              (context.database ? `, PostgreSQL ${serviceResult.databaseCpuUsPerRequest} µs per request` : '') +
              `; load ${row.loadAverage}`,
          );
        }
      }
    }
    const results = [];
    for (const context of contexts) {
      results.push({ engine: context.label, rows: context.rows, exactlyOnce: await verifyExactlyOnce(context) });
    }
    return results;
  } finally {
    for (const context of contexts) await releaseBuild(context);
  }
}

function table(engines) {
  const rows = [];
  for (const engine of engines) {
    for (const row of engine.rows ?? []) {
      const target = TARGETS[row.engine.split(' ')[0]];
      rows.push([
        `${row.engine} ${row.environment}`,
        row.connections,
        row.service.requestsPerSecond,
        row.bare.requestsPerSecond,
        row.ratio,
        `≥ ${target}`,
        row.ratio >= target ? 'met' : 'MISSED',
        `${row.service.serverCpuUsPerRequest} / ${row.bare.serverCpuUsPerRequest}`,
        row.ratioByCpu,
        row.service.databaseCpuUsPerRequest ?? '–',
        `${row.service.latencyMs.p50} / ${row.service.latencyMs.p99}`,
        row.loadAverage,
      ]);
    }
  }
  return formatTable(
    [
      'engine, environment',
      'conns',
      'service req/s',
      'bare req/s',
      'ratio',
      'target',
      'verdict',
      'CPU µs/req service / bare',
      'by CPU',
      'PG µs/event',
      'p50 / p99 ms',
      'load average after',
    ],
    rows,
  );
}

function printProfiles() {
  let files;
  try {
    files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return;
  }
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8'));
    const summary = summarizeProfile(profile);
    const lines = (rows) => rows.map((row) => `${String(row.percent).padStart(6)}%  ${row.name}`).join('\n');
    process.stdout.write(
      `\nProfile ${file} (${summary.samples} samples)\nBy package (self time):\n${lines(summary.packages(12))}\n` +
        `Top functions by self time:\n${lines(summary.self(30))}\nTop functions by inclusive time:\n${lines(summary.inclusive(30))}\n`,
    );
    process.stdout.write(partsReport(file, profile));
  }
}

/**
 * Where a request's CPU goes in the measured runs of one service process: the main thread's time
 * per part (µs per request), and the rest of the process's CPU in those runs (the thread pool's
 * WAL syncs, V8's collector and compiler threads). Start-up, warm-ups and drains are outside the
 * windows, so not counted.
 */
function partsReport(file, profile) {
  const name = file.replace(/\.cpuprofile$/, '');
  const windows = measuredWindows.filter((window) => window.profiled.includes(name));
  if (windows.length === 0) return '';
  const { busyUs, idleUs, parts, other } = summarizeParts(
    profile,
    windows.map((window) => [window.from, window.to]),
  );
  const requests = windows.reduce((sum, window) => sum + window.requests, 0);
  if (requests === 0) return '';
  const perRequest = (us) => `${(us / requests).toFixed(1).padStart(6)} µs`;
  const share = (us) => `${((us / busyUs) * 100).toFixed(1).padStart(5)}%`;
  const lines = parts.map(({ part, us }) => `${perRequest(us)}  ${share(us)}  ${part}`);
  const single = windows.every((window) => window.processes === 1);
  const processUs = windows.reduce((sum, window) => sum + window.serverMs * 1000, 0);
  if (single)
    lines.push(`${perRequest(processUs - busyUs)}          other threads (thread pool, V8's helpers), by /proc`);
  const otherLines = other.slice(0, 8).map(({ name: frame, us }) => `${perRequest(us)}    ${frame}`);
  return (
    `Where the measured runs' CPU went, per request (${windows.length} runs, ${requests} requests; main thread busy ` +
    `${perRequest(busyUs).trim()}, idle ${perRequest(idleUs).trim()}${single ? `; whole process ${perRequest(processUs).trim()}` : ''}):\n` +
    `${lines.join('\n')}\n"other", by running function:\n${otherLines.join('\n')}\n`
  );
}

async function main() {
  if (!WRK) log('wrk unavailable: the Node load generator is used (it reaches lower ceilings).');
  if (!PINNING) log('taskset not available (or one core): server and load share cores.');
  if (config.profile || config.perf) mkdirSync(profileDir, { recursive: true });
  const results = {
    startedAt: new Date().toISOString(),
    config,
    machine: machine(),
    pinning: PINNING,
    loadAverageBefore: load(),
  };
  log(`load average before: ${results.loadAverageBefore}`);
  const bare = await startBare();
  // The bare server is warmed as the service is, so neither is measured before its code is compiled.
  await runLoad({
    kind: 'post-events',
    url: bare.url,
    token: '',
    customers: ['ctm_bare'],
    action: 'api_call',
    occurredAt: new Date().toISOString(),
    connections: 32,
    keyPrefix: `bare-warm-${runId}`,
    durationSec: config.warmupSec,
    generator: config.generator,
  });
  results.engines = [];
  try {
    // With a baseline, both builds run side by side and take turns within every round.
    const builds = config.baseline
      ? [
          { name: 'before', serviceDir: config.baseline },
          { name: 'after', serviceDir: CURRENT_SERVICE_DIR },
        ]
      : [{ name: null, serviceDir: CURRENT_SERVICE_DIR }];
    for (const engine of config.engines) results.engines.push(...(await runEngine(engine, bare, 1, builds)));
    for (const processes of config.pgProcesses) {
      results.engines.push(...(await runEngine('postgres', bare, processes, builds)));
    }
  } finally {
    await stopProcess(bare.server);
  }
  results.loadAverageAfter = load();
  results.finishedAt = new Date().toISOString();
  writeJson(resultsFile, results);
  process.stdout.write(
    `\nShipped defaults against a bare node:http server, same core, same run (${config.generator}, ` +
      `${config.durationSec} s per run, ${PINNING ? 'servers on core 0, load on core 1' : 'unpinned'}` +
      `${config.serviceArgs.length ? `, serve ${config.serviceArgs.join(' ')}` : ''}); ` +
      `load average ${results.loadAverageBefore} before, ${results.loadAverageAfter} after\n\n` +
      `${table(results.engines)}\n\nResults: ${resultsFile}\n`,
  );
  if (config.profile) printProfiles();
}

process.once('SIGINT', () => {
  killEverything();
  process.exit(130);
});

try {
  await main();
} catch (error) {
  killEverything();
  process.stderr.write(`shipped bench failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exitCode = 1;
}
