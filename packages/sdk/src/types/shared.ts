/**
 * @module
 * Building blocks shared by the entities. Amounts are strings in the currency's lowest unit and
 * quantities and rates are decimal strings: the SDK never turns them into numbers.
 */

/** The caller's own data, stored and returned with its keys untouched. */
export type CustomData = Readonly<Record<string, unknown>>;

export type CatalogueStatus = 'active' | 'archived';

export type Interval = 'day' | 'week' | 'month' | 'year';

/** A recurring period, such as every 1 month. */
export interface Duration {
  readonly interval: Interval;
  readonly frequency: number;
}

export interface Money {
  /** Integer string in the currency's lowest unit (cents for USD, yen for JPY). */
  readonly amount: string;
  readonly currencyCode: string;
}

/** A period with a start and an end, RFC 3339 timestamps. */
export interface TimePeriod {
  readonly startsAt: string;
  readonly endsAt: string;
}

/** Where a list starts and how it is ordered; every paged list accepts these. */
export interface PageParams {
  /** Cursor: the id of the last item of the previous page. */
  readonly after?: string;
  readonly perPage?: number;
  /** `id[ASC]` or `id[DESC]` (the default). */
  readonly orderBy?: `${string}[ASC]` | `${string}[DESC]`;
}
