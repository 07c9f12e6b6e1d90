/**
 * The `Paddle-Signature` header, checked against the documented formula computed here with
 * node:crypto, and against the official SDK's verifier.
 */
import { createHmac } from 'node:crypto';
import { Paddle } from '@paddle/paddle-node-sdk';
import { describe, expect, it } from 'vitest';
import { signPayload } from '../../src/workers/webhook-delivery/sign-payload.js';

const SECRET = 'pdl_ntfset_01hv8x2ag5p1y5q9c7a5d3k0w8_Zx3Qd9yLmN2pR7tV4bW1cE6fH8jK0sA5';

describe('signPayload', () => {
  it('is ts=<seconds>;h1=<hex HMAC-SHA256 of "ts:body" keyed with the whole secret>, without spaces', () => {
    const body = '{"event_id":"evt_01","event_type":"product.created","data":{"name":"Café"}}';
    const expected = createHmac('sha256', SECRET).update(`1671552777:${body}`, 'utf8').digest('hex');
    expect(signPayload(SECRET, body, 1_671_552_777)).toBe(`ts=1671552777;h1=${expected}`);
    expect(signPayload(SECRET, body, 1_671_552_777)).not.toMatch(/\s/);
  });

  it('changes with the timestamp, so every attempt carries its own signature', () => {
    expect(signPayload(SECRET, '{}', 100)).not.toBe(signPayload(SECRET, '{}', 101));
  });

  it('is accepted by the official SDK for the same secret and refused for another', async () => {
    const paddle = new Paddle('pdl_sdbx_apikey_01hv8x2ag5p1y5q9c7a5d3k0w8_x', { logLevel: 'none' as never });
    const body = JSON.stringify({
      event_id: 'evt_01hv8x2ag5p1y5q9c7a5d3k0w8',
      event_type: 'unknown.thing',
      occurred_at: '2026-01-01T00:00:00.000Z',
      notification_id: 'ntf_01hv8x2ag5p1y5q9c7a5d3k0w8',
      data: { id: 'x' },
    });
    const header = signPayload(SECRET, body, Math.floor(Date.now() / 1_000));
    expect(await paddle.webhooks.isSignatureValid(body, SECRET, header)).toBe(true);
    expect(await paddle.webhooks.isSignatureValid(body, `${SECRET}x`, header)).toBe(false);
  });
});
