/**
 * Rules that let test files share a worker's imported modules (vitest's `isolate: false`, ADR 0011):
 * a module mock would replace a module for every later file in the same worker, and faked timers
 * left on would stop every later file's clock. Spies, stubbed environment variables and globals are
 * put back by the configuration (`restoreMocks`, `unstubEnvs`, `unstubGlobals`). And a rule that an
 * assertion cannot pass on an empty list (issue 33). Each rule is also shown to catch a planted
 * breach, so it cannot pass by reading nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Every test file of the workspace, as vitest's `include` finds them. */
function testFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) files.push(path);
    }
  };
  for (const top of ['packages', 'apps', 'test']) walk(join(root, top));
  return files;
}

/** What in `source` would leak into the next test file of the same worker. */
function leaks(source: string): string[] {
  const found: string[] = [];
  const mock = /\bvi\s*\.\s*(mock|doMock|unmock|doUnmock|resetModules|importMock)\s*\(/.exec(source);
  if (mock !== null) found.push(`vi.${mock[1]}(): module mocks and resets reach every later file in the worker`);
  if (/\bvi\s*\.\s*useFakeTimers\s*\(/.test(source) && !/\bvi\s*\.\s*useRealTimers\s*\(/.test(source)) {
    found.push('vi.useFakeTimers() without vi.useRealTimers(): the timers stay faked for later files');
  }
  return found;
}

/**
 * `expect(...)` arguments that hold an `.every(...)`: `[].every(p)` is true, so such an assertion
 * passes when the list is empty. `expectEvery` (packages/testkit) fails on an empty list instead.
 */
function vacuousEvery(source: string): string[] {
  const found: string[] = [];
  for (const call of source.matchAll(/\bexpect\s*\(/g)) {
    let depth = 1;
    let end = call.index + call[0].length;
    while (end < source.length && depth > 0) {
      const char = source[end];
      if (char === '(') depth += 1;
      else if (char === ')') depth -= 1;
      end += 1;
    }
    const argument = source.slice(call.index + call[0].length, end - 1);
    if (/\.every\s*\(/.test(argument)) {
      const line = source.slice(0, call.index).split('\n').length;
      found.push(`line ${line}: expect(….every(…)) passes on an empty list; use expectEvery from @drawdown/testkit`);
    }
  }
  return found;
}

describe('assertions that cannot pass on nothing', () => {
  it('no expect() holds an .every()', () => {
    const others = testFiles().filter((file) => file !== import.meta.filename);
    const breaches = others.flatMap((file) =>
      vacuousEvery(readFileSync(file, 'utf8')).map((breach) => `${relative(root, file)}: ${breach}`),
    );
    expect(breaches).toEqual([]);
  });

  it('catches a planted one', () => {
    expect(vacuousEvery('expect(list.every((x) => x > 0)).toBe(true);')).toHaveLength(1);
    expect(vacuousEvery('expect(\n  rows.filter((r) => r.a).every((r) => f(r)),\n).toBe(true);')).toHaveLength(1);
    expect(vacuousEvery('expect(list).toHaveLength(2); const ok = list.every((x) => x);')).toEqual([]);
  });
});

describe('test files that share a worker', () => {
  it('finds the test files', () => {
    const files = testFiles().map((file) => relative(root, file));
    expect(files).toContain('test/test-suite-rules.test.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it('leave nothing behind for the next file', () => {
    // This file is left out: its planted breaches are strings.
    const others = testFiles().filter((file) => file !== import.meta.filename);
    const breaches = others.flatMap((file) =>
      leaks(readFileSync(file, 'utf8')).map((leak) => `${relative(root, file)}: ${leak}`),
    );
    expect(breaches).toEqual([]);
  });

  it('catches a planted module mock and timers left faked', () => {
    expect(leaks("vi.mock('node:fs');")).toHaveLength(1);
    expect(leaks('vi.resetModules();')).toHaveLength(1);
    expect(leaks('beforeEach(() => vi.useFakeTimers());')).toHaveLength(1);
    expect(leaks('vi.useFakeTimers(); afterEach(() => vi.useRealTimers());')).toEqual([]);
    expect(leaks("vi.spyOn(console, 'log');")).toEqual([]);
  });
});
