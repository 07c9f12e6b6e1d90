import type { Migration } from './migration.js';
import { documentTable } from './migration.js';

/**
 * Refunds of provider payments (ADR 1463): one per refund adjustment of a payment a provider
 * took, keyed by the adjustment's id; the payment it refunds and its status are promoted, and the
 * refunds still waiting for the provider are indexed for the recovery step's cross-account lookup.
 */
export const providerRefunds: Migration = {
  id: '0230-provider-refunds',
  statements: () => [
    documentTable('provider_refunds', ['transaction_id', 'status', 'provider_payment_ref']),
    'create index provider_refunds_by_payment on provider_refunds (account_id, environment, provider_payment_ref, id)',
    "create index provider_refunds_processing on provider_refunds (environment, account_id) where status = 'processing'",
  ],
};
