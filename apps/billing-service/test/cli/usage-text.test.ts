/**
 * `drawdown --help` lists every setting with its description in one column: an option never runs
 * into its description (it read `format|chargeWhen` before issue 36).
 */
import { describe, expect, it } from 'vitest';
import { settingUsage } from '../../src/config.js';

describe('the settings in --help', () => {
  it('separates every option from its description by at least two spaces, or a line', () => {
    const lines = settingUsage().split('\n');
    const options = lines.filter((line) => line.startsWith('  --'));
    expect(options.length).toBeGreaterThan(30);
    for (const [index, line] of lines.entries()) {
      if (!line.startsWith('  --')) {
        // A description moved to its own line sits in the description column, after an option line.
        expect(line, line).toMatch(/^ {32}\S/);
        expect(lines[index - 1]).toMatch(/^ {2}--\S+( \S+)?$/);
        continue;
      }
      const option = /^ {2}--[a-z\d-]+( [^ ]+)?/.exec(line)?.[0] ?? '';
      const rest = line.slice(option.length);
      expect(rest === '' || /^ {2,}\S/.test(rest), line).toBe(true);
    }
    expect(settingUsage()).toContain('--vat-id-unavailable format|charge\n');
  });
});
