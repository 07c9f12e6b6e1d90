import { describe, expect, it } from 'vitest';
import { assertStatusTransition, NEXT_STATUSES, SUBSCRIPTION_STATUSES } from './subscription.js';

describe('the subscription status table', () => {
  it('allows every move it lists and staying put', () => {
    for (const from of SUBSCRIPTION_STATUSES) {
      expect(() => assertStatusTransition(from, from)).not.toThrow();
      for (const to of NEXT_STATUSES[from]) expect(() => assertStatusTransition(from, to)).not.toThrow();
    }
  });

  it('refuses every move it does not list', () => {
    expect(() => assertStatusTransition('canceled', 'active')).toThrow('cannot move from canceled to active');
    expect(() => assertStatusTransition('paused', 'past_due')).toThrow('cannot move from paused to past_due');
    const refused = SUBSCRIPTION_STATUSES.flatMap((from) =>
      SUBSCRIPTION_STATUSES.filter((to) => to !== from && !(NEXT_STATUSES[from] as readonly string[]).includes(to)).map(
        (to) => [from, to] as const,
      ),
    );
    expect(refused.length).toBeGreaterThan(5);
    for (const [from, to] of refused) expect(() => assertStatusTransition(from, to)).toThrow();
  });
});
