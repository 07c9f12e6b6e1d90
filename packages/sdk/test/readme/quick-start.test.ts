/**
 * The README's quick start, run as written against a real service: the block is read from the
 * README, its import is checked and supplied, and its output is compared.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Drawdown } from '@drawdown/sdk';
import { type BillingHarness, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const README = join(import.meta.dirname, '..', '..', 'README.md');
const IMPORT_LINE = "import { Drawdown } from '@drawdown/sdk';";

function quickStart(): string {
  const readme = readFileSync(README, 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('The README has no quick start code block.');
  return block;
}

type QuickStart = (drawdown: typeof Drawdown, process: unknown, console: unknown) => Promise<void>;

describe('README quick start', () => {
  let harness: BillingHarness;
  beforeAll(async () => {
    harness = await startBillingHarness({ engine: 'sqlite' });
  });
  afterAll(() => harness.close());

  it('is at most ten lines of code, importing only the SDK', () => {
    const lines = quickStart()
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(lines[0]).toBe(IMPORT_LINE);
  });

  it('runs against the sandbox and reports accepted usage', async () => {
    // The block is plain JavaScript apart from its import, which is handed in instead.
    const body = quickStart().replace(IMPORT_LINE, '');
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...parameters: string[]
    ) => QuickStart;
    const run = new AsyncFunction('Drawdown', 'process', 'console', body);
    const printed: string[] = [];
    const env = { DRAWDOWN_API_KEY: harness.sandboxKey, DRAWDOWN_BASE_URL: harness.sandboxUrl };
    await run(Drawdown, { env }, { log: (...values: unknown[]) => printed.push(values.join(' ')) });
    expect(printed).toEqual(['accepted', 'api_call 1']);
  });
});
