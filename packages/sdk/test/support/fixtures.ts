/**
 * Builders for SDK tests against a real service: a usage-billed customer (unit, meter, price
 * with an allowance, customer, active subscription), and a way to let drawdowns land.
 */
import type { Drawdown } from '@drawdown/sdk';
import { type BillingHarness, startSandboxSubscription } from '@drawdown/testkit';

let sequence = 0;

/** A name no other test in the file uses. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}_${Date.now().toString(36)}_${sequence}`;
}

export interface UsageSetup {
  readonly unitId: string;
  readonly meterId: string;
  readonly productId: string;
  readonly priceId: string;
  readonly customerId: string;
  readonly subscriptionId: string;
  readonly action: string;
}

/** A customer with an active subscription granting `allowance` of a unit drawn by `action` at `rate`. */
export async function usageSetup(
  drawdown: Drawdown,
  harness: BillingHarness,
  options: { readonly allowance?: string; readonly rate?: string } = {},
): Promise<UsageSetup> {
  const action = unique('call').toLowerCase();
  const unit = await drawdown.usageBalanceUnits.create({ name: 'API credits', unitName: 'credits' });
  const meter = await drawdown.meters.create({
    usageBalanceUnitId: unit.id,
    name: 'API calls',
    action,
    unitName: 'call',
    rate: options.rate ?? '1',
  });
  const product = await drawdown.products.create({ name: 'API plan', taxCategory: 'saas' });
  const price = await drawdown.prices.create({
    productId: product.id,
    description: 'Monthly API plan',
    unitPrice: { amount: '1000', currencyCode: 'USD' },
    billingCycle: { interval: 'month', frequency: 1 },
    allowances: [{ usageBalanceUnitId: unit.id, amount: options.allowance ?? '100' }],
  });
  const customer = await drawdown.customers.create({ email: `${unique('user')}@example.com` });
  const subscriptionId = await startSandboxSubscription(harness, {
    customerId: customer.id,
    items: [{ priceId: price.id, quantity: 1 }],
  });
  return {
    unitId: unit.id,
    meterId: meter.id,
    productId: product.id,
    priceId: price.id,
    customerId: customer.id,
    subscriptionId,
    action,
  };
}

/**
 * Applies every accepted usage event of the account. Moving the sandbox clock first applies what
 * was accepted, so the balance read next is settled. (One second, not zero: the service refuses a
 * zero move now and then as going back, since its clock moves between reading and moving.)
 */
export async function settleUsage(drawdown: Drawdown): Promise<void> {
  await drawdown.sandboxClock.advance({ seconds: 1 });
}

/** The events the service recorded for a customer, straight from its store. */
export async function recordedUsage(harness: BillingHarness, customerId: string) {
  return harness.services.store.usageEvents.listByCustomer(
    { accountId: harness.accountId, environment: 'sandbox' },
    customerId,
  );
}
