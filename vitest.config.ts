import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/longest-first-sequencer.js';

// Workspace packages resolve to their TypeScript sources, so tests need no build step.
function workspaceAliases(): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(group)) {
      const manifest = JSON.parse(readFileSync(join(group, name, 'package.json'), 'utf8')) as { name: string };
      aliases[manifest.name] = join(import.meta.dirname, group, name, 'src', 'index.ts');
    }
  }
  return aliases;
}

export default defineConfig({
  resolve: { alias: workspaceAliases() },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time at least, whatever the core count (vitest's default is one fewer
    // worker than cores: one on a two-core machine). Most files spend much of their time waiting
    // on servers, child processes, browsers and databases, and every file pays a second or two of
    // start-up and import: one after another, a two-core machine sat half idle. Every test owns
    // its ports (port 0), databases, data folders and Redis keys, so files do not meet.
    maxWorkers: Math.max(2, availableParallelism()),
    // A worker keeps its imported modules from one test file to the next instead of importing the
    // whole service again for each file (ADR 0011): importing was about 40% of the suite's time
    // (12 min 56 s isolated, 6 min 49 s shared, on one machine in one hour). Files still never meet
    // through their data; what a test changes in the process is put back after each test (spies,
    // stubbed environment variables and globals by the three settings below, faked timers by the
    // test itself), and module mocks are not used at all (test/test-suite-rules.test.ts checks both).
    isolate: false,
    // The longest files start first (ADR 0927): test/file-durations.json lists the files of at least
    // 3 s with their seconds in one full run, and they start longest first, every other file after
    // them in vitest's own order. With two workers, a 60 s file that starts last stretches the run by
    // most of a minute; started first, the short files fill the other worker around it. Refresh the
    // list after a full run (`npm test` writes .test-results/vitest.json): node scripts/file-durations.mjs
    sequence: { sequencer: LongestFirstSequencer },
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
  },
});
