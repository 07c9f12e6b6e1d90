import type { Migration } from './migration.js';

/**
 * Which expiry event a key has had: null, `expiring` (seven days before) or `expired`. The
 * marker makes each notice happen once however many workers run (ADR 1300).
 */
export const apiKeyExpiryNotices: Migration = {
  id: '0050-api-key-expiry-notices',
  statements: () => [
    'alter table api_keys add column expiry_notice text',
    'create index api_keys_by_expiry on api_keys (environment, expires_at) where expires_at is not null and revoked_at is null',
  ],
};
