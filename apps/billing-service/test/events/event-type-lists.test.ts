/**
 * The event-type lists agree: the core's table (what the service lists, accepts and records) is
 * the official SDK's `EventName` union plus Drawdown's usage-based types, the Drawdown SDK
 * mirrors it name for name, and every type the service emits is one the SDK types.
 */
import { EVENT_TYPE_NAMES, EVENT_TYPES, emittedEventTypes } from '@drawdown/billing-core';
import { isKnownEventType, EVENT_TYPE_NAMES as SDK_EVENT_TYPE_NAMES } from '@drawdown/sdk';
import { EventName } from '@paddle/paddle-node-sdk';
import { describe, expect, it } from 'vitest';

const USAGE_BASED = [
  'meter.created',
  'meter.updated',
  'usage_balance.depleted',
  'usage_balance_unit.created',
  'usage_balance_unit.updated',
];

describe('event type lists', () => {
  it('lists exactly the official SDK EventName union plus the usage-based types', () => {
    const official = Object.values(EventName);
    expect(official.length).toBeGreaterThanOrEqual(56);
    expect([...EVENT_TYPE_NAMES].sort()).toEqual([...official, ...USAGE_BASED].sort());
  });

  it('marks only the usage-based types early access', () => {
    const early = EVENT_TYPE_NAMES.filter((name) => EVENT_TYPES[name].earlyAccess);
    expect(early.sort()).toEqual([...USAGE_BASED].sort());
  });

  it('gives the Drawdown SDK the same list, in the same order', () => {
    expect([...SDK_EVENT_TYPE_NAMES]).toEqual([...EVENT_TYPE_NAMES]);
  });

  it('types in the Drawdown SDK every event type the service emits', () => {
    const emitted = emittedEventTypes();
    expect(emitted).toEqual(expect.arrayContaining(['adjustment.created', 'adjustment.updated', 'api_key.created']));
    expect(emitted.filter((name) => !isKnownEventType(name))).toEqual([]);
  });

  it('says of every type who emits it, and describes each in the reference style', () => {
    for (const name of EVENT_TYPE_NAMES) {
      expect(['drawdown', 'elsewhere', 'never']).toContain(EVENT_TYPES[name].emitted);
      expect(EVENT_TYPES[name].description).toMatch(/^Occurs when /);
    }
    expect(EVENT_TYPES['payout.paid'].emitted).toBe('never');
  });
});
