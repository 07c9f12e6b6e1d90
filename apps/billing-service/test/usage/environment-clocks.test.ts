/**
 * The sandbox clock offsets a process keeps (ADR 0729), on a real store of both engines: an
 * offset read is kept until a second after its read started, and not after; a move written
 * through the store `forgetClockOnMove` returns (in or out of a transaction, committed or not)
 * makes the next reading come from the store at once; a read overtaken by such a move is not
 * kept; live never reads the store.
 */
import { type BillingHarness, ENGINES, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEnvironmentClocks, forgetClockOnMove } from '../../src/infrastructure/environment-clocks.js';

const WALL = 1_800_000_000_000;
const wallClock = { now: () => WALL };

describe.each(ENGINES)('%s: sandbox clock offsets kept in process', (engine) => {
  let harness: BillingHarness;
  let accounts = 0;

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
  });
  afterAll(() => harness.close());

  /** An account id of its own per test: offsets are rows keyed by it. */
  const newAccountId = () => {
    accounts += 1;
    return `acc_clockcache${accounts}`;
  };

  function steppedClocks() {
    let monotonic = 5_000;
    let reads = 0;
    const repository = harness.services.store.sandboxClocks;
    const clocks = createEnvironmentClocks(
      {
        offsetOf: (accountId) => {
          reads += 1;
          return repository.offsetOf(accountId);
        },
      },
      wallClock,
      { ttlMs: 1_000, now: () => monotonic },
    );
    return {
      clocks,
      reads: () => reads,
      advance: (ms: number) => {
        monotonic += ms;
      },
    };
  }

  const sandboxNow = async (clocks: ReturnType<typeof createEnvironmentClocks>, accountId: string) =>
    (await clocks.clockFor({ accountId, environment: 'sandbox' })).now() - WALL;

  it('keeps an offset until a second after its read started, then reads the store again', async () => {
    const { clocks, reads, advance } = steppedClocks();
    const accountId = newAccountId();
    expect(await sandboxNow(clocks, accountId)).toBe(0);
    // Another process moves the clock: this cache does not hear of it.
    await harness.services.store.sandboxClocks.setOffset(accountId, 60_000);
    advance(999);
    expect(await sandboxNow(clocks, accountId)).toBe(0);
    expect(reads()).toBe(1);
    advance(1);
    expect(await sandboxNow(clocks, accountId)).toBe(60_000);
    expect(reads()).toBe(2);
  });

  it('forgets an account at once, and does not keep a read the forgetting overtook', async () => {
    const { clocks, reads } = steppedClocks();
    const accountId = newAccountId();
    await harness.services.store.sandboxClocks.setOffset(accountId, 1_000);
    const inFlight = clocks.clockFor({ accountId, environment: 'sandbox' });
    clocks.forget(accountId);
    expect((await inFlight).now() - WALL).toBe(1_000);
    await harness.services.store.sandboxClocks.setOffset(accountId, 2_000);
    expect(await sandboxNow(clocks, accountId)).toBe(2_000);
    expect(await sandboxNow(clocks, accountId)).toBe(2_000);
    expect(reads()).toBe(2);
  });

  it('forgets the accounts a store moved, outside a transaction and once one commits or rolls back', async () => {
    const { clocks, reads } = steppedClocks();
    const store = forgetClockOnMove(harness.services.store, clocks);
    const [outside, committed, rolledBack] = [newAccountId(), newAccountId(), newAccountId()];
    for (const accountId of [outside, committed, rolledBack]) expect(await sandboxNow(clocks, accountId)).toBe(0);
    expect(reads()).toBe(3);

    await store.sandboxClocks.setOffset(outside, 3_000);
    expect(await sandboxNow(clocks, outside)).toBe(3_000);

    await store.transaction((tx) => tx.sandboxClocks.setOffset(committed, 4_000));
    expect(await sandboxNow(clocks, committed)).toBe(4_000);

    await expect(
      store.transaction(async (tx) => {
        await tx.sandboxClocks.setOffset(rolledBack, 5_000);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await sandboxNow(clocks, rolledBack)).toBe(0);
    expect(reads()).toBe(6);
  });

  it('never reads the store for live', async () => {
    const { clocks, reads } = steppedClocks();
    const clock = await clocks.clockFor({ accountId: newAccountId(), environment: 'live' });
    expect(clock).toBe(wallClock);
    expect(reads()).toBe(0);
  });
});
