/**
 * The hand-spelt access line (ADR 0727) is byte for byte the line pino writes for the same record
 * on the same logger, for every record: generated ids and fields of any text (quotes,
 * backslashes, control characters, lone surrogates, long text: the records pino must spell),
 * every status, durations of any size, with and without account and trace ids, at every level the
 * logger may be set to. A hook counts the records pino itself spelt, so the test also proves the
 * hand path served the plain ones.
 */
import { fc, test } from '@fast-check/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestRecord } from '../../src/http/request-observer.js';
import { accessLineByPino, accessLineWriter } from '../../src/operations/access-line.js';
import { createLogger, type LogLevel } from '../../src/operations/logger.js';

function capturedLogger(level: LogLevel) {
  const written: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => written.push(line) } });
  // Counts the lines pino itself spells (the hand path never calls these).
  let byPino = 0;
  for (const method of ['info', 'warn'] as const) {
    const original = logger[method].bind(logger);
    logger[method] = ((...args: Parameters<typeof original>) => {
      byPino += 1;
      return original(...args);
    }) as typeof original;
  }
  return { logger, written, byPinoCount: () => byPino };
}

/** Both spellings of one record, written at the same (frozen) moment. */
function bothLines(record: RequestRecord, level: LogLevel = 'info') {
  const hand = capturedLogger(level);
  const pino = capturedLogger(level);
  accessLineWriter(hand.logger)(record);
  accessLineByPino(pino.logger, record);
  return { hand: hand.written, pino: pino.written, handUsedPino: hand.byPinoCount() > 0 };
}

const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const plainText = fc.stringMatching(/^[A-Za-z0-9._:\-/+=]{1,128}$/);
const anyText = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), plainText);

const records = fc.record(
  {
    requestId: anyText,
    method: fc.oneof(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE'), anyText),
    route: fc.oneof(fc.constantFrom('/usage-events', '/customers/:id', '*'), anyText),
    status: fc.oneof(fc.constantFrom(200, 202, 400, 404, 413, 429, 500, 503), fc.integer({ min: 100, max: 599 })),
    durationMs: fc.oneof(
      fc.double({ min: 0, max: 1e7, noNaN: true }),
      fc.double(),
      fc.constantFrom(0, -0, 0.04, 0.05, 0.15, 1e-7, 123456.789),
    ),
    environment: fc.constantFrom('live', 'sandbox'),
    accountId: fc.option(fc.oneof(fc.stringMatching(/^acc_[0-9A-Z]{26}$/), anyText), { nil: undefined }),
    clientAddress: fc.option(fc.oneof(fc.ipV4(), fc.ipV6(), anyText), { nil: undefined }),
    path: fc.option(fc.oneof(fc.webPath(), anyText), { nil: undefined }),
    traceId: fc.option(fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), anyText), { nil: undefined }),
  },
  { requiredKeys: ['requestId', 'method', 'route', 'status', 'durationMs', 'environment', 'accountId'] },
) as fc.Arbitrary<RequestRecord>;

describe('the access line', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T04:50:12.345Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test.prop([records, fc.constantFrom<LogLevel>('info', 'warn', 'error', 'debug', 'silent')], { numRuns: 3_000 })(
    'is the line pino writes, for every record and level',
    (record, level) => {
      const { hand, pino } = bothLines(record, level);
      expect(hand).toEqual(pino);
    },
  );

  it('spells a usage request by hand, exactly as pino does', () => {
    const record: RequestRecord = {
      requestId: '0b6f1c1e-6c3a-4d7e-9a55-2f1d1c0e9b7a',
      method: 'POST',
      route: '/usage-events',
      status: 202,
      durationMs: 1.2345,
      environment: 'live',
      accountId: 'acc_01JDZ5Q7W3V5K2M8N4P6R9T1XY',
      clientAddress: '203.0.113.9',
    };
    const { hand, pino, handUsedPino } = bothLines(record);
    expect(handUsedPino).toBe(false);
    expect(hand).toEqual([
      '{"level":"info","time":"2026-11-28T04:50:12.345Z","service":"drawdown","requestId":"0b6f1c1e-6c3a-4d7e-9a55-2f1d1c0e9b7a","environment":"live","accountId":"acc_01JDZ5Q7W3V5K2M8N4P6R9T1XY","clientAddress":"203.0.113.9","method":"POST","route":"/usage-events","status":202,"durationMs":1.2,"msg":"request"}\n',
    ]);
    expect(hand).toEqual(pino);
  });

  it('spells an unmatched request with its path by hand, exactly as pino does', () => {
    const record: RequestRecord = {
      requestId: 'req-404',
      method: 'DELETE',
      route: 'unmatched',
      path: '/no-such/endpoint',
      status: 404,
      durationMs: 0.4,
      environment: 'sandbox',
      accountId: undefined,
      clientAddress: '::ffff:127.0.0.1',
    };
    const { hand, pino, handUsedPino } = bothLines(record);
    expect(handUsedPino).toBe(false);
    expect(hand).toEqual([
      '{"level":"info","time":"2026-11-28T04:50:12.345Z","service":"drawdown","requestId":"req-404","environment":"sandbox","clientAddress":"::ffff:127.0.0.1","method":"DELETE","route":"unmatched","path":"/no-such/endpoint","status":404,"durationMs":0.4,"msg":"request"}\n',
    ]);
    expect(hand).toEqual(pino);
  });

  test.prop([records], { numRuns: 1_000 })('is spelt by hand whenever its text is plain', (record) => {
    const plain = [
      record.requestId,
      record.method,
      record.route,
      record.accountId,
      record.clientAddress,
      record.path,
      record.traceId,
    ].every((text) => text === undefined || PLAIN.test(text));
    const { hand, pino, handUsedPino } = bothLines(record);
    expect(hand).toEqual(pino);
    expect(handUsedPino).toBe(!plain || !Number.isFinite(Math.round(record.durationMs * 10) / 10));
  });

  it('writes a 5xx at warn, and nothing below the logger level', () => {
    const record: RequestRecord = {
      requestId: 'req-1',
      method: 'POST',
      route: '/usage-events',
      status: 503,
      durationMs: 0.04,
      environment: 'sandbox',
      accountId: undefined,
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    };
    const warned = bothLines(record, 'warn');
    expect(warned.handUsedPino).toBe(false);
    expect(warned.hand).toHaveLength(1);
    expect(JSON.parse(warned.hand[0] ?? '')).toMatchObject({
      level: 'warn',
      status: 503,
      durationMs: 0,
      traceId: record.traceId,
    });
    expect(warned.hand).toEqual(warned.pino);
    expect(bothLines({ ...record, status: 202 }, 'warn').hand).toEqual([]);
    expect(bothLines(record, 'error').hand).toEqual([]);
  });

  it('leaves a child logger to pino', () => {
    const written: string[] = [];
    const parent = createLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } });
    const child = parent.child({ component: 'http' });
    accessLineWriter(child)({
      requestId: 'req-2',
      method: 'GET',
      route: '/customers',
      status: 200,
      durationMs: 3,
      environment: 'live',
      accountId: 'acc_1',
    });
    expect(JSON.parse(written[0] ?? '')).toMatchObject({ component: 'http', requestId: 'req-2', msg: 'request' });
  });
});
