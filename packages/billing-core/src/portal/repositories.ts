/**
 * @module
 * The portal owns no repository: its sessions are signed tokens (ADR 1440).
 */
import type { CatalogueRepositories } from '../catalogue/repositories.js';
import type { SubscriptionRepositories } from '../subscriptions/repositories.js';

/** What portal sessions use: the customer they are for and that customer's subscriptions. */
export interface PortalSlice
  extends Pick<CatalogueRepositories, 'customers'>,
    Pick<SubscriptionRepositories, 'subscriptions'> {}
