/**
 * The Drawdown meter's decisions, against a fake of the SDK client's shape: who is metered where, when a Pro
 * key is refused and served again, and that usage is reported without holding up the answer.
 */
import { type Subscription, signWebhookPayload, type UsageBalance, type UsageReport } from '@drawdown/sdk';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { createBillingWebhookReceiver } from '../../src/billing/billing-webhooks.js';
import { CustomerLinkStore } from '../../src/billing/customer-links.js';
import { composeService } from '../../src/compose-service.js';
import { DrawdownLookupMeter, type DrawdownMeteringClient } from '../../src/metering/drawdown-lookup-meter.js';
import type { ClientIdentity, LookupId, LookupMeter, MeterDecision } from '../../src/metering/lookup-meter.js';
import { openStateDatabase } from '../../src/shared/state-database.js';
import { FakeClock } from '../support/fake-clock.js';

const UNIT = 'ubu_lookups';
const CUSTOMER = 'ctm_01customer';
const PERIOD_END = '2026-12-15T00:00:00.000Z';

class FakeDrawdown implements DrawdownMeteringClient {
  remaining = 5;
  used = 0;
  hasBalance = true;
  reported: { customerId: string; eventKey: string; action: string; quantity: string }[] = [];
  balanceReads = 0;
  /** Reports hang until released, to show the answer does not wait for them. */
  #hold: Promise<void> = Promise.resolve();
  #release: () => void = () => {};

  holdReports(): void {
    this.#hold = new Promise((resolve) => {
      this.#release = resolve;
    });
  }
  releaseReports(): void {
    this.#release();
  }

  async reportUsage(event: { customerId: string; action: string; quantity: string; eventKey: string }) {
    await this.#hold;
    this.reported.push(event);
    return { kind: 'accepted' } as UsageReport;
  }

  readonly usageBalances = {
    list: (customerId: string) => {
      this.balanceReads += 1;
      const items: UsageBalance[] = this.hasBalance
        ? [
            {
              id: 'ubl_1',
              customerId,
              usageBalanceUnitId: UNIT,
              balance: {
                used: { total: String(this.used) },
                remaining: { total: String(this.remaining) },
                overage: { total: '0' },
              },
            },
          ]
        : [];
      return iterate(items);
    },
  };

  readonly subscriptions = {
    list: () =>
      iterate([{ customerId: CUSTOMER, currentBillingPeriod: { startsAt: '', endsAt: PERIOD_END } } as Subscription]),
  };
}

async function* iterate<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

class CountingLocalMeter implements LookupMeter {
  calls: string[] = [];
  async authorize(client: ClientIdentity): Promise<MeterDecision> {
    this.calls.push(`authorize ${client.kind}`);
    return { allowed: true, limit: 50, remaining: 49, resetsAt: new Date(PERIOD_END) };
  }
  async record(client: ClientIdentity): Promise<void> {
    this.calls.push(`record ${client.kind}`);
  }
  async release(client: ClientIdentity): Promise<void> {
    this.calls.push(`release ${client.kind}`);
  }
}

const pro: ClientIdentity = { kind: 'api_key', plan: 'pro', keyId: 'key_pro' };
const scale: ClientIdentity = { kind: 'api_key', plan: 'scale', keyId: 'key_scale' };
const anonymous: ClientIdentity = { kind: 'anonymous', plan: 'free', address: '198.51.100.1' };
const id = (value: string) => value as LookupId;

function setup() {
  const db = openStateDatabase(':memory:');
  const links = new CustomerLinkStore(db);
  links.link('key_pro', CUSTOMER, new Date());
  links.link('key_scale', 'ctm_01scale', new Date());
  const client = new FakeDrawdown();
  const local = new CountingLocalMeter();
  const logged: string[] = [];
  const clock = new FakeClock('2026-11-20T12:00:00Z');
  const meter = new DrawdownLookupMeter({
    client,
    local,
    customers: links,
    lookupsUnitId: UNIT,
    clock,
    log: (message) => logged.push(message),
  });
  onTestFinished(() => meter.close());
  return { db, links, client, local, meter, logged, clock };
}

