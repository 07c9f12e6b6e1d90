/**
 * A virtual clock for the retry rules: `sleep` records the wait and moves time forward at once,
 * so a test can prove "nothing was sent before Retry-After passed" without waiting.
 */
import type { Runtime } from '@drawdown/sdk';

export interface FakeRuntime extends Runtime {
  /** Every wait asked for, in order. */
  readonly sleeps: number[];
  /** Sets what `random()` answers. */
  setRandom(value: number): void;
}

export function fakeRuntime(start = Date.now()): FakeRuntime {
  let time = start;
  let randomValue = 0.5;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    sleep: async (milliseconds) => {
      sleeps.push(milliseconds);
      time += Math.max(0, milliseconds);
      await new Promise((resolve) => setImmediate(resolve));
    },
    random: () => randomValue,
    setRandom: (value) => {
      randomValue = value;
    },
  };
}
