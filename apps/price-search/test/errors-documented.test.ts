import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, STATUS_BY_CODE } from '../src/http/api-error.js';

// The README's error table is the public list of codes: it must match the code list and the status map.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const documented = new Map(
  [...readme.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((match) => [match[2] ?? '', Number(match[1])]),
);

describe('error codes', () => {
  it.each(
    ERROR_CODES.map((code) => [code, STATUS_BY_CODE[code]] as const),
  )('%s is documented in the README with status %i', (code, status) => {
    expect(documented.get(code)).toBe(status);
  });

  it('documents no code the API does not have', () => {
    expect([...documented.keys()].filter((code) => !(ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });
});
