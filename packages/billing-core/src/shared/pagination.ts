/**
 * @module
 * Cursor pagination as storage sees it: a page of entities after an id, in id order.
 */

export type SortDirection = 'asc' | 'desc';

/** A value a list filter compares a promoted column with. */
export type FilterCondition =
  | { readonly op: 'in'; readonly values: readonly string[] }
  | { readonly op: 'eq'; readonly value: string | boolean | null }
  | { readonly op: 'lt' | 'lte' | 'gt' | 'gte'; readonly value: string }
  | { readonly op: 'contains'; readonly value: string };

export type ListFilter<Column extends string> = Partial<Record<Column, readonly FilterCondition[]>>;

export interface ListQuery<Column extends string> {
  readonly filter: ListFilter<Column>;
  /** When set, an entity must also match at least one of these filters (none matches nothing). */
  readonly anyOf?: readonly ListFilter<Column>[] | undefined;
  /** Return entities strictly after this id in the sort direction. */
  readonly after?: string | undefined;
  readonly perPage: number;
  readonly direction: SortDirection;
  /**
   * A documented `order_by` field other than `id` (its public name, such as `unit_price.amount`),
   * the store ordering by that field and then by id, the `after` cursor staying an id. Absent: id order.
   */
  readonly sort?: string | undefined;
  /**
   * False skips counting the matches (`estimatedTotal` is then 0): a walk through every page,
   * such as a report, needs no count, and a capped count per page would cost it dearly.
   */
  readonly countTotal?: boolean | undefined;
}

export interface Page<Entity> {
  readonly items: readonly Entity[];
  readonly hasMore: boolean;
  /** Exact up to `ESTIMATED_TOTAL_CAP`; `ESTIMATED_TOTAL_CAP + 1` above it. */
  readonly estimatedTotal: number;
}

export const ESTIMATED_TOTAL_CAP = 100_000;
