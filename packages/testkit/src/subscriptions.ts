/**
 * @module
 * Starts a sandbox subscription the way a completed checkout does, through the core use case,
 * for tests of clients that need one before the service offers a checkout over HTTP.
 */
import { type OperationContext, startSubscription } from '@drawdown/billing-core';
import type { BillingHarness } from './billing-harness.js';

export interface SandboxSubscriptionInput {
  readonly customerId: string;
  readonly items: readonly { readonly priceId: string; readonly quantity: number }[];
  readonly currencyCode?: string;
}

/** Starts an automatically collected subscription in the harness account's sandbox; returns its id. */
export async function startSandboxSubscription(
  harness: BillingHarness,
  input: SandboxSubscriptionInput,
): Promise<string> {
  const { store, ids } = harness.services;
  const account = await store.accounts.findById(harness.accountId);
  if (!account) throw new Error('The harness account is missing.');
  const offset = await store.sandboxClocks.offsetOf(harness.accountId);
  const context: OperationContext = {
    store,
    ids,
    clock: { now: () => Date.now() + offset },
    scope: { accountId: harness.accountId, environment: 'sandbox' },
    account,
  };
  const subscription = await store.transaction((tx) =>
    startSubscription(context, tx, {
      customerId: input.customerId,
      addressId: null,
      currencyCode: input.currencyCode ?? 'USD',
      collectionMode: 'automatic',
      items: input.items,
      transactionId: null,
    }),
  );
  return subscription.id;
}
