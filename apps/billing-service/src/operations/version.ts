/**
 * @module
 * The version of this build: the billing service package's own, read once from its
 * package.json (beside `src/` and `dist/` alike).
 */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function serviceVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return cached;
}
