/**
 * @module
 * The checkout settings of an account environment (ADR 1412): its default payment link, the
 * page `checkout.url` points at (null means the checkout page Drawdown serves), and what ends a
 * payment recovery that recovered nothing (ADR 1460: the subscription is canceled, by default, or paused).
 */
import { BillingError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { CheckoutSettings, DunningExhaustedAction } from '../transactions/entities.js';
import type { PaymentLinkPorts } from '../transactions/transaction-context.js';
import type { PaymentSlice } from './repositories.js';

export interface CheckoutSettingsView {
  readonly defaultPaymentLink: string | null;
  /** What `checkout.url` starts with: the account's link, else the page Drawdown serves. */
  readonly effectivePaymentLink: string | null;
  readonly dunningExhaustedAction: DunningExhaustedAction;
  /** Where the checkout's finished page leads back to (ADR 1112); a link's own `return_url` must share its origin. */
  readonly returnUrl: string | null;
  readonly updatedAt: string | null;
}

/** Without a setting, a subscription whose payment was not recovered is canceled, as the public API does by default. */
export const DEFAULT_DUNNING_EXHAUSTED_ACTION: DunningExhaustedAction = 'subscription_canceled';

function viewOf(
  context: Context<PaymentSlice> & PaymentLinkPorts,
  settings: CheckoutSettings | undefined,
): CheckoutSettingsView {
  const own = settings?.defaultPaymentLink ?? null;
  return {
    defaultPaymentLink: own,
    effectivePaymentLink: own ?? context.defaultPaymentLink ?? null,
    dunningExhaustedAction: settings?.dunningExhaustedAction ?? DEFAULT_DUNNING_EXHAUSTED_ACTION,
    returnUrl: settings?.returnUrl ?? null,
    updatedAt: settings?.updatedAt ?? null,
  };
}

export async function getCheckoutSettings(context: Context<PaymentSlice>): Promise<CheckoutSettingsView> {
  return viewOf(context, await context.store.checkoutSettings.findById(context.scope, 'checkout'));
}

/** An https URL (or http in the sandbox, for local development), at most 2,048 characters, without a fragment. */
function requireLink(context: Context<PaymentSlice>, link: string, field: string): void {
  const pattern = context.scope.environment === 'sandbox' ? /^https?:\/\/[^\s#]+$/ : /^https:\/\/[^\s#]+$/;
  if (link.length > 2048 || !pattern.test(link) || !URL.canParse(link)) {
    throw BillingError.invalidField(
      field,
      context.scope.environment === 'sandbox'
        ? 'must be an http or https URL without a fragment, at most 2048 characters'
        : 'must be an https URL without a fragment, at most 2048 characters',
    );
  }
}

/**
 * Sets (or with null, clears) the default payment link, and sets the dunning exhausted action;
 * a field left out keeps its value, and a body naming neither is refused (`request_body_empty`).
 * Transactions already given a `checkout.url` keep it.
 */
export async function updateCheckoutSettings(
  context: Context<PaymentSlice>,
  input: {
    readonly defaultPaymentLink?: string | null | undefined;
    readonly dunningExhaustedAction?: DunningExhaustedAction | undefined;
    readonly returnUrl?: string | null | undefined;
  },
): Promise<CheckoutSettingsView> {
  // An empty body would change only `updated_at`: refused, not accepted and ignored.
  if (
    input.defaultPaymentLink === undefined &&
    input.dunningExhaustedAction === undefined &&
    input.returnUrl === undefined
  ) {
    throw new BillingError(
      'request_body_empty',
      'Name at least one setting to change: default_payment_link, dunning_exhausted_action or return_url. Nothing changed.',
    );
  }
  if (input.defaultPaymentLink !== undefined && input.defaultPaymentLink !== null) {
    requireLink(context, input.defaultPaymentLink, 'default_payment_link');
  }
  if (input.returnUrl !== undefined && input.returnUrl !== null) requireLink(context, input.returnUrl, 'return_url');
  const settings = await context.store.transaction(async (tx) => {
    const current = await tx.checkoutSettings.findByIdForUpdate(context.scope, 'checkout');
    const next: CheckoutSettings = {
      id: 'checkout',
      defaultPaymentLink:
        input.defaultPaymentLink === undefined ? (current?.defaultPaymentLink ?? null) : input.defaultPaymentLink,
      dunningExhaustedAction:
        input.dunningExhaustedAction ?? current?.dunningExhaustedAction ?? DEFAULT_DUNNING_EXHAUSTED_ACTION,
      returnUrl: input.returnUrl === undefined ? (current?.returnUrl ?? null) : input.returnUrl,
      updatedAt: nowTimestamp(context),
    };
    if (current) await tx.checkoutSettings.update(context.scope, next);
    else await tx.checkoutSettings.insert(context.scope, next);
    return next;
  });
  return viewOf(context, settings);
}

/**
 * Where a checkout leads back to when it is finished (ADR 1112): the link's own `return_url` when
 * it is an http(s) address on the same origin as the account's `return_url` setting (so nobody
 * can make the page a redirector to another site), else the setting itself; none without a
 * setting. A link's address that is not allowed is refused (`checkout_return_url_not_allowed`).
 */
export function checkoutReturnUrl(setting: string | null, requested: string | undefined): string | null {
  if (requested === undefined) return setting;
  const refuse = (why: string) =>
    new BillingError('checkout_return_url_not_allowed', `This checkout link's return_url ${why}.`, [
      { field: 'return_url', message: why },
    ]);
  if (setting === null) throw refuse('is not allowed: the account sets no return_url, so no origin is allowed');
  if (requested.length > 2048 || !URL.canParse(requested)) throw refuse('is not a URL of at most 2048 characters');
  const url = new URL(requested);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('is not an http or https address');
  if (url.username !== '' || url.password !== '') throw refuse('must not carry credentials');
  if (url.origin !== new URL(setting).origin) {
    throw refuse(`must be on ${new URL(setting).origin}, the origin of the account's return_url`);
  }
  return url.href;
}
