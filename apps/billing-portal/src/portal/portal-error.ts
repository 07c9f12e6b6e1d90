/**
 * @module
 * What the portal answers when it refuses: the seed's three view-level results, and the
 * service's own error code passed through for every other failure (seed 001, Errors). Bodies
 * have the service's envelope shape, `{ error: { code, detail } }`, so one client reads both.
 */
import { DrawdownApiError, DrawdownConnectionError } from '@drawdown/sdk';
import type { MessageKey } from './messages.js';

/** A refusal the portal sends as JSON (or as a short page for the HTML routes). */
export interface PortalRefusal {
  readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 429 | 500 | 502;
  readonly code: string;
  readonly detail: string;
}

/** Nobody is signed in. */
export const NOT_AUTHENTICATED: PortalRefusal = { status: 401, code: 'not_authenticated', detail: 'Not authenticated' };

/** Signed in, but the host knows no customer record for this user (ADR 0801). */
export const NO_CUSTOMER: PortalRefusal = { status: 403, code: 'no_customer', detail: 'No customer' };

/** The transaction belongs to another customer. */
export const FORBIDDEN: PortalRefusal = { status: 403, code: 'forbidden', detail: 'Forbidden' };

/** A request that the portal cannot read (a malformed id or cursor). */
export function badRequest(detail: string): PortalRefusal {
  return { status: 400, code: 'bad_request', detail };
}

export const NOT_FOUND: PortalRefusal = { status: 404, code: 'not_found', detail: 'Not found' };

/** The portal itself failed; details stay in the server log. */
export const INTERNAL_ERROR: PortalRefusal = {
  status: 500,
  code: 'internal_error',
  detail: 'The billing portal failed unexpectedly; try again.',
};

const PASSED_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 409, 429]);

/**
 * The refusal for a failed SDK call: the service's code and detail, with its status when it is a
 * client error; a failure on the service's side or of the connection becomes 502 (the portal is
 * a gateway to the service). Null for anything that is not an SDK failure (a bug: rethrow).
 */
export function refusalFromServiceError(error: unknown): PortalRefusal | null {
  if (error instanceof DrawdownApiError) {
    const status = PASSED_STATUSES.has(error.status) ? (error.status as PortalRefusal['status']) : 502;
    return { status, code: error.code, detail: error.detail };
  }
  if (error instanceof DrawdownConnectionError) {
    return { status: 502, code: 'service_unavailable', detail: 'The billing service could not be reached; try again.' };
  }
  return null;
}

/** The JSON body of a refusal. */
export function refusalBody(refusal: PortalRefusal): { error: { code: string; detail: string } } {
  return { error: { code: refusal.code, detail: refusal.detail } };
}

/**
 * A refusal thrown by a route or an operation; the error handler of the routes it happened under
 * answers it as JSON or as a short page (with `page`'s own title and text when given).
 */
export class Refused extends Error {
  constructor(
    readonly refusal: PortalRefusal,
    readonly page?: { readonly title: MessageKey; readonly text: MessageKey },
  ) {
    super(refusal.detail);
  }
}
