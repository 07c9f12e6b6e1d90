/**
 * @module
 * Each account's live payment provider, from its stored settings (ADR 1420): read on every
 * use, so `drawdown accounts payment-provider set` (from any process) applies at once; the
 * client built from the settings is kept until they change.
 */
import type { PaymentProvider, Repositories, Scope } from '@drawdown/billing-core';
import { StripeProvider } from './stripe-provider.js';

export interface AccountProviderDependencies {
  readonly store: Pick<Repositories, 'providerSettings' | 'providerCustomers'>;
  /** The wall clock, in milliseconds. */
  now(): number;
  /** The Stripe client's own retries (2 when absent); a test-only setting (ADR 1463), never a deployment's. */
  readonly stripeMaxNetworkRetries?: number | undefined;
}

export function accountPaymentProviders(
  dependencies: AccountProviderDependencies,
): (scope: Scope) => Promise<PaymentProvider | undefined> {
  const built = new Map<string, { readonly version: string; readonly provider: PaymentProvider }>();
  return async (scope) => {
    const key = `${scope.accountId}/${scope.environment}`;
    const settings = await dependencies.store.providerSettings.find(scope);
    if (!settings) {
      built.delete(key);
      return undefined;
    }
    const version = `${settings.updatedAt}/${settings.secretKey}/${settings.webhookSecret}/${settings.publishableKey ?? ''}/${settings.apiBase ?? ''}`;
    const known = built.get(key);
    if (known?.version === version) return known.provider;
    const provider = new StripeProvider({
      scope,
      settings,
      customers: dependencies.store.providerCustomers,
      now: dependencies.now,
      maxNetworkRetries: dependencies.stripeMaxNetworkRetries,
    });
    built.set(key, { version, provider });
    return provider;
  };
}
