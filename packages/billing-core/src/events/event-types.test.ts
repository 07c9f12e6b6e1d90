import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Account } from '../shared/scope.js';
import { describeEventType, EVENT_TYPES, isEventTypeAvailable, listEventTypes } from './event-types.js';

const account = (earlyAccess: boolean): Account => ({
  id: 'acc_01h0000000000000000000000a',
  name: 'Test',
  earlyAccess,
  createdAt: '2026-01-01T00:00:00.000Z',
});

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('event types', () => {
  it('lists usage_balance.depleted, meters and usage balance units only for early-access accounts', () => {
    const earlyAccess = listEventTypes(account(true)).map((type) => type.name);
    const other = listEventTypes(account(false)).map((type) => type.name);
    for (const name of ['usage_balance.depleted', 'meter.created', 'meter.updated', 'usage_balance_unit.created']) {
      expect(earlyAccess).toContain(name);
      expect(other).not.toContain(name);
    }
    expect(other).toContain('subscription.updated');
    expect(other).toContain('transaction.completed');
    expect(isEventTypeAvailable(account(false), 'usage_balance.depleted')).toBe(false);
  });

  it('describes each type with its group and version 1', () => {
    expect(describeEventType('product.created')).toEqual({
      name: 'product.created',
      description: 'Occurs when a product is created.',
      group: 'Product',
      availableVersions: [1],
    });
  });

  it('marks the usage balance unit events, absent from the reference, as an extension', () => {
    expect(describeEventType('usage_balance_unit.updated').group).toMatch(/Drawdown extension/);
  });

  it('still describes a name the table no longer holds', () => {
    expect(describeEventType('gone.away')).toMatchObject({ name: 'gone.away', group: 'Other' });
    expect(isEventTypeAvailable(account(true), 'gone.away')).toBe(false);
  });

  it('lists every event type the core records', () => {
    const recorded = new Set<string>();
    for (const file of sourceFiles(join(import.meta.dirname, '..'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/recordEvent\([^;]*?'([a-z_]+\.[a-z_]+)'/g)) {
        if (match[1]) recorded.add(match[1]);
      }
    }
    expect(recorded.size).toBeGreaterThan(5);
    expect([...recorded].filter((name) => !Object.hasOwn(EVENT_TYPES, name))).toEqual([]);
  });
});
