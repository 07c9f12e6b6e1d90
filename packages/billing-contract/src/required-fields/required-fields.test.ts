import { describe, expect, it } from 'vitest';
import { RESPONSE_SCHEMAS } from '../index.js';
import { eventDataKind, missingEventFields, missingRequiredFields } from './check.js';
import { COMPONENT_KINDS, EVENT_DATA_KINDS, REQUIRED_FIELDS } from './fields.js';

const kindOf = (rule: string) => rule.replace(/^~/, '').replace(/\?$/, '').replace(/\[\]$/, '');

describe('the required field lists (ADR 1474)', () => {
  it('name only kinds that have a list', () => {
    const named = [
      ...Object.values(REQUIRED_FIELDS).flatMap((fields) => Object.values(fields).map(kindOf)),
      ...Object.values(EVENT_DATA_KINDS),
      ...Object.values(COMPONENT_KINDS),
    ].filter((kind): kind is string => kind !== null && kind !== 'value');
    expect([...new Set(named)].filter((kind) => !(kind in REQUIRED_FIELDS))).toEqual([]);
  });

  it('use only the rule forms the check reads', () => {
    const rules = Object.values(REQUIRED_FIELDS).flatMap((fields) => Object.values(fields));
    expect(rules.filter((rule) => !/^~?[a-z_]+(\[\])?\??$/.test(rule))).toEqual([]);
  });

  it('cover every component the contract registers, as a kind or as Drawdown’s own', () => {
    const ids = [...RESPONSE_SCHEMAS._idmap.keys()];
    expect(ids.length).toBeGreaterThan(40);
    expect(ids.filter((id) => !(id in COMPONENT_KINDS))).toEqual([]);
  });
});

describe('the check', () => {
  const period = { starts_at: '2026-01-01T00:00:00Z', ends_at: '2026-02-01T00:00:00Z' };

  it('names a missing field, a null where none is allowed, and a nested one, by path', () => {
    expect(missingRequiredFields('proration', { rate: '1' })).toEqual([
      'data.billing_period: missing (required in proration)',
    ]);
    expect(missingRequiredFields('proration', { rate: null, billing_period: { starts_at: 'x' } })).toEqual([
      'data.rate: null, but proration documents it as never null',
      'data.billing_period.ends_at: missing (required in period)',
    ]);
    expect(missingRequiredFields('proration', { rate: '1', billing_period: period })).toEqual([]);
  });

  it('allows null where the rule does, and an absent include', () => {
    expect(missingRequiredFields('checkout', { url: null })).toEqual([]);
    expect(missingRequiredFields('subscription_discount', { id: 'dsc_1', starts_at: null, ends_at: null })).toEqual([]);
  });

  it('checks every element of a list', () => {
    const findings = missingRequiredFields('business', {
      ...Object.fromEntries(Object.keys(REQUIRED_FIELDS.business ?? {}).map((name) => [name, 'x'])),
      import_meta: null,
      contacts: [{ name: 'Ada', email: 'ada@example.com' }, { name: 'Bob' }],
    });
    expect(findings).toEqual(['data.contacts[1].email: missing (required in contact)']);
  });

  it('fails closed: an unknown kind or event type is a finding', () => {
    expect(missingRequiredFields('no_such_kind', {})).toEqual(['data: no required field list for kind no_such_kind']);
    const event = {
      event_id: 'evt_1',
      event_type: 'gadget.created',
      occurred_at: 'x',
      notification_id: 'ntf_1',
      data: {},
    };
    expect(missingEventFields(event)).toEqual(['event.data: no required field list for event type gadget.created']);
    expect(eventDataKind('meter.created')).toBeNull();
    expect(eventDataKind('payment_method.deleted')).toBe('payment_method_deleted');
    expect(eventDataKind('payment_method.saved')).toBe('payment_method_event');
  });

  it('holds an event’s data to its event type’s kind', () => {
    const event = {
      event_id: 'evt_1',
      event_type: 'customer.created',
      occurred_at: 'x',
      notification_id: 'ntf_1',
      data: { id: 'ctm_1' },
    };
    expect(missingEventFields(event)).toContain('event.data.email: missing (required in customer)');
  });
});
