import { describe, expect, it } from 'vitest';
import { spread } from './provider-webhooks.js';

describe('spread: a refund made at the provider over what remains of each line (ADR 1461)', () => {
  it('splits in proportion, exactly, the rounding units going to lines with room', () => {
    const lines = [
      { itemId: 'a', total: 1000n },
      { itemId: 'b', total: 333n },
      { itemId: 'c', total: 1n },
    ];
    const shares = spread(700n, lines);
    expect(shares.reduce((sum, share) => sum + share.amount, 0n)).toBe(700n);
    for (const share of shares) {
      expect(share.amount).toBeLessThanOrEqual(lines.find((line) => line.itemId === share.itemId)?.total ?? 0n);
    }
    // 700 × 1000 / 1334 = 524.7…, 700 × 333 / 1334 = 174.7…, 700 × 1 / 1334 = 0.5…: floors 524, 174, 0; two units left.
    expect(shares).toEqual([
      { itemId: 'a', amount: 526n },
      { itemId: 'b', amount: 174n },
    ]);
  });

  it('takes a whole line when the amount is all that remains', () => {
    expect(spread(50n, [{ itemId: 'a', total: 50n }])).toEqual([{ itemId: 'a', amount: 50n }]);
  });
});
