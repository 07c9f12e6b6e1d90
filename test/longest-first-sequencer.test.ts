import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DURATIONS_FILE, longestFirst, readFileDurations } from './longest-first-sequencer.js';

describe('the longest-first order of test files (ADR 0927)', () => {
  const byPath = (path: string) => path;

  it('starts the listed files longest first, then the others in the order they came', () => {
    const files = ['d.test.ts', 'short.test.ts', 'c.test.ts', 'long.test.ts', 'tie-b.test.ts', 'tie-a.test.ts'];
    const durations = { 'long.test.ts': 60, 'short.test.ts': 4, 'tie-b.test.ts': 10, 'tie-a.test.ts': 10 };
    expect(longestFirst(files, durations, byPath)).toEqual([
      'long.test.ts',
      'tie-a.test.ts',
      'tie-b.test.ts',
      'short.test.ts',
      'd.test.ts',
      'c.test.ts',
    ]);
  });

  it('keeps vitest’s order when nothing is listed, and ignores entries that are not numbers', () => {
    const files = ['b.test.ts', 'a.test.ts'];
    expect(longestFirst(files, {}, byPath)).toEqual(files);
    expect(longestFirst(files, { 'a.test.ts': Number.NaN }, byPath)).toEqual(files);
    expect(readFileDurations(join(import.meta.dirname, 'no-such-durations.json'))).toEqual({});
  });

  it('lists only test files that exist, by their path from the repository root', async () => {
    const { existsSync } = await import('node:fs');
    const listed = Object.keys(readFileDurations(DURATIONS_FILE));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((path) => !existsSync(join(import.meta.dirname, '..', path)))).toEqual([]);
  });
});
