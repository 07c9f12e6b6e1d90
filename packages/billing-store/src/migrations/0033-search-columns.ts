import type { Migration } from './migration.js';

/**
 * Customer `search` matches ids too, and addresses get a `search` column (ADR 1101). Existing
 * rows are rewritten from their stored documents, in each engine's JSON dialect.
 */
export const searchColumns: Migration = {
  id: '0033-search-columns',
  statements: (dialect) => {
    const field = (name: string) =>
      dialect === 'postgres' ? `coalesce(body::json->>'${name}', '')` : `coalesce(json_extract(body, '$.${name}'), '')`;
    const newline = dialect === 'postgres' ? 'chr(10)' : 'char(10)';
    const joined = (parts: string[]) => parts.join(` || ${newline} || `);
    return [
      `update customers set search = lower(${joined(['id', field('name'), field('email')])})`,
      'alter table addresses add column search text',
      `update addresses set search = lower(${joined([
        'id',
        field('description'),
        field('firstLine'),
        field('secondLine'),
        field('city'),
        field('postalCode'),
        field('region'),
        field('countryCode'),
      ])})`,
    ];
  },
};
