#!/usr/bin/env node
// Refreshes test/file-durations.json (ADR 0927) from a vitest JSON report: `npm test` writes one to
// .test-results/vitest.json. Usage: node scripts/file-durations.mjs [report] [--min SECONDS]
// Files of at least --min seconds (3 unless given) are listed, in whole seconds, longest first;
// the sequencer starts them first, and every other file after them in vitest's own order.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const minIndex = args.indexOf('--min');
const min = minIndex === -1 ? 3 : Number(args[minIndex + 1]);
const reportPath =
  args.filter((arg, index) => arg !== '--min' && args[index - 1] !== '--min')[0] ?? `${root}.test-results/vitest.json`;
if (!Number.isFinite(min) || min < 0) {
  process.stderr.write('--min takes a number of seconds\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
// Paths are kept from the root of the checkout that ran the report (it sits in <root>/.test-results/),
// so a report from a clean clone elsewhere (the CI's) names the same files.
const reportRoot = dirname(dirname(resolve(reportPath)));
const entries = [];
for (const file of report.testResults ?? []) {
  const seconds = (file.endTime - file.startTime) / 1000;
  if (!Number.isFinite(seconds) || seconds < min) continue;
  entries.push([relative(reportRoot, file.name), Math.round(seconds)]);
}
entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
const out = `${root}test/file-durations.json`;
const document = {
  note: `Seconds per test file (at least ${min} s) in a full run's report, for test/longest-first-sequencer.ts (ADR 0927); refresh with node scripts/file-durations.mjs`,
  files: Object.fromEntries(entries),
};
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
process.stdout.write(`${entries.length} files of at least ${min} s written to test/file-durations.json\n`);
