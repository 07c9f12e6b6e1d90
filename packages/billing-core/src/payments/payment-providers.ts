/**
 * @module
 * Which provider serves which environment (ADR 1410): the sandbox environment always pays
 * through the sandbox provider; live through the provider the operator configured, or none.
 */
import type { PaymentProvider, PaymentProviders } from './payment-provider.js';

export interface ConfiguredProviders {
  /** The sandbox environment's provider. */
  readonly sandbox?: PaymentProvider | undefined;
  /** The live environment's provider; without one, live payments are reported (`POST /transactions/{id}/payments`). */
  readonly live?: PaymentProvider | undefined;
}

export function paymentProvidersOf(configured: ConfiguredProviders): PaymentProviders {
  const all = [configured.sandbox, configured.live].filter(
    (provider): provider is PaymentProvider => provider !== undefined,
  );
  return {
    providerFor: (scope) => (scope.environment === 'sandbox' ? configured.sandbox : configured.live),
    byName: (name) => all.find((provider) => provider.name === name),
  };
}
