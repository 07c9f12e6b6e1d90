/**
 * @module
 * Which payment provider an account's live environment pays through, and its credentials
 * (ADR 1420). The operator sets it with `drawdown accounts payment-provider set`; without one,
 * live keeps recording the payments the operator reports (`POST /transactions/{id}/payments`).
 * Secrets are stored as given (the provider needs them as they are, as webhook endpoint secrets
 * are) and never shown again in full: every read for people is `ProviderSettingsView`.
 *
 * Also here: the provider's records Drawdown keeps beside them (its customer per Drawdown
 * customer, and the notifications already applied), as storage ports.
 */
import { BillingError, type FieldError } from '../shared/billing-error.js';
import type { Scope } from '../shared/scope.js';
import type { ProviderSettings } from './entities.js';
import type { ProviderSettingsRepository } from './repositories.js';

export const PAYMENT_PROVIDER_NAMES = ['stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDER_NAMES)[number];

/** Provider settings as people may see them: secrets shortened to their kind and last four characters. */
export interface ProviderSettingsView {
  readonly accountId: string;
  readonly environment: 'live';
  readonly provider: PaymentProviderName;
  readonly secretKey: string;
  readonly webhookSecret: string;
  /** Public by design (it is sent to every browser), so shown in full. */
  readonly publishableKey: string | null;
  readonly apiBase: string | null;
  /** The path, on the live address, that the provider's webhooks must be sent to. */
  readonly webhookPath: string;
  readonly updatedAt: string;
}

/** The live route that receives an account's provider webhooks. */
export function webhookPathOf(provider: PaymentProviderName, accountId: string): string {
  return `/payment-providers/${provider}/webhooks/${accountId}`;
}

const STRIPE_SECRET_KEY = /^(sk|rk)_(live|test)_[0-9A-Za-z]{8,247}$/;
const STRIPE_WEBHOOK_SECRET = /^whsec_[0-9A-Za-z+/=]{8,250}$/;
const STRIPE_PUBLISHABLE_KEY = /^pk_(live|test)_[0-9A-Za-z]{8,247}$/;

export interface ConfigureProviderInput {
  readonly provider: string;
  readonly secretKey: string | undefined;
  readonly webhookSecret: string | undefined;
  readonly publishableKey?: string | null | undefined;
  readonly apiBase?: string | null | undefined;
}

/** An API base address: http(s), a host and maybe a port, nothing else (the client adds `/v1/…`). */
function normalisedApiBase(value: string, errors: FieldError[]): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    errors.push({ field: 'api_base', message: 'must be an absolute http or https URL' });
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    errors.push({ field: 'api_base', message: 'must use http or https' });
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    errors.push({
      field: 'api_base',
      message: 'must be a scheme, host and port only (no path, query, fragment or credentials)',
    });
  }
  return url.origin;
}