describe('DrawdownLookupMeter', () => {
  it('leaves anonymous clients and unlinked keys to the local meter', async () => {
    const { local, meter, client } = setup();
    const unlinked: ClientIdentity = { kind: 'api_key', plan: 'pro', keyId: 'key_unlinked' };
    await meter.authorize(anonymous, id('l1'));
    await meter.record(anonymous, id('l1'));
    await meter.authorize(unlinked, id('l2'));
    await meter.release(unlinked, id('l2'));
    expect(local.calls).toEqual(['authorize anonymous', 'record anonymous', 'authorize api_key', 'release api_key']);
    expect(client.reported).toEqual([]);
  });

  it('reads the balance once at first use and reports what is left and when it resets', async () => {
    const { meter, client } = setup();
    const decision = await meter.authorize(pro, id('l1'));
    expect(decision).toEqual({ allowed: true, limit: 5, remaining: 4, resetsAt: new Date(PERIOD_END) });
    await meter.authorize(pro, id('l2'));
    expect(client.balanceReads).toBe(1);
  });

  it('refuses a Pro key with monthly_quota_exceeded once its balance is depleted, until the period ends', async () => {
    const { meter } = setup();
    await meter.authorize(pro, id('l1'));
    meter.noteDepleted(CUSTOMER, UNIT);
    expect(await meter.authorize(pro, id('l2'))).toEqual({
      allowed: false,
      reason: 'monthly_quota_exceeded',
      limit: 5,
      resetsAt: new Date(PERIOD_END),
    });
  });

  it('ignores depletion of another unit', async () => {
    const { meter } = setup();
    meter.noteDepleted(CUSTOMER, 'ubu_other');
    expect((await meter.authorize(pro, id('l1'))).allowed).toBe(true);
  });

  it('refuses a Pro key already depleted when the service starts (the first read finds nothing left)', async () => {
    const { meter, client } = setup();
    client.remaining = 0;
    client.used = 5;
    expect(await meter.authorize(pro, id('l1'))).toMatchObject({ allowed: false, limit: 5 });
  });

  it('serves the key again when a subscription update comes with a refilled balance, not before', async () => {
    const { meter, client } = setup();
    await meter.authorize(pro, id('l1'));
    meter.noteDepleted(CUSTOMER, UNIT);
    client.remaining = 0;
    await meter.noteSubscriptionUpdated(CUSTOMER, { currentBillingPeriod: null });
    expect((await meter.authorize(pro, id('l2'))).allowed).toBe(false);

    client.remaining = 5;
    client.used = 0;
    await meter.noteSubscriptionUpdated(CUSTOMER, {
      currentBillingPeriod: { startsAt: PERIOD_END, endsAt: '2027-01-15T00:00:00.000Z' },
    });
    expect(await meter.authorize(pro, id('l3'))).toMatchObject({
      allowed: true,
      remaining: 4,
      resetsAt: new Date('2027-01-15T00:00:00.000Z'),
    });
  });

  it('never refuses Scale, which has no allowance, and still reports its usage', async () => {
    const { meter, client } = setup();
    client.hasBalance = false;
    meter.noteDepleted('ctm_01scale', UNIT);
    expect(await meter.authorize(scale, id('s1'))).toMatchObject({ allowed: true, limit: undefined });
    await meter.record(scale, id('s1'));
    await meter.close();
    expect(client.reported).toEqual([
      expect.objectContaining({ customerId: 'ctm_01scale', eventKey: 's1', action: 'lookup', quantity: '1' }),
    ]);
  });

  it('reports a customer’s lookups as one usage event keyed by the first lookup, each lookup id counted once', async () => {
    const { meter, client } = setup();
    for (const lookup of ['l1', 'l2', 'l3']) {
      await meter.authorize(pro, id(lookup));
      await meter.record(pro, id(lookup));
    }
    await meter.record(pro, id('l2'));
    await meter.record(scale, id('s1'));
    expect(client.reported).toEqual([]);
    meter.flush();
    await meter.close();
    expect(client.reported).toEqual([
      expect.objectContaining({ customerId: CUSTOMER, eventKey: 'l1', quantity: '3' }),
      expect.objectContaining({ customerId: 'ctm_01scale', eventKey: 's1', quantity: '1' }),
    ]);
    // A later batch starts afresh; an id already counted is not counted again.
    await meter.record(pro, id('l3'));
    await meter.record(pro, id('l4'));
    await meter.close();
    expect(client.reported.at(-1)).toEqual(expect.objectContaining({ eventKey: 'l4', quantity: '1' }));
    expect(client.reported).toHaveLength(3);
  });

  it('never lets one usage event span the end of the billing period', async () => {
    const { meter, client, clock } = setup();
    clock.set('2026-12-14T23:59:59.500Z');
    await meter.authorize(pro, id('l1'));
    await meter.record(pro, id('l1'));
    clock.set(PERIOD_END);
    await meter.record(pro, id('l2'));
    await meter.close();
    expect(client.reported).toEqual([
      expect.objectContaining({ eventKey: 'l1', quantity: '1', occurredAt: new Date('2026-12-14T23:59:59.500Z') }),
      expect.objectContaining({ eventKey: 'l2', quantity: '1', occurredAt: new Date(PERIOD_END) }),
    ]);
  });

  it('records without waiting for the report, and close() waits for it', async () => {
    const { meter, client } = setup();
    client.holdReports();
    await meter.authorize(pro, id('l1'));
    await meter.record(pro, id('l1'));
    expect(client.reported).toEqual([]);
    const closed = meter.close();
    client.releaseReports();
    await closed;
    expect(client.reported).toEqual([
      {
        customerId: CUSTOMER,
        action: 'lookup',
        quantity: '1',
        eventKey: 'l1',
        occurredAt: new Date('2026-11-20T12:00:00Z'),
      },
    ]);
  });

  it('logs a report that Drawdown refuses for good', async () => {
    const { meter, client, logged } = setup();
    client.reportUsage = async () =>
      ({ kind: 'rejected', code: 'invalid_field', detail: 'bad', status: 202 }) as unknown as UsageReport;
    await meter.record(pro, id('l1'));
    await meter.close();
    expect(logged).toEqual([expect.stringContaining('invalid_field')]);
  });
});

