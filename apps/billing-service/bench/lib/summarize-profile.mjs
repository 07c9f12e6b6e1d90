/**
 * @module
 * Reads a V8 .cpuprofile (from `node --cpu-prof`) and prints where the time went: the top
 * functions by self time and by inclusive time, as shares of all samples, plus the share by
 * package (node internals, hono, better-sqlite3, pg, our packages). Runnable on its own:
 * `node bench/lib/summarize-profile.mjs <file.cpuprofile> [top]`.
 *
 * `summarizeParts` answers "where does a request's CPU go" for the usage path: each busy sample
 * taken inside the given windows (the measured runs, on the monotonic clock that V8's profile and
 * `process.hrtime` share on Linux, so start-up, warm-up and drain are left out) is charged to the
 * first part its stack reaches from the running frame outwards (PARTS). A native call's time,
 * SQLite's or the kernel's, is charged to the JavaScript frame that made it, as `--cpu-prof` does.
 */
import { readFileSync } from 'node:fs';

function frameName(callFrame) {
  const url = callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '');
  const file = url.replace(/^.*\/(packages|apps)\//, '$1/');
  const where = file ? ` ${file}:${callFrame.lineNumber + 1}` : '';
  return `${callFrame.functionName || '(anonymous)'}${where}`;
}

function packageOf(callFrame) {
  const url = callFrame.url;
  if (!url) return callFrame.functionName.startsWith('(') ? callFrame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (module?.[1]) return module[1].startsWith('@drawdown/') ? module[1] : module[1];
  const workspace = /\/(packages|apps)\/([^/]+)\//.exec(url);
  return workspace ? `@drawdown/${workspace[2]}` : url;
}

/**
 * The parts of the usage path, tried in this order against each frame from the running one
 * outwards: the first frame that matches a part names the sample's part. A frame's text is its
 * function name and its file (node internals as `node:...`).
 */
export const PARTS = [
  { part: 'WAL sync (fdatasync on the thread pool)', test: /sqlite-wal-sync\.js/ },
  {
    part: 'drawdown (worker, balances, ledger)',
    test: /drawdown-worker\.js|apply-drawdowns|apply-balance-effects|balance-ledger|usage-balance|recently-recorded/,
  },
  { part: 'ingest batch (statements and commit)', test: /usage-ingest\.js|usage-idempotency\.js|group-commit\.js/ },
  { part: 'authentication', test: /authentication\.js|access\/api-keys\.js/ },
  { part: 'rate limiting', test: /rate-limit/ },
  { part: 'metrics', test: /operations\/metrics\.js|prom-client/ },
  { part: 'access line and logging', test: /access-line\.js|operations\/logger\.js|pino/ },
  { part: 'usage use case (checks, ids)', test: /record-usage-events\.js|usage-use-cases\.js|use-cases\.js/ },
  {
    part: 'response write (node streams, writev)',
    test: /^end node:_http_outgoing|node:net|stream_base_commons|node:internal\/streams/,
  },
  { part: 'usage request (body, validation, answer)', test: /usage-events-fast-path\.js|http-kit/ },
  {
    part: 'HTTP parsing and dispatch (node)',
    test: /node:_http_common|node:_http_server|node:_http_incoming|node:events/,
  },
  { part: 'garbage collector', test: /^\(garbage collector\)/ },
  { part: 'V8 and native code outside JavaScript ((program))', test: /^\(program\)/ },
  // Last: a transaction's own BEGIN and COMMIT (the commit writes the dirty pages to the WAL) run
  // from a promise continuation, with no caller of ours above them; the work inside is charged above.
  {
    part: "SQLite transactions' BEGIN and COMMIT (WAL page writes)",
    test: /better-sqlite3\/lib\/methods\/(transaction|wrappers)\.js/,
  },
  {
    part: 'promise and timer plumbing (node)',
    test: /node:internal\/process\/task_queues|node:internal\/timers|^runMicrotasks/,
  },
];

function frameText(callFrame) {
  const url = callFrame.url.replace(/^file:\/\//, '');
  return `${callFrame.functionName || '(anonymous)'} ${url}`;
}

/**
 * Busy samples inside `windows` ([fromUs, toUs] on the monotonic clock), charged to PARTS; the
 * rest is "other", whose running functions are listed too. Each sample counts for the time to the
 * next one (its time delta), so the parts are main-thread CPU time in µs; idle samples are the
 * core's spare time in the windows.
 */
export function summarizeParts(profile, windows) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partOf = new Map();
  const classify = (id) => {
    let part = partOf.get(id);
    if (part !== undefined) return part;
    part = 'other';
    if (byId.get(id)?.callFrame.functionName === '(idle)') part = '(idle)';
    for (let current = id; part === 'other' && current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current);
      if (!frame) break;
      const text = frameText(frame.callFrame);
      part = PARTS.find((rule) => rule.test.test(text))?.part ?? 'other';
    }
    partOf.set(id, part);
    return part;
  };
  const timeOf = new Map();
  const otherOf = new Map();
  let time = profile.startTime;
  let busyUs = 0;
  let idleUs = 0;
  for (const [index, id] of profile.samples.entries()) {
    time += profile.timeDeltas[index] ?? 0;
    const spent = profile.timeDeltas[index + 1] ?? 0;
    if (!windows.some(([from, to]) => time >= from && time <= to)) continue;
    const part = classify(id);
    if (part === '(idle)') {
      idleUs += spent;
      continue;
    }
    busyUs += spent;
    timeOf.set(part, (timeOf.get(part) ?? 0) + spent);
    if (part === 'other') {
      const name = frameName(byId.get(id).callFrame);
      otherOf.set(name, (otherOf.get(name) ?? 0) + spent);
    }
  }
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return {
    busyUs,
    idleUs,
    parts: sorted(timeOf).map(([part, us]) => ({ part, us })),
    other: sorted(otherOf).map(([name, us]) => ({ name, us })),
  };
}

/** Self and inclusive sample counts per function, and per package, of one profile. */
export function summarizeProfile(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const total = profile.samples.length;
  const self = new Map();
  const inclusive = new Map();
  const packages = new Map();
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, hits] of counts) {
    const node = byId.get(id);
    if (!node) continue;
    const name = frameName(node.callFrame);
    self.set(name, (self.get(name) ?? 0) + hits);
    const pkg = packageOf(node.callFrame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + hits);
    const seen = new Set();
    for (let current = id; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current);
      if (!frame) break;
      const frameKey = frameName(frame.callFrame);
      if (seen.has(frameKey)) continue;
      seen.add(frameKey);
      inclusive.set(frameKey, (inclusive.get(frameKey) ?? 0) + hits);
    }
  }
  const share = (map, top) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, hits]) => ({ name, percent: Math.round((hits / total) * 1000) / 10 }));
  return {
    samples: total,
    self: (top) => share(self, top),
    inclusive: (top) => share(inclusive, top),
    packages: (top) => share(packages, top),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node summarize-profile.mjs <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const top = Number(process.argv[3] ?? 25);
  const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')));
  const print = (title, rows) => {
    process.stdout.write(`\n${title}\n`);
    for (const row of rows) process.stdout.write(`${String(row.percent).padStart(6)}%  ${row.name}\n`);
  };
  process.stdout.write(`${summary.samples} samples\n`);
  print('By package (self time):', summary.packages(15));
  print('Top functions by self time:', summary.self(top));
  print('Top functions by inclusive time:', summary.inclusive(top));
}
