/**
 * @module
 * Usage balances and usage events (early access).
 */
import type { PageParams } from './shared.js';

/** One part of a balance. The breakdown's `subscription` amount always equals `total`. */
export interface BalancePart {
  /** Decimal string. */
  readonly total: string;
  readonly breakdown?: Readonly<Record<string, string>>;
}

/** What a customer has used and has left of one unit (`ubl_`). Allowance = used + remaining. */
/** One billing period of a usage balance (Drawdown's own). Quantities are exact decimal strings. */
export interface UsagePeriod {
  readonly startsAt: string;
  /** Null for the period still running. */
  readonly endsAt: string | null;
  readonly allowance: string;
  /** Everything drawn down in the period, within the allowance and past it. */
  readonly used: string;
  readonly overage: string;
}

export interface UsageBalance {
  readonly id: string;
  readonly customerId: string;
  readonly usageBalanceUnitId: string;
  readonly balance: {
    /** Excludes overage. */
    readonly used: BalancePart;
    /** Never negative. */
    readonly remaining: BalancePart;
    /** Usage beyond the allowance: recorded, not billed. */
    readonly overage: BalancePart & { readonly startedAt?: string | null };
  };
  readonly createdAt?: string;
  readonly updatedAt?: string;
}

export interface ListUsageBalancesParams extends PageParams {
  readonly usageBalanceUnitId?: readonly string[];
}

/** One usage event as the caller reports it. */
export interface UsageEventInput {
  /**
   * The caller's identifier of this usage. With `occurredAt` (per customer and action) it makes a
   * resend harmless. Generated (a random UUID) when left out.
   */
  readonly eventKey?: string;
  /** `ctm_` id. */
  readonly customerId: string;
  /** Names a meter's action; an action without a meter is accepted and draws nothing. */
  readonly action: string;
  /**
   * Greater than zero, at most 9 decimal places: a decimal string, a bigint, or an integer
   * number (fractional numbers are refused, since `0.1 + 0.2` is not `0.3`).
   */
  readonly quantity: string | bigint | number;
  /** RFC 3339 UTC timestamp or a Date; now when left out. */
  readonly occurredAt?: string | Date;
}

/** A usage event exactly as it is (and will be re-)sent: key and timestamp fixed. */
export interface UsageEvent {
  readonly eventKey: string;
  readonly customerId: string;
  readonly action: string;
  readonly quantity: string;
  readonly occurredAt: string;
}

/** The service's verdict on one event. */
export interface UsageEventResult {
  readonly eventKey: string;
  readonly status: 'accepted' | 'rejected';
  readonly error?: { readonly code: string; readonly detail?: string };
}
