/**
 * @module
 * Reads a V8 .cpuprofile (from `node --cpu-prof`) and prints where the time went: the top
 * functions by self time and by inclusive time, as shares of all samples, plus the share by
 * package (node internals, hono, better-sqlite3, pg, our packages). Runnable on its own:
 * `node bench/lib/summarize-profile.mjs <file.cpuprofile> [top]`.
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