/** Checks and normalises an operator's provider settings; every problem at once. */
export function parseProviderSettings(input: ConfigureProviderInput, at: string): ProviderSettings {
  const errors: FieldError[] = [];
  if (!(PAYMENT_PROVIDER_NAMES as readonly string[]).includes(input.provider)) {
    errors.push({ field: 'provider', message: `must be one of: ${PAYMENT_PROVIDER_NAMES.join(', ')}` });
  }
  if (!input.secretKey || !STRIPE_SECRET_KEY.test(input.secretKey)) {
    errors.push({
      field: 'secret_key',
      message: 'must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_live_…, rk_test_…)',
    });
  }
  if (!input.webhookSecret || !STRIPE_WEBHOOK_SECRET.test(input.webhookSecret)) {
    errors.push({ field: 'webhook_secret', message: 'must be a Stripe webhook signing secret (whsec_…)' });
  }
  if (input.publishableKey && !STRIPE_PUBLISHABLE_KEY.test(input.publishableKey)) {
    errors.push({ field: 'publishable_key', message: 'must be a Stripe publishable key (pk_live_…, pk_test_…)' });
  }
  if (
    input.publishableKey &&
    input.secretKey &&
    /_(live|test)_/.exec(input.publishableKey)?.[1] !== /_(live|test)_/.exec(input.secretKey)?.[1]
  ) {
    errors.push({ field: 'publishable_key', message: 'must be of the same mode (live or test) as the secret key' });
  }
  const apiBase = input.apiBase ? normalisedApiBase(input.apiBase, errors) : null;
  if (errors.length > 0) {
    throw new BillingError(
      'invalid_field',
      `Invalid payment provider settings. ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
      errors,
    );
  }
  return {
    provider: 'stripe',
    secretKey: input.secretKey as string,
    webhookSecret: input.webhookSecret as string,
    publishableKey: input.publishableKey || null,
    apiBase,
    updatedAt: at,
  };
}

/** `sk_live_…wxyz`: the kind of secret and its last four characters, never more. */
export function maskSecret(secret: string): string {
  const kind = /^([a-z]+_(?:live_|test_)?)/.exec(secret)?.[1] ?? '';
  return `${kind}…${secret.slice(-4)}`;
}

export function viewOf(accountId: string, settings: ProviderSettings): ProviderSettingsView {
  return {
    accountId,
    environment: 'live',
    provider: settings.provider,
    secretKey: maskSecret(settings.secretKey),
    webhookSecret: maskSecret(settings.webhookSecret),
    publishableKey: settings.publishableKey ?? null,
    apiBase: settings.apiBase,
    webhookPath: webhookPathOf(settings.provider, accountId),
    updatedAt: settings.updatedAt,
  };
}

/** What the operator's provider commands need: the store, the wall clock, and the account check. */
export interface ProviderSettingsDependencies {
  readonly providerSettings: ProviderSettingsRepository;
  now(): string;
  requireAccount(accountId: string): Promise<unknown>;
  /** The live environment's work still waiting for its provider's answer (the recovery step's list, ADRs 1426 and 1463). */
  inFlightAtProvider(scope: Scope): Promise<InFlightAtProvider>;
}

/** Payment attempts in flight and refunds still processing at the provider: ids of the first few, and how many in all. */
export interface InFlightAtProvider {
  readonly attempts: { readonly ids: readonly string[]; readonly total: number };
  readonly refunds: { readonly ids: readonly string[]; readonly total: number };
}

/** What `payment-provider remove` did, and what it left waiting for a provider no longer configured (`--force`). */
export interface ProviderRemoval {
  readonly removed: boolean;
  readonly leftInFlight: InFlightAtProvider | null;
}

const liveScope = (accountId: string): Scope => ({ accountId, environment: 'live' });

/** `drawdown accounts payment-provider set`: the account's live environment pays through this provider from now on. */
export async function configurePaymentProvider(
  dependencies: ProviderSettingsDependencies,
  accountId: string,
  input: ConfigureProviderInput,
): Promise<ProviderSettingsView> {
  await dependencies.requireAccount(accountId);
  const settings = parseProviderSettings(input, dependencies.now());
  await dependencies.providerSettings.save(liveScope(accountId), settings);
  return viewOf(accountId, settings);
}

/** `drawdown accounts payment-provider show`: the settings with their secrets shortened, or null. */
export async function showPaymentProvider(
  dependencies: ProviderSettingsDependencies,
  accountId: string,
): Promise<ProviderSettingsView | null> {
  await dependencies.requireAccount(accountId);
  const settings = await dependencies.providerSettings.find(liveScope(accountId));
  return settings ? viewOf(accountId, settings) : null;
}

const listed = (kind: string, work: InFlightAtProvider['attempts']): string =>
  `${work.total} ${kind} (${work.ids.join(', ')}${work.total > work.ids.length ? ', …' : ''})`;

/**
 * `drawdown accounts payment-provider remove`: live goes back to reported payments; `removed`
 * false when none was set. Refused with `payment_provider_work_in_flight` while a payment attempt
 * or a refund still waits for the provider's answer: only the provider can say whether it
 * charged or refunded, and without its settings the recovery step cannot ask (ADR 1465).
 * `force` removes anyway (leaked keys), and says what it left waiting.
 */
export async function removePaymentProvider(
  dependencies: ProviderSettingsDependencies,
  accountId: string,
  options: { readonly force?: boolean } = {},
): Promise<ProviderRemoval> {
  await dependencies.requireAccount(accountId);
  const scope = liveScope(accountId);
  if (!(await dependencies.providerSettings.find(scope))) return { removed: false, leftInFlight: null };
  const inFlight = await dependencies.inFlightAtProvider(scope);
  const waiting = inFlight.attempts.total + inFlight.refunds.total > 0;
  if (waiting && !options.force) {
    const parts = [
      ...(inFlight.attempts.total > 0 ? [listed('payment attempt(s)', inFlight.attempts)] : []),
      ...(inFlight.refunds.total > 0 ? [listed('refund(s)', inFlight.refunds)] : []),
    ];
    throw new BillingError(
      'payment_provider_work_in_flight',
      `Account ${accountId} has ${parts.join(' and ')} waiting for the payment provider's answer; nothing was removed. The payment recovery step settles them within minutes; remove the settings after that, or with --force to leave them unsettled until settings are set again.`,
    );
  }
  const removed = await dependencies.providerSettings.remove(scope);
  return { removed, leftInFlight: waiting ? inFlight : null };
}
