/**
 * @module
 * The `TaxIdVerifier` port on the EU's VIES REST service (ADR 1437): `POST
 * {base}/check-vat-number` with JSON `{ countryCode, vatNumber }`, answered with `valid`, `name`,
 * `address` and `requestDate`; the member state's `---` means undisclosed. Failures come as
 * `{ actionSucceed: false, errorWrappers: [{ error, message }] }` (or, on some answers, a
 * `userError` code). `INVALID_INPUT` is a verdict (the register does not take the number);
 * every other error (`MS_UNAVAILABLE`, `TIMEOUT`, `SERVICE_UNAVAILABLE`, `MS_MAX_CONCURRENT_REQ`,
 * `GLOBAL_MAX_CONCURRENT_REQ`), an HTTP error, a network failure or the configured timeout is
 * `unavailable`: no verdict, and the caller falls back. Uses Node's `fetch`; no dependency.
 */
import type { TaxIdRegisterAnswer, TaxIdVerifier } from '@drawdown/billing-core';

/** The European Commission's VIES REST API. */
export const DEFAULT_VIES_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';

export interface ViesVerifierOptions {
  /** The REST API's base, without `/check-vat-number`. */
  readonly baseUrl: string;
  /** How long one check may take before it counts as unavailable. */
  readonly timeoutMs: number;
}

interface ViesAnswer {
  readonly valid?: unknown;
  readonly name?: unknown;
  readonly address?: unknown;
  readonly requestDate?: unknown;
  readonly userError?: unknown;
  readonly errorWrappers?: readonly { readonly error?: unknown }[];
}

/** Errors VIES gives for an input it refuses: a verdict, not an outage. */
const REFUSED_INPUT = new Set(['INVALID_INPUT', 'INVALID']);

const disclosed = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' && value.trim() !== '---' ? value.trim() : null;

function unavailable(reason: string): TaxIdRegisterAnswer {
  return { outcome: 'unavailable', name: null, address: null, requestDate: null, reason };
}

function invalid(requestDate: string | null): TaxIdRegisterAnswer {
  return { outcome: 'invalid', name: null, address: null, requestDate, reason: null };
}

/** Reads one VIES answer (any HTTP status) into a verdict or an unavailable register. */
export function readViesAnswer(status: number, body: unknown): TaxIdRegisterAnswer {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as ViesAnswer;
  const errors = (answer.errorWrappers ?? []).map((wrapper) => String(wrapper.error ?? 'UNKNOWN'));
  if (errors.length > 0) {
    return errors.every((error) => REFUSED_INPUT.has(error)) ? invalid(null) : unavailable(errors.join(','));
  }
  const requestDate = typeof answer.requestDate === 'string' ? answer.requestDate : null;
  if (typeof answer.userError === 'string' && !['VALID', 'INVALID'].includes(answer.userError)) {
    return REFUSED_INPUT.has(answer.userError) ? invalid(requestDate) : unavailable(answer.userError);
  }
  if (status < 200 || status >= 300 || typeof answer.valid !== 'boolean') return unavailable(`HTTP ${status}`);
  if (!answer.valid) return invalid(requestDate);
  return {
    outcome: 'valid',
    name: disclosed(answer.name),
    address: disclosed(answer.address),
    requestDate,
    reason: null,
  };
}

export function createViesVerifier(options: ViesVerifierOptions): TaxIdVerifier {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/check-vat-number`;
  return {
    async check(countryPrefix, vatNumber) {
      let response: Response;
      let body: unknown;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ countryCode: countryPrefix, vatNumber }),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        body = await response.json().catch(() => null);
      } catch (error) {
        const name = error instanceof Error ? error.name : '';
        return unavailable(name === 'TimeoutError' ? 'TIMEOUT' : `network: ${String(error)}`);
      }
      return readViesAnswer(response.status, body);
    },
  };
}
