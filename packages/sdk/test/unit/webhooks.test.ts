/**
 * Webhook signatures and event parsing: our signer and verifier agree with each other and with
 * the official SDK's `webhooks.unmarshal`, refuse what they must, and unknown event types parse.
 */
import { createHmac } from 'node:crypto';
import {
  MalformedEventError,
  parseEvent,
  signWebhookPayload,
  unmarshalWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '@drawdown/sdk';
import { Paddle } from '@paddle/paddle-node-sdk';
import { describe, expect, it } from 'vitest';

const SECRET = 'pdl_ntfset_01hv8x2acma2bq5h3wfeknfbxe_3t9nFvDdLk0CfRq3e0m2sQkP8qW5uZ1A';
const OTHER_SECRET = 'pdl_ntfset_01hv8x2acma2bq5h3wfeknfbxf_Zz9nFvDdLk0CfRq3e0m2sQkP8qW5uZ1A';

const depletedBody = JSON.stringify({
  event_id: 'evt_01hv8x2acma2bq5h3wfeknfbxe',
  event_type: 'usage_balance.depleted',
  occurred_at: '2026-05-01T10:00:00.000Z',
  notification_id: 'ntf_01hv8x2acma2bq5h3wfeknfbxe',
  data: {
    id: 'ubl_01hv8x2acma2bq5h3wfeknfbxe',
    customer_id: 'ctm_01hv8x2acma2bq5h3wfeknfbxe',
    usage_balance_unit_id: 'ubu_01hv8x2acma2bq5h3wfeknfbxe',
    balance: { remaining: { total: '0' } },
  },
});

function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('webhook signatures', () => {
  it('signs as ts=<unix>;h1=<hex HMAC-SHA256 of "ts:body"> keyed with the full secret', async () => {
    const header = await signWebhookPayload(depletedBody, SECRET, { timestamp: 1_700_000_000 });
    const expected = createHmac('sha256', SECRET).update(`1700000000:${depletedBody}`).digest('hex');
    expect(header).toBe(`ts=1700000000;h1=${expected}`);
  });

  it('is accepted by the official SDK webhooks.unmarshal', async () => {
    const paddle = new Paddle('pdl_sdbx_apikey_01hv8x2acma2bq5h3wfeknfbxe_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', {
      logLevel: 'none' as never,
    });
    const body = JSON.stringify({
      event_id: 'evt_01hv8x2acma2bq5h3wfeknfbxe',
      event_type: 'customer.created',
      occurred_at: new Date().toISOString(),
      notification_id: 'ntf_01hv8x2acma2bq5h3wfeknfbxe',
      data: {
        id: 'ctm_01hv8x2acma2bq5h3wfeknfbxe',
        name: 'Ada',
        email: 'ada@example.com',
        marketing_consent: false,
        status: 'active',
        custom_data: null,
        locale: 'en',
        created_at: '2026-05-01T10:00:00.000Z',
        updated_at: '2026-05-01T10:00:00.000Z',
        import_meta: null,
      },
    });
    const header = await signWebhookPayload(body, SECRET);
    const event = await paddle.webhooks.unmarshal(body, SECRET, header);
    expect(event.eventId).toBe('evt_01hv8x2acma2bq5h3wfeknfbxe');
    expect(event.eventType).toBe('customer.created');
    expect(await paddle.webhooks.isSignatureValid(body, OTHER_SECRET, header)).toBe(false);
  });

  it('verifies its own signature and unmarshals a typed event', async () => {
    const header = await signWebhookPayload(depletedBody, SECRET);
    await expect(verifyWebhook(depletedBody, SECRET, header)).resolves.toBeUndefined();
    const event = await unmarshalWebhook(new TextEncoder().encode(depletedBody), SECRET, header);
    expect(event.known).toBe(true);
    if (event.known && event.eventType === 'usage_balance.depleted') {
      expect(event.data.customerId).toBe('ctm_01hv8x2acma2bq5h3wfeknfbxe');
      expect(event.data.balance.remaining.total).toBe('0');
    } else {
      expect.unreachable('a usage_balance.depleted event');
    }
    expect(event.notificationId).toBe('ntf_01hv8x2acma2bq5h3wfeknfbxe');
  });

  it('verifies a signature made by an independent HMAC implementation', async () => {
    const ts = Math.floor(Date.now() / 1000);
    const h1 = createHmac('sha256', SECRET).update(`${ts}:${depletedBody}`).digest('hex');
    await expect(verifyWebhook(depletedBody, SECRET, `ts=${ts};h1=${h1}`)).resolves.toBeUndefined();
  });

  it('refuses a changed body, another secret, and a missing or malformed header', async () => {
    const header = await signWebhookPayload(depletedBody, SECRET);
    const tampered = depletedBody.replace('"0"', '"10"');
    expect(await rejection(verifyWebhook(tampered, SECRET, header))).toMatchObject({ reason: 'signature_mismatch' });
    expect(await rejection(verifyWebhook(depletedBody, OTHER_SECRET, header))).toMatchObject({
      reason: 'signature_mismatch',
    });
    expect(await rejection(verifyWebhook(depletedBody, SECRET, null))).toMatchObject({ reason: 'missing_signature' });
    for (const malformed of ['ts=abc;h1=00', `h1=${'a'.repeat(64)}`, 'ts=1700000000', 'nonsense']) {
      const error = await rejection(verifyWebhook(depletedBody, SECRET, malformed));
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error).toMatchObject({ reason: 'malformed_signature' });
    }
  });

  it('refuses a timestamp outside the tolerance in either direction, and accepts one inside it', async () => {
    const now = 1_800_000_000_000;
    const sign = (seconds: number) => signWebhookPayload(depletedBody, SECRET, { timestamp: seconds });
    const at = (offset: number) => now / 1000 + offset;
    const old = await sign(at(-6));
    expect(await rejection(verifyWebhook(depletedBody, SECRET, old, { now: () => now }))).toMatchObject({
      reason: 'timestamp_outside_tolerance',
    });
    const future = await sign(at(6));
    expect(await rejection(verifyWebhook(depletedBody, SECRET, future, { now: () => now }))).toMatchObject({
      reason: 'timestamp_outside_tolerance',
    });
    await expect(verifyWebhook(depletedBody, SECRET, old, { now: () => now, toleranceSeconds: 60 })).resolves.toBe(
      undefined,
    );
    await expect(verifyWebhook(depletedBody, SECRET, await sign(at(-4)), { now: () => now })).resolves.toBe(undefined);
  });

  it('accepts any of several h1 values, as while a secret is rotated', async () => {
    const header = await signWebhookPayload(depletedBody, SECRET);
    const [ts, h1] = header.split(';');
    const oldSecretHeader = await signWebhookPayload(depletedBody, OTHER_SECRET, {
      timestamp: Number(ts?.slice(3)),
    });
    const oldH1 = oldSecretHeader.split(';')[1];
    await expect(verifyWebhook(depletedBody, SECRET, `${ts};${oldH1};${h1}`)).resolves.toBeUndefined();
    await expect(verifyWebhook(depletedBody, OTHER_SECRET, `${ts};${oldH1};${h1}`)).resolves.toBeUndefined();
    expect(await rejection(verifyWebhook(depletedBody, 'pdl_ntfset_third', `${ts};${oldH1};${h1}`))).toMatchObject({
      reason: 'signature_mismatch',
    });
  });
});

