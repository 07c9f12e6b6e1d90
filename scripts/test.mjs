#!/usr/bin/env node
// The one test command (`npm test`, also what .ci/run runs): build, lint and format check,
// typecheck sources and tests, run every test, and end with a plain "N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;

function step(title, command, args) {
  process.stdout.write(`\n== ${title}: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

/** Runs a check with its output kept, so checks running side by side print one after another. */
function check(title, command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) =>
      resolve({
        title,
        command,
        args,
        code: code ?? 1,
        output: Buffer.concat(output),
        seconds: (Date.now() - started) / 1000,
      }),
    );
  });
}

if (step('browser for the portal tests', 'bash', ['scripts/ensure-chromium.sh']) !== 0) {
  process.stdout.write('\nbrowser for the portal tests failed\n');
  process.exit(1);
}
if (step('load balancer for the balancer test', 'bash', ['scripts/ensure-haproxy.sh']) !== 0) {
  process.stdout.write('\nload balancer for the balancer test failed\n');
  process.exit(1);
}

// The build, the lint and the typecheck read the same sources and write nothing the others read
// (the build writes dist/, the typecheck emits nothing), so they run side by side: each is
// mostly one core's work, and together they took a minute and a half one after another.
const checks = await Promise.all([
  check('build', 'npx', ['tsc', '-b', 'tsconfig.build.json']),
  check('lint and format (warnings fail too)', 'npx', ['biome', 'check', '--error-on-warnings', '.']),
  check('typecheck sources and tests', 'npx', ['tsc', '-p', 'tsconfig.json']),
]);
for (const { title, command, args, code, output, seconds } of checks) {
  process.stdout.write(`\n== ${title}: ${command} ${args.join(' ')} (${seconds.toFixed(0)} s)\n`);
  process.stdout.write(output);
  if (code !== 0) process.stdout.write(`\n${title} failed\n`);
}
if (checks.some(({ code }) => code !== 0)) process.exit(1);

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
