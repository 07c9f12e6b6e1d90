/**
 * @module
 * The checkout settings of an account environment (ADR 1412): its default payment link, the
 * page `checkout.url` points at. Null means the checkout page Drawdown serves.
 */
import { BillingError } from '../shared/billing-error.js';
import type { OperationContext } from '../shared/operation-context.js';
import { nowTimestamp } from '../shared/operation-context.js';
import type { CheckoutSettings } from './payment-repositories.js';

export interface CheckoutSettingsView {
  readonly defaultPaymentLink: string | null;
  /** What `checkout.url` starts with: the account's link, else the page Drawdown serves. */
  readonly effectivePaymentLink: string | null;
  readonly updatedAt: string | null;
}

function viewOf(context: OperationContext, settings: CheckoutSettings | undefined): CheckoutSettingsView {
  const own = settings?.defaultPaymentLink ?? null;
  return {
    defaultPaymentLink: own,
    effectivePaymentLink: own ?? context.defaultPaymentLink ?? null,
    updatedAt: settings?.updatedAt ?? null,
  };
}

export async function getCheckoutSettings(context: OperationContext): Promise<CheckoutSettingsView> {
  return viewOf(context, await context.store.checkoutSettings.findById(context.scope, 'checkout'));
}

/** An https URL (or http in the sandbox, for local development), at most 2,048 characters, without a fragment. */
function requireLink(context: OperationContext, link: string): void {
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

/** Sets (or with null, clears) the default payment link. Transactions already given a `checkout.url` keep it. */
export async function updateCheckoutSettings(
  context: OperationContext,
  input: { readonly defaultPaymentLink: string | null },
): Promise<CheckoutSettingsView> {
  if (input.defaultPaymentLink !== null) requireLink(context, input.defaultPaymentLink);
  const settings: CheckoutSettings = {
    id: 'checkout',
    defaultPaymentLink: input.defaultPaymentLink,
    updatedAt: nowTimestamp(context),
  };
  await context.store.transaction(async (tx) => {
    const current = await tx.checkoutSettings.findByIdForUpdate(context.scope, 'checkout');
    if (current) await tx.checkoutSettings.update(context.scope, settings);
    else await tx.checkoutSettings.insert(context.scope, settings);
  });
  return viewOf(context, settings);
}
