/**
 * @module
 * What the client takes from its surroundings: time, waiting and randomness. Tests replace them
 * to prove retry and hold rules without waiting on the wall clock.
 */

export interface Runtime {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `milliseconds`. */
  sleep(milliseconds: number): Promise<void>;
  /** A number in [0, 1), for backoff jitter. */
  random(): number;
}

export const systemRuntime: Runtime = {
  now: () => Date.now(),
  sleep: (milliseconds) =>
    new Promise((resolve) => {
      setTimeout(resolve, Math.max(0, milliseconds));
    }),
  random: () => Math.random(),
};
