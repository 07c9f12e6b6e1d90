/**
 * @module
 * Which provider serves which environment (ADR 1410): the sandbox environment always pays
 * through the sandbox provider; live through the provider the operator configured, or none.
 */
import type { Scope } from '../shared/scope.js';
import type { PaymentProvider, PaymentProviders } from './payment-provider.js';

export interface ConfiguredProviders {
  /** The sandbox environment's provider. */
  readonly sandbox?: PaymentProvider | undefined;
  /**
   * The live environment's provider: one for every account, or one per account (its configured
   * provider, ADR 1420). Without one, live payments are reported (`POST /transactions/{id}/payments`).
   */
  readonly live?: PaymentProvider | ((scope: Scope) => Promise<PaymentProvider | undefined>) | undefined;
}

export function paymentProvidersOf(configured: ConfiguredProviders): PaymentProviders {
  const { live } = configured;
  const all = [configured.sandbox, typeof live === 'function' ? undefined : live].filter(
    (provider): provider is PaymentProvider => provider !== undefined,
  );
  return {
    providerFor: async (scope) => {
      if (scope.environment === 'sandbox') return configured.sandbox;
      return typeof live === 'function' ? live(scope) : live;
    },
    byName: (name) => all.find((provider) => provider.name === name),
    providerNamed: async (scope, name) => {
      const serving =
        scope.environment === 'sandbox' ? configured.sandbox : typeof live === 'function' ? await live(scope) : live;
      return serving?.name === name ? serving : all.find((provider) => provider.name === name);
    },
  };
}
