import { describe, expect, it } from 'vitest';
import { BillingError } from '../shared/billing-error.js';
import { maskSecret, parseProviderSettings, viewOf } from './provider-settings.js';

const AT = '2026-11-23T12:00:00.000Z';
const good = { provider: 'stripe', secretKey: 'sk_live_abcdefgh1234', webhookSecret: 'whsec_abcdefgh5678' };

function refusal(input: Parameters<typeof parseProviderSettings>[0]): BillingError {
  try {
    parseProviderSettings(input, AT);
  } catch (error) {
    if (error instanceof BillingError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('payment provider settings', () => {
  it('keeps the secrets as given and an API base as scheme, host and port', () => {
    expect(parseProviderSettings({ ...good, apiBase: 'http://127.0.0.1:12111/' }, AT)).toEqual({
      provider: 'stripe',
      secretKey: good.secretKey,
      webhookSecret: good.webhookSecret,
      publishableKey: null,
      apiBase: 'http://127.0.0.1:12111',
      updatedAt: AT,
    });
    expect(parseProviderSettings({ ...good, apiBase: 'https://stripe-proxy.internal' }, AT).apiBase).toBe(
      'https://stripe-proxy.internal',
    );
    expect(parseProviderSettings({ ...good, secretKey: 'rk_test_restricted0001' }, AT).secretKey).toBe(
      'rk_test_restricted0001',
    );
  });

  it('names every bad field at once, never the secret itself', () => {
    const error = refusal({
      provider: 'adyen',
      secretKey: 'pk_live_publishable0001',
      webhookSecret: 'not-a-secret',
      apiBase: 'https://user:pass@proxy.example/v1?x=1',
    });
    expect(error.code).toBe('invalid_field');
    expect(error.fieldErrors.map((field) => field.field)).toEqual([
      'provider',
      'secret_key',
      'webhook_secret',
      'api_base',
    ]);
    expect(error.detail).not.toContain('pk_live_publishable0001');
    expect(refusal({ ...good, secretKey: undefined }).fieldErrors.map((f) => f.field)).toEqual(['secret_key']);
    expect(refusal({ ...good, apiBase: 'ftp://proxy' }).fieldErrors.map((f) => f.field)).toEqual(['api_base']);
    expect(refusal({ ...good, apiBase: 'not a url' }).fieldErrors.map((f) => f.field)).toEqual(['api_base']);
  });

  it('takes a publishable key of the secret key’s mode, and shows it in full (it is public)', () => {
    const testKey = 'pk_live_publishable0001';
    expect(parseProviderSettings({ ...good, publishableKey: testKey }, AT).publishableKey).toBe(testKey);
    expect(viewOf('acc_1', parseProviderSettings({ ...good, publishableKey: testKey }, AT)).publishableKey).toBe(
      testKey,
    );
    expect(refusal({ ...good, publishableKey: 'sk_live_notpublishable1' }).fieldErrors.map((f) => f.field)).toEqual([
      'publishable_key',
    ]);
    expect(refusal({ ...good, publishableKey: 'pk_test_publishable0001' }).fieldErrors).toEqual([
      { field: 'publishable_key', message: 'must be of the same mode (live or test) as the secret key' },
    ]);
  });

  it('shows secrets only as their kind and last four characters', () => {
    expect(maskSecret('sk_live_abcdefgh1234')).toBe('sk_live_…1234');
    expect(maskSecret('rk_test_abcdefgh1234')).toBe('rk_test_…1234');
    expect(maskSecret('whsec_abcdefgh5678')).toBe('whsec_…5678');
    const view = viewOf('acc_1', parseProviderSettings(good, AT));
    expect(JSON.stringify(view)).not.toContain('abcdefgh');
    expect(view.webhookPath).toBe('/payment-providers/stripe/webhooks/acc_1');
  });
});
