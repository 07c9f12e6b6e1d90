/**
 * The promise that the official Node SDK works against Drawdown unchanged, every method of it,
 * kept checkable: this test lists every method of every resource of the installed
 * `@paddle/paddle-node-sdk` and requires each to be called (`.resource.method(`) by at least one
 * test in the repository. Those tests run the SDK against a real service and check what it
 * returns; a method added by an SDK upgrade fails here until a test exercises it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Paddle } from '@paddle/paddle-node-sdk';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli-process.js';

/** `resource.method` for every method of every resource object the SDK client holds. */
function sdkMethods(): string[] {
  const paddle = new Paddle('pdl_sdbx_apikey_01kcoverage00000000000000000_unusedkey00000000000000', {
    environment: 'http://127.0.0.1:9' as never,
  });
  const methods: string[] = [];
  for (const [resource, value] of Object.entries(paddle)) {
    // `client` is the SDK's own HTTP client (get, post, …), not an API method.
    if (resource === 'client' || value === null || typeof value !== 'object') continue;
    const prototype: object = Object.getPrototypeOf(value);
    if (prototype === Object.prototype) continue;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      if (name !== 'constructor' && typeof Reflect.get(prototype, name) === 'function')
        methods.push(`${resource}.${name}`);
    }
  }
  return methods.sort();
}

/** The text of every test file of the repository (outside node_modules and build output). */
function testSources(): string {
  const texts: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.test\.ts$/.test(entry.name)) texts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const top of ['apps', 'packages']) visit(join(REPO_ROOT, top));
  return texts.join('\n');
}

describe('the official SDK', () => {
  it('has every method of every resource called by some test', () => {
    const methods = sdkMethods();
    // SDK 3.10 has 103; a much smaller list means the walk above no longer finds them.
    expect(methods.length).toBeGreaterThanOrEqual(100);
    const sources = testSources();
    const uncalled = methods.filter((method) => !sources.includes(`.${method}(`));
    expect(uncalled, 'SDK methods no test calls').toEqual([]);
  });
});