describe('billing webhook receiver', () => {
  const secret = 'pdl_ntfset_secret';
  const depleted = JSON.stringify({
    event_id: 'evt_1',
    event_type: 'usage_balance.depleted',
    occurred_at: '2026-11-20T12:00:00Z',
    notification_id: 'ntf_1',
    data: { id: 'ubl_1', customer_id: CUSTOMER, usage_balance_unit_id: UNIT, balance: {} },
  });

  it('blocks the customer on a verified depletion notice', async () => {
    const { meter } = setup();
    const receiver = createBillingWebhookReceiver({ secret, meter });
    await receiver.receive(depleted, await signWebhookPayload(depleted, secret));
    expect(meter.stateOf(CUSTOMER)?.blocked).toBe(true);
  });

  it('refuses a notice signed with another secret and changes nothing', async () => {
    const { meter } = setup();
    const receiver = createBillingWebhookReceiver({ secret, meter });
    await expect(receiver.receive(depleted, await signWebhookPayload(depleted, 'other'))).rejects.toThrow(
      'No h1 signature',
    );
    expect(meter.stateOf(CUSTOMER)).toBeUndefined();
  });

  it('acknowledges event types it does not use', async () => {
    const { meter } = setup();
    const receiver = createBillingWebhookReceiver({ secret, meter });
    const body = JSON.stringify({ ...JSON.parse(depleted), event_type: 'product.created', data: { id: 'pro_1' } });
    expect(await receiver.receive(body, await signWebhookPayload(body, secret))).toMatchObject({
      eventType: 'product.created',
    });
    expect(meter.stateOf(CUSTOMER)).toBeUndefined();
  });
});

describe('POST /billing/webhooks', () => {
  const secret = 'pdl_ntfset_secret';
  const body = JSON.stringify({
    event_id: 'evt_2',
    event_type: 'usage_balance.depleted',
    occurred_at: '2026-11-20T12:00:00Z',
    notification_id: 'ntf_2',
    data: { id: 'ubl_1', customer_id: CUSTOMER, usage_balance_unit_id: UNIT, balance: {} },
  });

  async function billedApp() {
    const service = await composeService({
      cataloguePath: ':memory:',
      statePath: ':memory:',
      drawdown: {
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'unused',
        webhookSecret: secret,
        lookupsUnitId: UNIT,
        client: new FakeDrawdown(),
      },
    });
    onTestFinished(() => service.close());
    return { service, app: createApp(service.deps) };
  }

  it('answers 200 to a verified notice and acts on it', async () => {
    const { service, app } = await billedApp();
    const response = await app.request('/billing/webhooks', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'paddle-signature': await signWebhookPayload(body, secret) },
      body,
    });
    expect(response.status).toBe(200);
    expect(service.billing?.meter.stateOf(CUSTOMER)?.blocked).toBe(true);
  });

  it('refuses an unsigned notice with 401 invalid_signature', async () => {
    const { service, app } = await billedApp();
    const response = await app.request('/billing/webhooks', { method: 'POST', body });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    expect(service.billing?.meter.stateOf(CUSTOMER)).toBeUndefined();
  });

  it('does not exist when billing is not configured', async () => {
    const service = await composeService({ cataloguePath: ':memory:', statePath: ':memory:' });
    onTestFinished(() => service.close());
    const response = await createApp(service.deps).request('/billing/webhooks', { method: 'POST', body });
    expect(response.status).toBe(404);
    expect(service.billing).toBeUndefined();
  });
});
