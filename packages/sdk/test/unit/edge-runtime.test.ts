/**
 * The library must run where there is `fetch` and Web Crypto but no Node: no `node:` imports and
 * no Node-only globals in its sources. (Its own tsconfig also builds it without Node's types.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE = join(import.meta.dirname, '..', '..', 'src');

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(directory, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(directory, entry.name)]
        : [],
  );
}

describe('edge runtime compatibility', () => {
  it('imports nothing from node: and uses no Node-only globals', () => {
    const offenders = sources(SOURCE).flatMap((file) => {
      // Examples in comments may show Node code; only the code counts.
      const text = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      const found = [/from ['"]node:/, /\bBuffer\b/, /\bprocess\./, /\brequire\(/, /\bsetImmediate\b/]
        .filter((pattern) => pattern.test(text))
        .map((pattern) => `${file}: ${pattern}`);
      return found;
    });
    expect(offenders).toEqual([]);
  });

  it('has no runtime dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(SOURCE, '..', 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});
