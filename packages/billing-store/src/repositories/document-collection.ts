/**
 * @module
 * One implementation of the core's `Collection` port for every document table: the entity
 * is stored whole as JSON, and the columns lists filter on are promoted beside it.
 */
import {
  type Collection,
  DuplicateKeyError,
  ESTIMATED_TOTAL_CAP,
  type FilterCondition,
  type ListQuery,
  type Page,
  type Scope,
} from '@drawdown/billing-core';
import { type Dialect, forUpdate, type SqlExecutor, type SqlValue, UniqueViolation } from '../sql/sql-database.js';

/**
 * A documented `order_by` field, read out of the stored body: `path` is the entity's own
 * (camelCase) field path; `text` compares bytes (the same on both engines), `integer` compares a
 * non-negative integer (a JSON number or an integer string such as an amount) by value.
 */
export interface SortKeySpec {
  readonly path: readonly string[];
  readonly kind: 'text' | 'integer';
}

export interface DocumentTableSpec<Entity, Column extends string> {
  readonly table: string;
  /** How to read each promoted column out of an entity (`id` is always promoted). */
  readonly columns: { readonly [Name in Exclude<Column, 'id'>]: (entity: Entity) => string | null };
  /** The `order_by` fields other than `id` a list may name, by their public name (`ListQuery.sort`). */
  readonly sortKeys?: Readonly<Record<string, SortKeySpec>>;
}

/** Digits an `integer` sort key is padded to: more than any amount or quantity holds. */
const INTEGER_KEY_WIDTH = 40;

/**
 * The SQL of a sort key over the unqualified `body` column (so it reads the anchor row inside the
 * cursor's subquery). Never null (absent sorts first ascending, on both engines) and compared
 * bytewise on both engines, so a page boundary is the same wherever the rows live. The path
 * comes from a spec, never from input. PostgreSQL reads `json`, not `jsonb`, so an object such as
 * `custom_data` compares as the text that was stored, as SQLite's `json_extract` returns it.
 */
export function sortKeyExpression(dialect: Dialect, key: SortKeySpec): string {
  const raw =
    dialect === 'postgres'
      ? `(body::json #>> '{${key.path.join(',')}}')`
      : `json_extract(body, '$.${key.path.join('.')}')`;
  const padded =
    key.kind === 'text'
      ? raw
      : dialect === 'postgres'
        ? `lpad(${raw}, ${INTEGER_KEY_WIDTH}, '0')`
        : `substr('${'0'.repeat(INTEGER_KEY_WIDTH)}' || ${raw}, -${INTEGER_KEY_WIDTH})`;
  return dialect === 'postgres' ? `(coalesce(${padded}, '') collate "C")` : `coalesce(${padded}, '')`;
}

/** Builds `column op ?` clauses; column names come from specs, never from input. */
export function filterClauses(filter: Partial<Record<string, readonly FilterCondition[]>>): {
  sql: string[];
  params: SqlValue[];
} {
  const sql: string[] = [];
  const params: SqlValue[] = [];
  for (const [column, conditions] of Object.entries(filter)) {
    for (const condition of conditions ?? []) {
      switch (condition.op) {
        case 'in':
          if (condition.values.length === 0) {
            sql.push('1 = 0');
          } else {
            sql.push(`${column} in (${condition.values.map(() => '?').join(', ')})`);
            params.push(...condition.values);
          }
          break;
        case 'eq':
          if (condition.value === null) {
            sql.push(`${column} is null`);
          } else {
            sql.push(`${column} = ?`);
            params.push(String(condition.value));
          }
          break;
        case 'contains':
          sql.push(`${column} like ? escape '\\'`);
          params.push(`%${condition.value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`);
          break;
        default: {
          const operator = { lt: '<', lte: '<=', gt: '>', gte: '>=' }[condition.op];
          sql.push(`${column} ${operator} ?`);
          params.push(condition.value);
        }
      }
    }
  }
  return { sql, params };
}

/** `filter`'s clauses, and when `anyOf` is set, one clause matching any of its alternatives. */
export function queryClauses(query: Pick<ListQuery<string>, 'filter' | 'anyOf'>): {
  sql: string[];
  params: SqlValue[];
} {
  const { sql, params } = filterClauses(query.filter);
  if (query.anyOf !== undefined) {
    const alternatives = query.anyOf.map((alternative) => filterClauses(alternative));
    sql.push(
      alternatives.length === 0
        ? '1 = 0'
        : `(${alternatives.map((alternative) => `(${alternative.sql.join(' and ') || '1 = 1'})`).join(' or ')})`,
    );
    for (const alternative of alternatives) params.push(...alternative.params);
  }
  return { sql, params };
}

/**
 * Keyset paging, the one way every scoped list reads a page: rows of the account and environment
 * matching `conditions`, in id order after the cursor (or, given `sortKey`, in (key, id) order
 * after the cursor row's own key and id), one more than the page to learn whether more follow,
 * and a count of all matches capped at ESTIMATED_TOTAL_CAP (skipped when the query asks for no
 * count).
 */
