/**
 * @module
 * The small vocabulary the portal's routes are written in: ids and cursors read from the request
 * (refused as `bad_request` when malformed), the same-site check of state-changing requests, and
 * form and JSON bodies limited on the stream (ADR 0903).
 */
import { readTextWithin } from '@drawdown/http-kit';
import type { Context } from 'hono';
import { badRequest, FORBIDDEN, Refused } from '../../portal/portal-error.js';

export const TRANSACTION_ID = /^txn_[a-z\d]{26}$/;
export const SUBSCRIPTION_ID = /^sub_[a-z\d]{26}$/;
export const ADJUSTMENT_ID = /^adj_[a-z\d]{26}$/;
const MAX_FORM_BYTES = 8 * 1024;

/** The `after` cursor of a history page: null for the first page. */
export function readCursor(c: Context): string | null {
  const after = c.req.query('after');
  if (after === undefined || after === '') return null;
  if (!TRANSACTION_ID.test(after)) throw new Refused(badRequest('after must be a transaction id (txn_…).'));
  return after;
}

/** The `:id` path parameter, which must match `pattern`. */
export function idParam(c: Context, pattern: RegExp, what: string): string {
  const id = c.req.param('id') ?? '';
  if (!pattern.test(id)) throw new Refused(badRequest(`The ${what} id is malformed.`));
  return id;
}

/** Refuses a state-changing request that a browser says comes from another site. */
export function requireSameSite(c: Context): void {
  if (c.req.header('sec-fetch-site') === 'cross-site') throw new Refused(FORBIDDEN);
}

/** A url-encoded form's fields (empty for another content type); refused past 8 KiB. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return {};
  const text = await readTextWithin(c.req.raw, MAX_FORM_BYTES);
  if (text === null) throw new Refused(badRequest('The form is too large.'));
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) fields[name] = value;
  return fields;
}

/** A small JSON body (at most `maxBytes`, counted on the stream), or null when it is larger or not JSON. */
export async function readSmallJson(c: Context, maxBytes: number): Promise<unknown> {
  const text = await readTextWithin(c.req.raw, maxBytes);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
