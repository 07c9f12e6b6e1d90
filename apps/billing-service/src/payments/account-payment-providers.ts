/**
 * @module
 * Each account's live payment provider, from its stored settings (ADR 1420): read on every
 * use, so `drawdown accounts payment-provider set` (from any process) applies at once; the
 * client built from the settings is kept until they change.
 */
import type { PaymentProvider, Repositories, Scope } from '@drawdown/billing-core';

export interface AccountProviderDependencies {
  readonly store: Pick<Repositories, 'providerSettings' | 'providerCustomers'>;
  /** The wall clock, in milliseconds. */
  now(): number;
  /** The Stripe client's retries of an unanswered request (`--stripe-network-retries`). */
  readonly networkRetries?: number;
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
    // The Stripe client is loaded with the first account that uses it (a quarter of a second to
    // import), not by every process that composes the services.
    const { StripeProvider } = await import('./stripe-provider.js');
    const provider = new StripeProvider({
      scope,
      settings,
      customers: dependencies.store.providerCustomers,
      now: dependencies.now,
      ...(dependencies.networkRetries === undefined ? {} : { networkRetries: dependencies.networkRetries }),
    });
    built.set(key, { version, provider });
    return provider;
  };
}
