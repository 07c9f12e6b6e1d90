import { describe, expect, it } from 'vitest';
import { findUnstorableText, holdsUnstorableText, storableCopy } from './storable-text.js';

describe('holdsUnstorableText', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone high surrogate at the end', 'a\uDBFF'],
    ['a lone low surrogate', '\uDC00a'],
    ['two high surrogates', '\uD83D\uD83D\uDE00'],
  ])('refuses %s', (_label, text) => {
    expect(holdsUnstorableText(text)).toBe(true);
  });

  it.each([
    ['plain text', 'Ada Lovelace'],
    ['a surrogate pair', 'price 😀'],
    ['other control characters', 'tab\tand\u0001'],
    ['the replacement character', '\uFFFD'],
    ['empty text', ''],
  ])('accepts %s', (_label, text) => {
    expect(holdsUnstorableText(text)).toBe(false);
  });
});

describe('findUnstorableText', () => {
  it('names the path of a nested string, and of an object key', () => {
    expect(findUnstorableText({ items: [{ name: 'ok' }, { name: 'b\u0000' }] })).toBe('items[1].name');
    expect(findUnstorableText({ custom_data: { 'k\uD800': 1 } })).toBe('custom_data.k\uD800');
    expect(findUnstorableText('\u0000')).toBe('(body)');
  });

  it('finds nothing in storable values', () => {
    expect(findUnstorableText({ a: [1, true, null, 'x', { b: '😀' }] })).toBeNull();
  });
});

describe('storableCopy', () => {
  it('replaces each unstorable character with U+FFFD and keeps the rest', () => {
    expect(storableCopy('ok\u0000\u0000 \uD800x \uDC00 😀')).toBe('ok\uFFFD\uFFFD \uFFFDx \uFFFD 😀');
    expect(holdsUnstorableText(storableCopy('a\u0000\uDBFF'))).toBe(false);
  });

  it('returns storable text unchanged', () => {
    const text = 'Ada Lovelace 😀 \t';
    expect(storableCopy(text)).toBe(text);
  });
});
