/**
 * @module
 * TypeScript speaks camelCase, the wire snake_case. Keys convert recursively, except inside
 * `customData` / `custom_data` at any depth: those keys are the caller's own and travel untouched
 * both ways (the official SDK keeps only a top-level one intact; ADR 0602).
 */

const OPAQUE_KEYS: ReadonlySet<string> = new Set(['custom_data', 'customData']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function convert(value: unknown, renameKey: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, renameKey));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    result[renameKey(key)] = OPAQUE_KEYS.has(key) ? inner : convert(inner, renameKey);
  }
  return result;
}

/** `usageBalanceUnitId` → `usage_balance_unit_id`. */
export function snakeKey(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `usage_balance_unit_id` → `usageBalanceUnitId`. */
export function camelKey(key: string): string {
  return key.replace(/_([a-z\d])/g, (_, letter: string) => letter.toUpperCase());
}

/** A request body in wire form. Properties set to `undefined` are left out; `null` is sent. */
export function toWire(value: unknown): unknown {
  return convert(value, snakeKey);
}

/** A response in TypeScript form. */
export function fromWire<T>(value: unknown): T {
  return convert(value, camelKey) as T;
}
