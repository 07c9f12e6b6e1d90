#!/usr/bin/env node
// The one test command (`npm test`, also what .ci/run runs): build, lint and format check,
// typecheck sources and tests, run every test, and end with a plain "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;

function step(title, command, args) {
  process.stdout.write(`\n== ${title}: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

const checks = [
  ['browser for the portal tests', 'bash', ['scripts/ensure-chromium.sh']],
  ['build', 'npx', ['tsc', '-b', 'tsconfig.build.json']],
  ['lint and format (warnings fail too)', 'npx', ['biome', 'check', '--error-on-warnings', '.']],
  ['typecheck sources and tests', 'npx', ['tsc', '-p', 'tsconfig.json']],
];
for (const [title, command, args] of checks) {
  if (step(title, command, args) !== 0) {
    process.stdout.write(`\n${title} failed\n`);
    process.exit(1);
  }
}

mkdirSync(`${root}.test-results`, { recursive: true });
const report = `${root}.test-results/vitest.json`;
const status = step('tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);

if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = results.numPendingTests + results.numTodoTests;
  process.stdout.write(
    `\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
  );
}
process.exit(status);
