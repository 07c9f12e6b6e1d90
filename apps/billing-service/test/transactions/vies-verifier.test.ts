/**
 * The VIES adapter's reading of VIES's REST answers (ADR 1437), against the local VIES-format
 * server and on answers VIES documents but the server does not make; and the settings that
 * configure it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServiceConfig } from '../../src/config.js';
import { createViesVerifier, readViesAnswer } from '../../src/infrastructure/vies-verifier.js';
import { type FakeVies, startFakeVies } from '../support/vies/fake-vies-server.js';

describe('the VIES adapter', () => {
  let vies: FakeVies;
  beforeAll(async () => {
    vies = await startFakeVies();
  });
  afterAll(() => vies.close());

  it('reads a registered number with its trader, an unknown one as invalid, an outage as unavailable', async () => {
    vies.register('DE123456789', { name: 'Muster GmbH', address: 'Hauptstr. 1, 10115 Berlin' });
    const verifier = createViesVerifier({ baseUrl: `${vies.baseUrl}/`, timeoutMs: 5_000 });
    expect(await verifier.check('DE', '123456789')).toMatchObject({
      outcome: 'valid',
      name: 'Muster GmbH',
      address: 'Hauptstr. 1, 10115 Berlin',
      reason: null,
    });
    expect(await verifier.check('DE', '987654321')).toMatchObject({ outcome: 'invalid', name: null, address: null });
    vies.setDown('DE', 'MS_MAX_CONCURRENT_REQ');
    expect(await verifier.check('DE', '123456789')).toMatchObject({
      outcome: 'unavailable',
      reason: 'MS_MAX_CONCURRENT_REQ',
    });
    vies.setDown('DE', null);
    expect(vies.checksOf('DE123456789')).toBe(2);
  });

  it('counts a refused connection as unavailable', async () => {
    const closed = await startFakeVies();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const answer = await createViesVerifier({ baseUrl, timeoutMs: 5_000 }).check('DE', '123456789');
    expect(answer.outcome).toBe('unavailable');
    expect(answer.reason).toMatch(/^network: /);
  });

  it('reads VIES’s error envelopes and odd answers', () => {
    expect(readViesAnswer(400, { actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] }).outcome).toBe(
      'invalid',
    );
    expect(readViesAnswer(200, { actionSucceed: false, errorWrappers: [{ error: 'TIMEOUT' }] })).toMatchObject({
      outcome: 'unavailable',
      reason: 'TIMEOUT',
    });
    expect(readViesAnswer(200, { valid: false, userError: 'MS_UNAVAILABLE' })).toMatchObject({
      outcome: 'unavailable',
      reason: 'MS_UNAVAILABLE',
    });
    expect(readViesAnswer(200, { valid: true, userError: 'VALID', name: '---', address: '---' })).toMatchObject({
      outcome: 'valid',
      name: null,
      address: null,
    });
    expect(readViesAnswer(502, '<html>Bad gateway</html>')).toMatchObject({
      outcome: 'unavailable',
      reason: 'HTTP 502',
    });
    expect(readViesAnswer(200, { something: 'else' })).toMatchObject({ outcome: 'unavailable', reason: 'HTTP 200' });
  });

  it('is configured off by default, and refuses settings it cannot use', () => {
    const defaults = resolveServiceConfig({}, {});
    expect(defaults).toMatchObject({
      vatIdCheck: 'off',
      viesUrl: 'https://ec.europa.eu/taxation_customs/vies/rest-api',
      vatIdCacheDays: 30,
      vatIdTimeoutMs: 5_000,
      vatIdUnavailable: 'format',
    });
    expect(resolveServiceConfig({}, { DRAWDOWN_VAT_ID_CHECK: 'vies' }).vatIdCheck).toBe('vies');
    expect(() => resolveServiceConfig({ 'vat-id-check': 'maybe' }, {})).toThrow(/vies, off/);
    expect(() => resolveServiceConfig({ 'vat-id-unavailable': 'guess' }, {})).toThrow(/format, charge/);
    expect(() => resolveServiceConfig({ 'vies-url': 'ftp://example.com' }, {})).toThrow(/http/);
    expect(() => resolveServiceConfig({ 'vat-id-cache-days': '0' }, {})).toThrow(/days/);
  });
});
