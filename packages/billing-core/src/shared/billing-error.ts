import type { ErrorCode } from './error-codes.js';

/** One field that failed validation, named by its wire path (`unit_price.amount`). */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/**
 * An expected refusal: bad input, a broken business rule, a missing entity. It carries a
 * code and never an HTTP status; anything else thrown is a bug and becomes `internal_error`.
 */
export class BillingError extends Error {
  override readonly name = 'BillingError';

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(detail);
  }

  static invalidField(field: string, message: string): BillingError {
    return new BillingError('invalid_field', `Invalid request: ${field} ${message}.`, [{ field, message }]);
  }

  static notFound(entity: string, id: string): BillingError {
    return new BillingError('not_found', `${entity} ${id} not found.`);
  }
}

/**
 * A failure that lasts until an operator acts (work waiting for a provider whose settings were
 * removed, ADR 1465): background work meets it on every run, so reporters write it rarely
 * (once an hour) rather than once a run.
 */
export class StandingFailure extends Error {
  override readonly name = 'StandingFailure';
}
