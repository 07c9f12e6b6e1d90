/**
 * The currency list: cached for 24 hours on an injectable clock, shared by concurrent callers,
 * read without an API key, and replaced by the seed's fallback (JPY, KRW, VND, CLP zero-decimal,
 * every other currency two) while it cannot be read. Served here by a stub speaking the wire format.
 */
import { CURRENCY_CACHE_TTL_MS, CURRENCY_RETRY_AFTER_FAILURE_MS, Drawdown, DrawdownApiError } from '@drawdown/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeRuntime, fakeRuntime } from '../support/fake-runtime.js';
import { failure, ok, startWireStub, type WireStub } from '../support/wire-stub.js';

const LIST = [
  {
    code: 'USD',
    name: 'US Dollar',
    decimal_places: 2,
    can_be_balance: true,
    applicable_countries: ['US'],
    minimum_payment_amount: '70',
  },
  { code: 'JPY', name: 'Japanese Yen', decimal_places: 0 },
  { code: 'HUF', name: 'Hungarian Forint', decimal_places: 2 },
  { code: 'BHD', name: 'Bahraini Dinar', decimal_places: 3 },
];

describe('currencies', () => {
  let stub: WireStub;
  let runtime: FakeRuntime;
  let drawdown: Drawdown;
  let available: boolean;

  beforeEach(async () => {
    stub = await startWireStub();
    available = true;
    stub.route('GET', '/currencies', () => (available ? ok(LIST) : failure(503, 'internal_error')));
    runtime = fakeRuntime();
    drawdown = new Drawdown('pdl_sdbx_apikey_01hv8x2acma2bq5h3wfeknfbxe_secret', {
      baseUrl: stub.url,
      runtime,
      maxRetries: 0,
    });
  });
  afterEach(() => stub.close());

  const reads = () => stub.requests.filter((request) => request.path === '/currencies').length;

  it('reads the list once without an API key and camel-cases it', async () => {
    const list = await drawdown.currencies.list();
    expect(list[0]).toEqual({
      code: 'USD',
      name: 'US Dollar',
      decimalPlaces: 2,
      canBeBalance: true,
      applicableCountries: ['US'],
      minimumPaymentAmount: '70',
    });
    expect(stub.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('serves the cached list for 24 hours, then reads it again', async () => {
    await drawdown.currencies.list();
    await runtime.sleep(CURRENCY_CACHE_TTL_MS - 1);
    await drawdown.currencies.list();
    expect(reads()).toBe(1);
    await runtime.sleep(1);
    await drawdown.currencies.list();
    expect(reads()).toBe(2);
  });

  it('shares one request among concurrent callers', async () => {
    await Promise.all([
      drawdown.currencies.list(),
      drawdown.currencies.list(),
      drawdown.currencies.decimalPlaces('USD'),
    ]);
    expect(reads()).toBe(1);
  });

  it('takes decimal places from the list when it can be read', async () => {
    expect(await drawdown.currencies.decimalPlaces('bhd')).toEqual({ decimalPlaces: 3, source: 'service' });
    expect(await drawdown.currencies.formatAmount('1234567', 'BHD', 'en-US')).toBe('BHD\u00a01,234.567');
    expect(await drawdown.currencies.formatAmount('123456', 'HUF', 'hu-HU')).toBe('1234,56\u00a0Ft');
  });

  it('falls back to the seed rule while the list is unavailable', async () => {
    available = false;
    await expect(drawdown.currencies.list()).rejects.toBeInstanceOf(DrawdownApiError);
    for (const code of ['JPY', 'KRW', 'VND', 'CLP']) {
      expect(await drawdown.currencies.decimalPlaces(code)).toEqual({ decimalPlaces: 0, source: 'fallback' });
    }
    for (const code of ['USD', 'EUR', 'BHD', 'HUF']) {
      expect(await drawdown.currencies.decimalPlaces(code)).toEqual({ decimalPlaces: 2, source: 'fallback' });
    }
    expect(await drawdown.currencies.formatAmount('123456', 'KRW', 'ko-KR')).toBe('₩123,456');
    expect(await drawdown.currencies.formatAmount('1234567', 'BHD', 'en-US')).toBe('BHD\u00a012,345.67');
  });

  it('does not ask again for a minute after a failure, then recovers', async () => {
    available = false;
    await drawdown.currencies.decimalPlaces('USD');
    await drawdown.currencies.decimalPlaces('EUR');
    expect(reads()).toBe(1);
    available = true;
    await runtime.sleep(CURRENCY_RETRY_AFTER_FAILURE_MS);
    expect(await drawdown.currencies.decimalPlaces('BHD')).toEqual({ decimalPlaces: 3, source: 'service' });
    expect(reads()).toBe(2);
  });

  it('uses the fallback for a code the list does not name', async () => {
    expect(await drawdown.currencies.decimalPlaces('CLP')).toEqual({ decimalPlaces: 0, source: 'fallback' });
    expect(await drawdown.currencies.decimalPlaces('GBP')).toEqual({ decimalPlaces: 2, source: 'fallback' });
  });
});
