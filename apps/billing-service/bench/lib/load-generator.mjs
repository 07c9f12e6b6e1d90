/**
 * @module
 * Drives load at a server with `wrk` (pinned to the load core) or, when wrk is missing or a
 * fixed rate is wanted, with the Node generator in node-load.mjs. Both report the same shape.
 */
import { fileURLToPath } from 'node:url';
import { commandExists, LOAD_CORE, runToEnd } from './processes.mjs';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));

export const WRK_AVAILABLE = commandExists('wrk');

export const WRK_MISSING_HINT =
  'wrk is not installed, so the Node load generator is used instead (it costs more CPU per request and ' +
  'reaches lower ceilings). Install wrk for comparable figures: apt-get install -y wrk (Debian/Ubuntu), ' +
  'brew install wrk (macOS).';

/**
 * @typedef {object} LoadSpec
 * @property {'post-events' | 'get-balances'} kind
 * @property {string} url the server's base URL
 * @property {string} token an API key ('' for the bare server)
 * @property {readonly string[]} customers customer ids to cycle over
 * @property {string} action the usage event action
 * @property {string} keyPrefix makes this run's event keys unique
 * @property {string} occurredAt the events' occurred_at, or 'now': each event's is the time it is sent (ADR 0738)
 * @property {number} connections
 * @property {number} durationSec
 * @property {number} [rate] requests per second (open loop; always the Node generator)
 * @property {'wrk' | 'node'} [generator]
 */

/**
 * @typedef {object} LoadResult
 * @property {'wrk' | 'node'} generator
 * @property {number} requests completed requests
 * @property {number} durationSec
 * @property {number} requestsPerSecond completed requests per second
 * @property {number} accepted answers that were 202 "accepted" (POST) or 200 (GET)
 * @property {number} refused every other answer
 * @property {number} socketErrors
 * @property {{p50: number, p90: number, p99: number, p999: number, max: number}} latencyMs
 */

function toResult(generator, report) {
  const durationSec = report.durationUs / 1e6;
  const ms = (us) => Math.round(us / 10) / 100;
  return {
    generator,
    requests: report.requests,
    durationSec: Math.round(durationSec * 100) / 100,
    requestsPerSecond: Math.round(report.requests / durationSec),
    accepted: report.accepted,
    refused: report.refused,
    socketErrors: report.socketErrors,
    latencyMs: {
      p50: ms(report.p50Us),
      p90: ms(report.p90Us),
      p99: ms(report.p99Us),
      p999: ms(report.p999Us),
      max: ms(report.maxUs),
    },
  };
}

function parseReport(generator, output) {
  const line = output.stdout.split('\n').find((text) => text.startsWith('BENCH_JSON '));
  if (!line) {
    throw new Error(`${generator} printed no report (exit ${output.code}):\n${output.stdout}\n${output.stderr}`);
  }
  return toResult(generator, JSON.parse(line.slice('BENCH_JSON '.length)));
}

async function runWrk(spec) {
  const script = here(spec.kind === 'post-events' ? './post-events.lua' : './get-balances.lua');
  const path = spec.kind === 'post-events' ? '/usage-events' : '/';
  const output = await runToEnd({
    core: LOAD_CORE,
    command: 'wrk',
    args: [
      '-t1',
      `-c${spec.connections}`,
      `-d${spec.durationSec}s`,
      '--timeout',
      '10s',
      '-s',
      script,
      `${spec.url}${path}`,
    ],
    env: {
      ...process.env,
      BENCH_CUSTOMERS: spec.customers.join(','),
      BENCH_ACTION: spec.action,
      BENCH_OCCURRED_AT: spec.occurredAt,
      BENCH_KEY_PREFIX: spec.keyPrefix,
      BENCH_TOKEN: spec.token,
    },
  });
  return parseReport('wrk', output);
}

async function runNode(spec) {
  const output = await runToEnd({
    core: LOAD_CORE,
    command: process.execPath,
    args: [here('./node-load.mjs'), JSON.stringify(spec)],
  });
  return parseReport('node', output);
}

/**
 * Runs one load and reports it. A fixed `rate` always uses the Node generator (open loop);
 * otherwise wrk when installed.
 * @param {LoadSpec} spec
 * @returns {Promise<LoadResult>}
 */
export function runLoad(spec) {
  const generator = spec.rate ? 'node' : (spec.generator ?? (WRK_AVAILABLE ? 'wrk' : 'node'));
  return generator === 'wrk' ? runWrk(spec) : runNode(spec);
}
