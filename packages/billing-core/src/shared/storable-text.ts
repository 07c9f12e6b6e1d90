/**
 * @module
 * Text every engine stores as sent. PostgreSQL refuses NUL (U+0000) in `text`, and a UTF-16
 * surrogate without its pair has no UTF-8 encoding (drivers silently write U+FFFD instead), so
 * both are refused wherever text comes in (ADR 0901): one rule, checked at the edge.
 */

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is the character this rule is about
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a character no engine can store as sent. */
export function holdsUnstorableText(text: string): boolean {
  return UNSTORABLE.test(text);
}

/**
 * `text` with each character no engine can store replaced by U+FFFD, for text we keep but did not
 * choose (what a webhook receiver answered): refusing it is not ours to do, and keeping it as sent
 * would fail on PostgreSQL only, forever, for that one record.
 */
export function storableCopy(text: string): string {
  return holdsUnstorableText(text) ? text.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD') : text;
}

/** Why text is refused, for an error's detail. */
export const UNSTORABLE_TEXT_REASON = 'holds NUL (U+0000) or an unpaired UTF-16 surrogate, which cannot be stored';

/**
 * The path (`items[0].name`, `custom_data.key`) of the first string or object key in a parsed
 * JSON value that holds unstorable text, or null when there is none. Walks without recursion.
 */
export function findUnstorableText(value: unknown): string | null {
  const pending: [unknown, string][] = [[value, '']];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (holdsUnstorableText(item)) return path || '(body)';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const [index, child] of item.entries()) pending.push([child, `${path}[${index}]`]);
      continue;
    }
    for (const [key, child] of Object.entries(item)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (holdsUnstorableText(key)) return childPath;
      pending.push([child, childPath]);
    }
  }
  return null;
}
