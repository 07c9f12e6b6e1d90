/**
 * @module
 * `npm run bench` for the billing service: runs every `bench/*-bench.mjs` one after another
 * (never in parallel: each one measures the whole machine), each in its own Node process, and
 * fails when any of them fails; the shipped-defaults bench runs first. Arguments name a subset: `node bench/run-benchmarks.mjs usage`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIRST = 'shipped-bench.mjs';
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('-bench.mjs'))
  .filter((name) => wanted.length === 0 || wanted.includes(name.replace(/-bench\.mjs$/, '')))
  .sort()
  // The shipped-defaults bench first: its ratios are the figures to quote (ADR 0731).
  .sort((a, b) => Number(b === FIRST) - Number(a === FIRST));

if (files.length === 0) {
  process.stderr.write(`No benchmark matches ${wanted.join(', ')} in ${benchDir}\n`);
  process.exit(1);
}

const failed = [];
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  const result = spawnSync(process.execPath, [`${benchDir}${file}`], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) failed.push(file);
}
if (failed.length > 0) {
  process.stderr.write(`\nFailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