describe('parseEvent', () => {
  it('parses an unknown event type into an UnknownEvent with camel-cased data, without throwing', () => {
    const event = parseEvent({
      event_id: 'evt_01hv8x2acma2bq5h3wfeknfbxe',
      event_type: 'spaceship.launched',
      occurred_at: '2026-05-01T10:00:00.000Z',
      data: { launch_pad: 'A', custom_data: { keep_me: true } },
    });
    expect(event).toEqual({
      known: false,
      eventId: 'evt_01hv8x2acma2bq5h3wfeknfbxe',
      eventType: 'spaceship.launched',
      occurredAt: '2026-05-01T10:00:00.000Z',
      notificationId: null,
      data: { launchPad: 'A', customData: { keep_me: true } },
    });
  });

  it('narrows data by eventType for known types', () => {
    const event = parseEvent({
      event_id: 'evt_01hv8x2acma2bq5h3wfeknfbxe',
      event_type: 'meter.updated',
      occurred_at: '2026-05-01T10:00:00.000Z',
      data: { id: 'mtr_01hv8x2acma2bq5h3wfeknfbxe', usage_balance_unit_id: 'ubu_x', rate: '0.5' },
    });
    if (!event.known) return expect.unreachable('meter.updated is known');
    switch (event.eventType) {
      case 'meter.updated':
        expect(event.data.usageBalanceUnitId).toBe('ubu_x');
        expect(event.data.rate).toBe('0.5');
        break;
      default:
        expect.unreachable(event.eventType);
    }
  });

  it('throws MalformedEventError only for a broken envelope', () => {
    expect(() => parseEvent('{not json')).toThrow(MalformedEventError);
    expect(() => parseEvent({ event_type: 'x.y', occurred_at: 'now', data: {} })).toThrow(MalformedEventError);
    expect(() => parseEvent({ event_id: 'evt_1', event_type: 'x.y', occurred_at: 'now', data: [] })).toThrow(
      MalformedEventError,
    );
  });
});
