/**
 * docs/errors.md documents every error code with its HTTP status, and nothing else: a code added
 * to the core without a row there, a row left behind for a removed code, or a status that differs
 * from the error mapping fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, type ErrorCode } from '@drawdown/billing-core';
import { describe, expect, it } from 'vitest';
import { documentationUrl, errorType, STATUS_BY_CODE } from '../src/http/error-mapping.js';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'errors.md'), 'utf8');

/** Rows of the form `| <a id="code"></a>`code` | 400 | meaning |`. */
const ROW = /^\|\s*<a id="([a-z_]+)"><\/a>`([a-z_]+)`\s*\|\s*(\d{3})\s*\|\s*(.+?)\s*\|\s*$/;

const rows = DOC.split('\n')
  .map((line) => ROW.exec(line))
  .filter((match): match is RegExpExecArray => match !== null)
  .map(([, anchor = '', code = '', status = '', meaning = '']) => ({ anchor, code, status: Number(status), meaning }));
const documented = new Map(rows.map((row) => [row.code, row]));
const defined = Object.keys(ERROR_CODES) as ErrorCode[];

describe('docs/errors.md', () => {
  it('documents every code defined in the core', () => {
    expect(defined.filter((code) => !documented.has(code))).toEqual([]);
  });

  it('documents no code the core does not define', () => {
    expect(rows.map((row) => row.code).filter((code) => !(code in ERROR_CODES))).toEqual([]);
  });

  it('documents each code once, with an anchor of its own name', () => {
    expect(rows.length).toBe(documented.size);
    for (const row of rows) expect(row.anchor).toBe(row.code);
  });

  it('gives each code the HTTP status of the error mapping', () => {
    const mismatched = rows.filter((row) => STATUS_BY_CODE[row.code as ErrorCode] !== row.status);
    expect(mismatched.map((row) => `${row.code}: documented ${row.status}`)).toEqual([]);
  });

  it('says what each code means', () => {
    for (const row of rows) expect(row.meaning.length, row.code).toBeGreaterThan(10);
  });

  it('is where every documentation_url points', () => {
    for (const code of defined) expect(documentationUrl(code)).toMatch(new RegExp(`/errors#${code}$`));
  });

  it('keeps every authentication and permission failure at 403, as the seed requires', () => {
    for (const code of [
      'forbidden',
      'invalid_token',
      'authentication_missing',
      'authentication_malformed',
      'expired_token',
    ] as const) {
      expect(STATUS_BY_CODE[code]).toBe(403);
    }
    expect(STATUS_BY_CODE.too_many_requests).toBe(429);
    expect(errorType('too_many_requests')).toBe('api_error');
    expect(errorType('internal_error')).toBe('api_error');
    expect(errorType('invalid_field')).toBe('request_error');
  });
});
