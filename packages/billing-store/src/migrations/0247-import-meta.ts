import type { Migration } from './migration.js';

/** The catalogue documents that carry `import_meta` on the wire (issue 36). */
const TABLES = ['products', 'prices', 'customers', 'addresses'] as const;

/**
 * Products, prices, customers and addresses stored before they carried `importMeta` get it, null
 * (nothing is imported). The key is put first in the stored text, leaving the rest of the document
 * exactly as it was written (the text `custom_data` sorts by, ADR 1471).
 */
export const importMeta: Migration = {
  id: '0247-import-meta',
  statements: (dialect) => {
    const missing =
      dialect === 'postgres'
        ? `not jsonb_exists(body::jsonb, 'importMeta')`
        : `json_type(body, '$.importMeta') is null`;
    return TABLES.map(
      (table) => `update ${table} set body = '{"importMeta":null,' || substr(body, 2) where ${missing}`,
    );
  },
};
