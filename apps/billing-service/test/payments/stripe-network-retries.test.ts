/**
 * `--stripe-network-retries` / `DRAWDOWN_STRIPE_NETWORK_RETRIES`: how many times the Stripe client
 * sends an unanswered request again (2, the client's own default, unless configured; 0 to 5).
 * That it reaches the client is shown by `stripe-prevent-change.test.ts`, which runs with one
 * retry and counts the requests Stripe received under the attempt's key.
 */
import { describe, expect, it } from 'vitest';
import { resolveServiceConfig } from '../../src/config.js';

describe('the Stripe client’s network retries', () => {
  it('are 2 unless configured; the flag comes before the environment', () => {
    expect(resolveServiceConfig({}, {}).stripeNetworkRetries).toBe(2);
    expect(resolveServiceConfig({}, { DRAWDOWN_STRIPE_NETWORK_RETRIES: '0' }).stripeNetworkRetries).toBe(0);
    expect(
      resolveServiceConfig({ 'stripe-network-retries': '5' }, { DRAWDOWN_STRIPE_NETWORK_RETRIES: '1' })
        .stripeNetworkRetries,
    ).toBe(5);
  });

  it.each(['6', '-1', '1.5', 'two', '', '01'])('refuses %j', (value) => {
    expect(() => resolveServiceConfig({ 'stripe-network-retries': value }, {})).toThrow(
      /--stripe-network-retries must be a whole number from 0 to 5/,
    );
  });
});
