/**
 * @module
 * A small load generator in Node, run as its own process: the fallback when `wrk` is missing,
 * and the open-loop generator for fixed request rates (wrk has no rate control). One JSON
 * argument describes the load; one BENCH_JSON line on stdout reports it, in the same shape
 * as the wrk scripts.
 *
 * Closed loop (`rate` absent): `connections` keep-alive connections each send their next
 * request as soon as the previous one is answered. Open loop (`rate` set): requests leave at
 * `rate` per second whatever the answers, over a pool of at most `connections` sockets;
 * latency counts from the moment a request was due, so a slow server cannot hide its
 * queueing (no coordinated omission).
 */
import { Agent, request } from 'node:http';

const spec = JSON.parse(process.argv[2] ?? '{}');
const target = new URL(spec.url);
const agent = new Agent({ keepAlive: true, maxSockets: spec.connections, maxFreeSockets: spec.connections });
const customers = spec.customers;
const latencies = [];
let counter = 0;
let sent = 0;
let accepted = 0;
let refused = 0;
let statusErrors = 0;
let socketErrors = 0;

function nextRequest() {
  counter += 1;
  const customer = customers[counter % customers.length];
  if (spec.kind === 'get-balances') return { method: 'GET', path: `/customers/${customer}/usage-balances`, body: null };
  const body = JSON.stringify({
    events: [
      {
        // A random part first, as with UUID keys: inserts land all over the idempotency index.
        event_key: `${spec.keyPrefix}-${Math.floor(Math.random() * 0x7fffffff)
          .toString(16)
          .padStart(8, '0')}-0-${counter}`,
        customer_id: customer,
        action: spec.action,
        quantity: '1',
        // 'now': the time the event is sent, as a client reporting what just happened sends it.
        occurred_at: spec.occurredAt === 'now' ? new Date().toISOString() : spec.occurredAt,
      },
    ],
  });
  return { method: 'POST', path: '/usage-events', body };
}

function send(dueAt) {
  const { method, path, body } = nextRequest();
  sent += 1;
  return new Promise((resolve) => {
    const headers = { authorization: `Bearer ${spec.token}` };
    if (body !== null) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const outgoing = request({ host: target.hostname, port: target.port, method, path, headers, agent }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        text += chunk;
      });
      response.on('end', () => {
        latencies.push(performance.now() - dueAt);
        const ok = method === 'GET' ? response.statusCode === 200 : response.statusCode === 202;
        if (ok && (method === 'GET' || text.includes('"accepted"'))) accepted += 1;
        else refused += 1;
        if (response.statusCode === undefined || response.statusCode >= 400) statusErrors += 1;
        resolve();
      });
    });
    outgoing.on('error', () => {
      socketErrors += 1;
      resolve();
    });
    outgoing.end(body ?? undefined);
  });
}

async function closedLoop(endAt) {
  const loop = async () => {
    while (performance.now() < endAt) await send(performance.now());
  };
  await Promise.all(Array.from({ length: spec.connections }, loop));
}

async function openLoop(startAt, endAt) {
  const inFlight = new Set();
  const intervalMs = 1000 / spec.rate;
  let next = startAt;
  while (next < endAt) {
    const now = performance.now();
    while (next <= now && next < endAt) {
      const pending = send(next);
      inFlight.add(pending);
      pending.then(() => inFlight.delete(pending));
      next += intervalMs;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
}

function percentileUs(sorted, p) {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 1000);
}

const startAt = performance.now();
const endAt = startAt + spec.durationSec * 1000;
if (spec.rate) await openLoop(startAt, endAt);
else await closedLoop(endAt);
const durationUs = Math.round((performance.now() - startAt) * 1000);
agent.destroy();
const sorted = Float64Array.from(latencies).sort();
const report = {
  requests: latencies.length,
  sent,
  durationUs,
  accepted,
  refused,
  socketErrors,
  statusErrors,
  p50Us: percentileUs(sorted, 50),
  p90Us: percentileUs(sorted, 90),
  p99Us: percentileUs(sorted, 99),
  p999Us: percentileUs(sorted, 99.9),
  maxUs: percentileUs(sorted, 100),
};
process.stdout.write(`BENCH_JSON ${JSON.stringify(report)}\n`);
