import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  grantablePermissions,
  isPermission,
  type Permission,
  permits,
  requiresEarlyAccess,
} from './permissions.js';

const writes = ALL_PERMISSIONS.filter((permission) => permission.endsWith('.write'));
/** Writes with nothing to read: the public API issues customer auth tokens and never shows them again. */
const WRITE_ONLY: readonly Permission[] = ['customer_auth_token.write'];
const readable = writes.filter((write) => !WRITE_ONLY.includes(write));
const reads = ALL_PERMISSIONS.filter((permission) => permission.endsWith('.read'));
const readOf = (write: Permission) => write.replace(/\.write$/, '.read') as Permission;

const USAGE_BASED: readonly Permission[] = [
  'usage_balance_unit.read',
  'usage_balance_unit.write',
  'meter.read',
  'meter.write',
  'usage_balance.read',
  'usage_event.read',
  'usage_event.write',
];

describe('permissions', () => {
  it('names every permission of the seed', () => {
    for (const name of [
      'usage_balance_unit.write',
      'meter.write',
      'price.write',
      'usage_event.write',
      'usage_balance.read',
      'transaction.read',
    ]) {
      expect(isPermission(name), name).toBe(true);
    }
  });

  it('has a read for every write but the write-only ones, which have none', () => {
    for (const write of readable) expect(reads, write).toContain(readOf(write));
    for (const write of WRITE_ONLY) expect(isPermission(readOf(write)), write).toBe(false);
  });

  it('lets each write imply its read', () => {
    for (const write of readable) expect(permits([write], readOf(write)), write).toBe(true);
  });

  it('does not let a read imply its write', () => {
    for (const write of writes) expect(permits([readOf(write)], write), write).toBe(false);
  });

  it('does not let one resource’s write imply another resource’s read', () => {
    expect(permits(['price.write'], 'product.read')).toBe(false);
    expect(permits(['usage_balance_unit.write'], 'usage_balance.read')).toBe(false);
    expect(permits(['meter.write'], 'usage_event.read')).toBe(false);
  });

  it('grants what is held and nothing without a key permission', () => {
    for (const permission of ALL_PERMISSIONS) {
      expect(permits([permission], permission)).toBe(true);
      expect(permits([], permission)).toBe(false);
    }
  });

  it('refuses unknown names', () => {
    for (const name of [
      'all',
      'product',
      'product.delete',
      'usage_balance.write',
      'PRODUCT.READ',
      '',
      ' product.read',
    ]) {
      expect(isPermission(name), name).toBe(false);
    }
  });

  it('marks exactly the usage-based billing permissions as early access', () => {
    expect(ALL_PERMISSIONS.filter(requiresEarlyAccess).sort()).toEqual([...USAGE_BASED].sort());
  });

  it('offers usage-based permissions only to early-access accounts', () => {
    expect(grantablePermissions(true)).toEqual(ALL_PERMISSIONS);
    const ordinary = grantablePermissions(false);
    for (const permission of USAGE_BASED) expect(ordinary).not.toContain(permission);
    expect(ordinary).toEqual(ALL_PERMISSIONS.filter((permission) => !USAGE_BASED.includes(permission)));
    expect(ordinary).toContain('price.write');
    expect(ordinary).toContain('transaction.read');
  });
});