export async function scopedRowsPage<Row extends Record<string, unknown>>(
  executor: SqlExecutor,
  table: string,
  columns: string,
  scope: Scope,
  conditions: { readonly sql: readonly string[]; readonly params: readonly SqlValue[] },
  query: ListQuery<string>,
  sortKey?: string,
): Promise<Page<Row>> {
  const where = ['account_id = ?', 'environment = ?', ...conditions.sql];
  const scopeParams: SqlValue[] = [scope.accountId, scope.environment, ...conditions.params];
  const pageWhere = [...where];
  const pageParams = [...scopeParams];
  const operator = query.direction === 'desc' ? '<' : '>';
  if (query.after !== undefined && sortKey === undefined) {
    pageWhere.push(`id ${operator} ?`);
    pageParams.push(query.after);
  }
  if (query.after !== undefined && sortKey !== undefined) {
    // The cursor row's key is read in the same statement; ties are broken by id.
    pageWhere.push(
      `(${sortKey}, id) ${operator} ((select ${sortKey} from ${table} anchor where anchor.account_id = ? and anchor.environment = ? and anchor.id = ?), ?)`,
    );
    pageParams.push(scope.accountId, scope.environment, query.after, query.after);
  }
  const order =
    sortKey === undefined ? `id ${query.direction}` : `${sortKey} ${query.direction}, id ${query.direction}`;
  const rows = await executor.all<Row>(
    `select ${columns} from ${table} where ${pageWhere.join(' and ')} order by ${order} limit ?`,
    [...pageParams, query.perPage + 1],
  );
  // Counting stops past the cap, so a huge table costs a bounded index scan, not a full count.
  const counted =
    query.countTotal === false
      ? undefined
      : await executor.get<{ total: number | string }>(
          `select count(*) as total from (select 1 from ${table} where ${where.join(' and ')} limit ?) capped`,
          [...scopeParams, ESTIMATED_TOTAL_CAP + 1],
        );
  return {
    items: rows.slice(0, query.perPage),
    hasMore: rows.length > query.perPage,
    estimatedTotal: Number(counted?.total ?? 0),
  };
}

/** Reads one page of a document table in id order, plus whether more follow and a capped count of all matches. */
export async function listPage<Entity>(
  executor: SqlExecutor,
  table: string,
  scope: Scope,
  query: ListQuery<string>,
  decode: (body: string) => Entity,
  sortKeys: Readonly<Record<string, SortKeySpec>> = {},
): Promise<Page<Entity>> {
  let sortKey: string | undefined;
  if (query.sort !== undefined) {
    const key = Object.hasOwn(sortKeys, query.sort) ? sortKeys[query.sort] : undefined;
    // The route admits only the fields its list documents; any other is a programming error.
    if (key === undefined) throw new Error(`${table} cannot be ordered by ${query.sort}`);
    sortKey = sortKeyExpression(executor.dialect, key);
  }
  const page = await scopedRowsPage<{ body: string }>(
    executor,
    table,
    'body',
    scope,
    queryClauses(query),
    query,
    sortKey,
  );
  return { ...page, items: page.items.map((row) => decode(row.body)) };
}

export class DocumentCollection<Entity extends { readonly id: string }, Column extends string>
  implements Collection<Entity, Column>
{
  private readonly columnNames: readonly string[];

  constructor(
    private readonly executor: SqlExecutor,
    private readonly spec: DocumentTableSpec<Entity, Column>,
  ) {
    this.columnNames = Object.keys(spec.columns);
  }

  async insert(scope: Scope, entity: Entity): Promise<void> {
    const columns = ['account_id', 'environment', 'id', ...this.columnNames, 'body'];
    await this.write(
      `insert into ${this.spec.table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      [scope.accountId, scope.environment, entity.id, ...this.promoted(entity), JSON.stringify(entity)],
    );
  }

  async update(scope: Scope, entity: Entity): Promise<void> {
    const assignments = [...this.columnNames, 'body'].map((column) => `${column} = ?`).join(', ');
    await this.write(
      `update ${this.spec.table} set ${assignments} where account_id = ? and environment = ? and id = ?`,
      [...this.promoted(entity), JSON.stringify(entity), scope.accountId, scope.environment, entity.id],
    );
  }

  findById(scope: Scope, id: string): Promise<Entity | undefined> {
    return this.find(scope, id, '');
  }

  findByIdForUpdate(scope: Scope, id: string): Promise<Entity | undefined> {
    return this.find(scope, id, forUpdate(this.executor.dialect));
  }

  list(scope: Scope, query: ListQuery<Column>): Promise<Page<Entity>> {
    return listPage(
      this.executor,
      this.spec.table,
      scope,
      query,
      (body) => JSON.parse(body) as Entity,
      this.spec.sortKeys,
    );
  }

  private async find(scope: Scope, id: string, lock: string): Promise<Entity | undefined> {
    const row = await this.executor.get<{ body: string }>(
      `select body from ${this.spec.table} where account_id = ? and environment = ? and id = ?${lock}`,
      [scope.accountId, scope.environment, id],
    );
    return row ? (JSON.parse(row.body) as Entity) : undefined;
  }

  private promoted(entity: Entity): SqlValue[] {
    const readers = this.spec.columns as Record<string, (entity: Entity) => string | null>;
    return this.columnNames.map((column) => readers[column]?.(entity) ?? null);
  }

  private async write(sql: string, params: SqlValue[]): Promise<void> {
    try {
      await this.executor.run(sql, params);
    } catch (error) {
      if (error instanceof UniqueViolation) throw new DuplicateKeyError(error.message);
      throw error;
    }
  }
}
