/**
 * @module
 * The order test files start in (ADR 0927): the files `test/file-durations.json` lists, longest
 * first, then every other file in vitest's own order. With two workers a long file that starts last
 * stretches the run by most of its length; started first, shorter files fill the other worker
 * around it. The list is refreshed from a run's JSON report by `node scripts/file-durations.mjs`.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** `test/file-durations.json`: seconds per test file, by its path from the repository root. */
export interface FileDurations {
  readonly files: Readonly<Record<string, number>>;
}

export const DURATIONS_FILE = join(import.meta.dirname, 'file-durations.json');

/** The listed durations; none when the file is missing or unreadable (vitest's order then, unchanged). */
export function readFileDurations(path = DURATIONS_FILE): Readonly<Record<string, number>> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<FileDurations>;
    return parsed.files ?? {};
  } catch {
    return {};
  }
}

/**
 * `files` with the listed ones first, longest first (ties by path), and the rest after in the order
 * they came. `pathOf` gives a file's path from the repository root.
 */
export function longestFirst<T>(
  files: readonly T[],
  durations: Readonly<Record<string, number>>,
  pathOf: (file: T) => string,
): T[] {
  const listed: { file: T; path: string; seconds: number }[] = [];
  const rest: T[] = [];
  for (const file of files) {
    const path = pathOf(file);
    const seconds = durations[path];
    if (typeof seconds === 'number' && Number.isFinite(seconds)) listed.push({ file, path, seconds });
    else rest.push(file);
  }
  listed.sort((a, b) => b.seconds - a.seconds || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return [...listed.map(({ file }) => file), ...rest];
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    return longestFirst(await super.sort(files), readFileDurations(), (spec) =>
      relative(root, spec.moduleId).split(sep).join('/'),
    );
  }
}
