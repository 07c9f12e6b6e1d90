/**
 * @module
 * The currency list (`GET /currencies`, public) cached for 24 hours, and amount formatting with
 * the list's decimal places. When the list cannot be read, the seed's fallback applies: JPY, KRW,
 * VND and CLP have no decimals, every other currency two (ADR 0607).
 */
import { DrawdownApiError, DrawdownConnectionError } from '../core/errors.js';
import type { HttpClient, RequestOptions } from '../core/http-client.js';
import type { Runtime } from '../core/runtime.js';
import { formatAmount } from '../currencies/format-amount.js';
import { fallbackDecimalPlaces } from '../currencies/minor-units.js';
import { Resource } from './resource.js';

export interface Currency {
  readonly code: string;
  readonly name?: string;
  /** Decimal places of the lowest unit: 2 for USD (cents), 0 for JPY. */
  readonly decimalPlaces: number;
  readonly canBeBalance?: boolean;
  readonly applicableCountries?: readonly string[];
  readonly minimumPaymentAmount?: string;
}

/** The seed allows a client to keep the list for 24 hours. */
export const CURRENCY_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** After a failed read, wait this long before asking again, so formatting does not hammer the service. */
export const CURRENCY_RETRY_AFTER_FAILURE_MS = 60 * 1000;

/** Where a decimal-places answer came from. */
export type DecimalPlacesSource = 'service' | 'fallback';

export class CurrenciesResource extends Resource {
  #cached: {
    readonly currencies: readonly Currency[];
    readonly byCode: ReadonlyMap<string, Currency>;
    readonly at: number;
  } | null = null;
  #failedAt: number | null = null;
  #inFlight: Promise<readonly Currency[]> | null = null;

  /** @internal */
  constructor(
    http: HttpClient,
    private readonly runtime: Runtime,
  ) {
    super(http);
  }

  /**
   * The currencies the service bills in, from the cache when it is under 24 hours old. Throws
   * when the list cannot be read (use `decimalPlaces` or `formatAmount` for the fallback).
   */
  async list(options?: RequestOptions): Promise<readonly Currency[]> {
    const now = this.runtime.now();
    if (this.#cached && now - this.#cached.at < CURRENCY_CACHE_TTL_MS) return this.#cached.currencies;
    // Concurrent callers share one request.
    this.#inFlight ??= this.#fetch(options).finally(() => {
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #fetch(options?: RequestOptions): Promise<readonly Currency[]> {
    try {
      const currencies = await this.data<Currency[]>({
        method: 'GET',
        path: '/currencies',
        authenticated: false,
        ...options,
      });
      if (!Array.isArray(currencies)) throw new TypeError('GET /currencies did not answer with a list');
      this.#cached = {
        currencies,
        byCode: new Map(currencies.map((currency) => [currency.code.toUpperCase(), currency])),
        at: this.runtime.now(),
      };
      this.#failedAt = null;
      return currencies;
    } catch (error) {
      this.#failedAt = this.runtime.now();
      throw error;
    }
  }

  /** Forgets the cached list; the next call reads it again. */
  invalidate(): void {
    this.#cached = null;
    this.#failedAt = null;
  }

  /**
   * The decimal places of a currency: from the list when it can be read (and names the code),
   * otherwise by the seed's fallback rule. Never throws for an unavailable list.
   */
  async decimalPlaces(
    currencyCode: string,
  ): Promise<{ readonly decimalPlaces: number; readonly source: DecimalPlacesSource }> {
    const code = currencyCode.toUpperCase();
    const now = this.runtime.now();
    const fresh = this.#cached && now - this.#cached.at < CURRENCY_CACHE_TTL_MS;
    const recentlyFailed = this.#failedAt !== null && now - this.#failedAt < CURRENCY_RETRY_AFTER_FAILURE_MS;
    if (!fresh && !recentlyFailed) {
      try {
        await this.list();
      } catch (error) {
        if (
          !(error instanceof DrawdownApiError || error instanceof DrawdownConnectionError || error instanceof TypeError)
        ) {
          throw error;
        }
      }
    }
    const cached = this.#cached;
    const listed =
      cached && this.runtime.now() - cached.at < CURRENCY_CACHE_TTL_MS ? cached.byCode.get(code) : undefined;
    if (listed && Number.isInteger(listed.decimalPlaces))
      return { decimalPlaces: listed.decimalPlaces, source: 'service' };
    return { decimalPlaces: fallbackDecimalPlaces(code), source: 'fallback' };
  }

  /**
   * Formats a lowest-unit amount for a viewer's `Accept-Language`, with the currency's decimal
   * places from the (cached) list, or the fallback rule when the list is unavailable.
   *
   * @example
   * await drawdown.currencies.formatAmount(totals.grandTotal, transaction.currencyCode, request.headers['accept-language'])
   */
  async formatAmount(amount: string, currencyCode: string, acceptLanguage: string | null | undefined): Promise<string> {
    const { decimalPlaces } = await this.decimalPlaces(currencyCode);
    return formatAmount(amount, currencyCode, acceptLanguage, decimalPlaces);
  }
}
