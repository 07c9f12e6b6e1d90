/**
 * @module
 * Reads a JSON body and validates it against a contract schema. A bodiless POST with a JSON
 * content type reads as `{}` (the official SDK sends those); anything unreadable is
 * `bad_request`, text no engine can store (NUL, an unpaired surrogate) anywhere in the body,
 * keys included, is `invalid_characters` (ADR 0901), and schema failures are `invalid_field`
 * with one entry per field.
 */
import { BillingError, type FieldError, findUnstorableText, UNSTORABLE_TEXT_REASON } from '@drawdown/billing-core';
import { readRequestText, requestHeader } from '@drawdown/http-kit';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './app-env.js';
import { type CamelCased, toCamelCase } from './wire-case.js';

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    return text === '' ? String(key) : `${text}.${String(key)}`;
  }, '');
}

export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: fieldPath([...issue.path, key]), message: 'is not a known field' }));
    }
    return [{ field: fieldPath(issue.path) || '(body)', message: issue.message }];
  });
}

export function validationError(fieldErrors: FieldError[]): BillingError {
  const summary = fieldErrors.map((error) => `${error.field}: ${error.message}`).join('; ');
  return new BillingError('invalid_field', `Invalid request. ${summary}`, fieldErrors);
}

export interface ReadOptions {
  /**
   * The list (`events`) whose items' string fields the use case checks itself, refusing item by
   * item (usage events answer per event). Unstorable text anywhere else refuses the request.
   */
  readonly unstorableTextPerItemOf?: string;
}

/** `findUnstorableText`, leaving out the string fields of the items of `list`. */
function unstorableOutside(value: unknown, list: string): string | null {
  const items = (value as Record<string, unknown> | null)?.[list];
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Array.isArray(items)) {
    return findUnstorableText(value);
  }
  const elsewhere = findUnstorableText({ ...value, [list]: null });
  if (elsewhere !== null) return elsewhere;
  for (const [index, item] of items.entries()) {
    const fields: [string, unknown][] =
      item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.entries(item) : [['', item]];
    for (const [key, field] of fields) {
      const found = typeof field === 'string' ? null : findUnstorableText(key === '' ? field : { [key]: field });
      if (found !== null) return `${list}[${index}]${found === '(body)' ? '' : `.${found}`}`;
    }
  }
  return null;
}

export async function readJson(c: Context<AppEnv>, options: ReadOptions = {}): Promise<unknown> {
  return parseJsonText(await readRequestText(c), requestHeader(c, 'content-type'), options);
}

/** The Content-Types a JSON body may come with. */
export const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** `readJson` of a body already read, with its Content-Type: the same rules, the same errors. */
export function parseJsonText(text: string, contentTypeHeader: string | undefined, options: ReadOptions = {}): unknown {
  if (text.trim() === '') return {};
  const contentType = contentTypeHeader ?? '';
  if (!JSON_CONTENT_TYPE.test(contentType)) {
    throw new BillingError('bad_request', 'Request bodies must be JSON, sent with Content-Type: application/json.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new BillingError('bad_request', 'The request body is not valid JSON.');
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new BillingError('bad_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  const list = options.unstorableTextPerItemOf;
  const field = list === undefined ? findUnstorableText(value) : unstorableOutside(value, list);
  if (field !== null) throw new BillingError('invalid_characters', `${field} ${UNSTORABLE_TEXT_REASON}.`);
  return value;
}

/**
 * No body we accept comes near this depth; a deeper one (inside custom_data, say) would overflow
 * the stack when stored or written back, so it is refused as it arrives (ADR 0101).
 */
export const MAX_JSON_DEPTH = 32;

/** Walks the value without recursion, so the check itself cannot overflow the stack. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

export async function readBody<Schema extends z.ZodType>(
  c: Context<AppEnv>,
  schema: Schema,
  options: ReadOptions = {},
): Promise<CamelCased<z.output<Schema>>> {
  return validatedBody(await readJson(c, options), schema);
}

/** A parsed body checked against its schema, in the domain's camelCase (`readBody`'s second half). */
export function validatedBody<Schema extends z.ZodType>(json: unknown, schema: Schema): CamelCased<z.output<Schema>> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error.issues));
  return toCamelCase(parsed.data);
}

/**
 * Like `readBody`, but keeps the wire's snake_case keys: for bodies that carry wire objects the
 * service stores and sends back as given (a simulation's custom payload and scenario config).
 */
export async function readWireBody<Schema extends z.ZodType>(
  c: Context<AppEnv>,
  schema: Schema,
): Promise<z.output<Schema>> {
  const json = await readJson(c);
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error.issues));
  return parsed.data;
}
