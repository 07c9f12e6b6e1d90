import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TAX_RATE_DATASET } from './tax-rate-dataset.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

describe('the committed tax rate dataset (ADR 1430)', () => {
  it('holds exactly what the installed sales-tax package publishes', () => {
    const printed = execFileSync(process.execPath, [join(root, 'scripts/refresh-tax-rates.mjs'), '--print'], {
      encoding: 'utf8',
    });
    expect(TAX_RATE_DATASET).toEqual(JSON.parse(printed));
  });

  it('writes every rate as an exact decimal with at most six places', () => {
    const entries = Object.values(TAX_RATE_DATASET.countries).flatMap((country) => [
      country,
      ...country.before,
      ...Object.values(country.regions ?? {}).flatMap((region) => [region, ...region.before]),
    ]);
    expect(entries.length).toBeGreaterThan(100);
    for (const entry of entries) expect(entry.rate).toMatch(/^-?(0|[1-9]\d*)(\.\d{0,5}[1-9])?$/);
  });
});
