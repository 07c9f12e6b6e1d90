/**
 * The fast path's reading of a plain usage-events body (ADR 0719) never disagrees with the full
 * reading: whatever body it accepts, `parseJsonText` then `validatedBody` accept too and give the
 * very same events; every other body is left to the full reading.
 */
import { RecordUsageEventsBody } from '@drawdown/billing-contract';
import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseJsonText, validatedBody } from '../../src/http/request-body.js';
import { plainEvents } from '../../src/http/usage-events-fast-path.js';

const full = (text: string, contentType: string | undefined) => {
  try {
    return {
      events: validatedBody(
        parseJsonText(text, contentType, { unstorableTextPerItemOf: 'events' }),
        RecordUsageEventsBody,
      ).events,
    };
  } catch (error) {
    return { error };
  }
};

const FIELDS = ['event_key', 'customer_id', 'action', 'quantity', 'occurred_at'];
const LIMITS: Record<string, number> = {
  event_key: 1024,
  customer_id: 64,
  action: 200,
  quantity: 128,
  occurred_at: 64,
};

/** Events near the plain shape: the five fields, sometimes one missing, extra, too long, or not a string. */
const nearEvent = fc
  .record({
    values: fc.tuple(
      ...FIELDS.map(() => fc.oneof(fc.string({ maxLength: 8 }), fc.constant('a\u0000b'), fc.constant('\uD800'))),
    ),
    drop: fc.option(fc.constantFrom(...FIELDS), { nil: undefined, freq: 2 }),
    extra: fc.option(fc.constantFrom('colour', '__proto__', 'eventKey', 'x\u0000'), { nil: undefined, freq: 2 }),
    long: fc.option(fc.constantFrom(...FIELDS), { nil: undefined, freq: 2 }),
    notString: fc.option(
      fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(fc.integer(), fc.constant(null), fc.constant([]))),
      {
        nil: undefined,
        freq: 2,
      },
    ),
    reversed: fc.boolean(),
  })
  .map(({ values, drop, extra, long, notString, reversed }) => {
    const entries: [string, unknown][] = FIELDS.map((name, index) => [name, values[index]]);
    const event: Record<string, unknown> = {};
    for (const [name, value] of reversed ? entries.reverse() : entries) if (name !== drop) event[name] = value;
    if (long) event[long] = 'x'.repeat((LIMITS[long] ?? 0) + ((values[0] ?? '').length % 2));
    if (notString) event[notString[0]] = notString[1];
    if (extra) Object.defineProperty(event, extra, { value: 1, enumerable: true });
    return event;
  });

/** Events of the plain shape with values a client sends, so that a good share of runs compare. */
const plainEvent = fc.record({
  event_key: fc.stringMatching(/^[A-Za-z0-9_:.-]{1,24}$/),
  customer_id: fc.stringMatching(/^ctm_[a-z0-9]{1,26}$/),
  action: fc.stringMatching(/^[a-z_]{1,16}$/),
  quantity: fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 15n }).map(String),
    fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 6n }), fc.bigInt({ min: 0n, max: 10n ** 6n }))
      .map(([whole, fraction]) => `${whole}.${fraction}`),
  ),
  occurred_at: fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
    .map((date) => date.toISOString()),
});

const nearBody = fc.oneof(
  fc.array(plainEvent, { minLength: 1, maxLength: 3 }).map((events) => ({ events })),
  fc.array(nearEvent, { maxLength: 3 }).map((events) => ({ events })),
  fc.array(nearEvent, { maxLength: 2 }).map((events) => ({ events, more: 1 })),
  nearEvent.map((event) => ({ events: event })),
  fc.constant({}),
  fc.constant([]),
  fc.constant(null),
);

const RUNS = 2_000;

describe('the plain usage-events body', () => {
  it('is read as the full reading reads it, or left to it', () => {
    // Runs whose body the fast path read, and so compared with the full reading: the others
    // prove nothing, and a generator that stopped producing plain bodies would pass on nothing.
    let compared = 0;
    fc.assert(
      fc.property(
        nearBody,
        fc.constantFrom('application/json', 'application/vnd.api+json; charset=utf-8', 'text/plain', undefined),
        (body, contentType) => {
          const text = JSON.stringify(body);
          const fast = plainEvents(text, contentType);
          if (fast === undefined) return;
          compared += 1;
          const reference = full(text, contentType);
          expect(reference.error).toBeUndefined();
          expect(fast).toEqual(reference.events);
          expect(fast.map((event) => Object.keys(event))).toEqual(reference.events?.map((event) => Object.keys(event)));
        },
      ),
      { numRuns: RUNS },
    );
    // About one run in ten compares (the plain events' share of the bodies, less text/plain); one
    // in twenty leaves room for chance and none for a generator that stopped making plain bodies.
    expect(compared).toBeGreaterThanOrEqual(RUNS / 20);
  });

  it('reads the body every client sends, and leaves text that is not JSON to the full reading', () => {
    const text =
      '{"events":[{"event_key":"k","customer_id":"ctm_1","action":"api_call","quantity":"1","occurred_at":"2026-01-01T00:00:00Z"}]}';
    expect(plainEvents(text, 'application/json')).toEqual([
      { eventKey: 'k', customerId: 'ctm_1', action: 'api_call', quantity: '1', occurredAt: '2026-01-01T00:00:00Z' },
    ]);
    expect(plainEvents(`  ${text}\n`, 'application/json')).toEqual(full(text, 'application/json').events);
    for (const other of ['', '   ', '{"events": [', text.replace('"1"', '1')])
      expect(plainEvents(other, 'application/json')).toBeUndefined();
    expect(plainEvents(text, 'text/plain')).toBeUndefined();
  });
});
