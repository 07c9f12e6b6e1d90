import { describe, expect, it } from 'vitest';
import { chooseClaims } from './delivery.js';
import type { DueNotification } from './repositories.js';

const scope = { accountId: 'acc_01h0000000000000000000000a', environment: 'live' as const };
const due = (id: string, notificationSettingId: string): DueNotification => ({ scope, id, notificationSettingId });

describe('chooseClaims', () => {
  it('takes the oldest due notifications up to the limit', () => {
    const list = [due('1', 'a'), due('2', 'b'), due('3', 'c')];
    expect(chooseClaims(list, 2, new Map(), 2).map((item) => item.id)).toEqual(['1', '2']);
  });

  it('gives no destination more than its share, so a backlog cannot crowd out the others', () => {
    const list = [due('1', 'slow'), due('2', 'slow'), due('3', 'slow'), due('4', 'fast'), due('5', 'slow')];
    expect(chooseClaims(list, 8, new Map(), 2).map((item) => item.id)).toEqual(['1', '2', '4']);
  });

  it('counts the attempts already in flight against the share', () => {
    const list = [due('1', 'slow'), due('2', 'fast')];
    expect(chooseClaims(list, 8, new Map([['slow', 2]]), 2).map((item) => item.id)).toEqual(['2']);
  });
});
