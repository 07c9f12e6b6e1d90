/**
 * `GET /ips` (issue 36, ADR 1476): the IPv4 CIDRs webhooks come from, as the operator set them with
 * `--webhook-source-ips`, in the public API's shape (`data.ipv4_cidrs`), on both environments and
 * without a key; an empty list when unset. Bad values are refused when the service is configured.
 * No storage is involved, so one engine is enough.
 */
import { type BillingHarness, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ipv4Cidrs } from '../../src/config.js';

describe('GET /ips', () => {
  let configured: BillingHarness;
  let unset: BillingHarness;

  beforeAll(async () => {
    [configured, unset] = await Promise.all([
      startBillingHarness({ webhookSourceIps: '203.0.113.7, 198.51.100.0/24,203.0.113.7/32' }),
      startBillingHarness(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([configured?.close(), unset?.close()]);
  });

  it('lists the configured CIDRs in the documented shape, in both environments, with or without a key', async () => {
    for (const [base, key] of [
      [configured.sandboxUrl, configured.sandboxKey],
      [configured.liveUrl, configured.liveKey],
    ] as const) {
      for (const headers of [{}, { Authorization: `Bearer ${key}` }]) {
        const response = await fetch(`${base}/ips`, { headers });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { data: unknown; meta: { request_id: string } };
        expect(body.data).toEqual({ ipv4_cidrs: ['203.0.113.7/32', '198.51.100.0/24'] });
        expect(body.meta.request_id).toMatch(/.+/);
      }
    }
  });

  it('answers an empty list when the operator set none', async () => {
    const response = await fetch(`${unset.sandboxUrl}/ips`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown }).data).toEqual({ ipv4_cidrs: [] });
  });

  it('refuses values that are not IPv4 addresses or network CIDRs', () => {
    expect(ipv4Cidrs(undefined, '--webhook-source-ips')).toEqual([]);
    expect(ipv4Cidrs(' ', '--webhook-source-ips')).toEqual([]);
    expect(ipv4Cidrs('10.0.0.0/8,1.2.3.4', '--webhook-source-ips')).toEqual(['10.0.0.0/8', '1.2.3.4/32']);
    for (const bad of ['256.1.1.1', '1.2.3', '1.2.3.4/33', '1.2.3.4/24', '01.2.3.4', '::1', 'example.com']) {
      expect(() => ipv4Cidrs(bad, '--webhook-source-ips'), bad).toThrow(/--webhook-source-ips/);
    }
  });
});
