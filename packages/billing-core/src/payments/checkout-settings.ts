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
    updatedAt: settings?.updatedAt ?? null,
  };
}

export async function getCheckoutSettings(context: Context<PaymentSlice>): Promise<CheckoutSettingsView> {
  return viewOf(context, await context.store.checkoutSettings.findById(context.scope, 'checkout'));
}

/** An https URL (or http in the sandbox, for local development), at most 2,048 characters, without a fragment. */
function requireLink(context: Context<PaymentSlice>, link: string): void {
  const pattern = context.scope.environment === 'sandbox' ? /^https?:\/\/[^\s#]+$/ : /^https:\/\/[^\s#]+$/;
  if (link.length > 2048 || !pattern.test(link)) {
    throw BillingError.invalidField(
      'default_payment_link',
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
  },
): Promise<CheckoutSettingsView> {
  // An empty body would change only `updated_at`: refused, not accepted and ignored.
  if (input.defaultPaymentLink === undefined && input.dunningExhaustedAction === undefined) {
    throw new BillingError(
      'request_body_empty',
      'Name at least one setting to change: default_payment_link or dunning_exhausted_action. Nothing changed.',
    );
  }
  if (input.defaultPaymentLink !== undefined && input.defaultPaymentLink !== null) {
    requireLink(context, input.defaultPaymentLink);
  }
  const settings = await context.store.transaction(async (tx) => {
    const current = await tx.checkoutSettings.findByIdForUpdate(context.scope, 'checkout');
    const next: CheckoutSettings = {
      id: 'checkout',
      defaultPaymentLink:
        input.defaultPaymentLink === undefined ? (current?.defaultPaymentLink ?? null) : input.defaultPaymentLink,
      dunningExhaustedAction:
        input.dunningExhaustedAction ?? current?.dunningExhaustedAction ?? DEFAULT_DUNNING_EXHAUSTED_ACTION,
      updatedAt: nowTimestamp(context),
    };
    if (current) await tx.checkoutSettings.update(context.scope, next);
    else await tx.checkoutSettings.insert(context.scope, next);
    return next;
  });
  return viewOf(context, settings);
}
