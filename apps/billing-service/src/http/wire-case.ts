/**
 * @module
 * The domain speaks camelCase, the wire snake_case. Keys convert recursively, except inside
 * `custom_data`, whose keys belong to the caller and pass through untouched.
 */

type SnakeToCamel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<SnakeToCamel<Tail>>}`
  : S;

/** The camelCase twin of a wire type, as `toCamelCase` produces it. */
export type CamelCased<T> = T extends readonly (infer Item)[]
  ? CamelCased<Item>[]
  : T extends object
    ? {
        [Key in keyof T as Key extends string ? SnakeToCamel<Key> : Key]: Key extends 'custom_data'
          ? T[Key]
          : CamelCased<T[Key]>;
      }
    : T;

const OPAQUE_KEYS = new Set(['custom_data', 'customData']);

function convert(value: unknown, renameKey: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, renameKey));
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    result[renameKey(key)] = OPAQUE_KEYS.has(key) ? inner : convert(inner, renameKey);
  }
  return result;
}

/**
 * Renaming is a hot path (every key of every entity of every page), and the set of keys is our own
 * wire vocabulary, so each rename is computed once. The cap only guards against a key set that is
 * not ours growing without end.
 */
function memoised(rename: (key: string) => string): (key: string) => string {
  const cache = new Map<string, string>();
  return (key) => {
    let renamed = cache.get(key);
    if (renamed === undefined) {
      renamed = rename(key);
      if (cache.size < 10_000) cache.set(key, renamed);
    }
    return renamed;
  };
}

const camelKey = memoised((key) => key.replace(/_([a-z\d])/g, (_, letter: string) => letter.toUpperCase()));
const snakeKey = memoised((key) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`));

export function toCamelCase<T>(value: T): CamelCased<T> {
  return convert(value, camelKey) as CamelCased<T>;
}

export function toSnakeCase(value: unknown): unknown {
  return convert(value, snakeKey);
}
