/**
 * @module
 * A background loop that runs one batch of work after another. While batches find work it
 * runs them back to back; when idle it sleeps `idleMs`, or until `wake()` says new work
 * arrived. A failing batch is reported and retried after a pause; it never stops the loop.
 */

export interface Worker {
  readonly name: string;
  start(): void;
  /** Lets the current batch finish, then stops. */
  stop(): Promise<void>;
  /** Runs the next batch now instead of at the end of the idle sleep. */
  wake(): void;
}

export interface PollingWorkerOptions {
  readonly name: string;
  /** Does one batch; resolves true when it found work (so another batch runs at once). */
  readonly runBatch: () => Promise<boolean>;
  readonly idleMs: number;
  /**
   * While batches find work, the next starts no sooner than this after the previous one
   * started, so work arriving meanwhile joins one batch instead of one each (0: at once).
   */
  readonly busyIntervalMs?: number;
  readonly errorPauseMs?: number;
  readonly onError: (message: string, error: unknown) => void;
}

export function createPollingWorker(options: PollingWorkerOptions): Worker {
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeSleeper: (() => void) | undefined;
  let wakeRequested = false;
  let stopPause: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (wakeRequested) {
        wakeRequested = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeSleeper = undefined;
        resolve();
      }
      wakeSleeper = done;
    });

  /** A wait that `wake()` does not cut short (`stop()` does). */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) {
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        stopPause = undefined;
        resolve();
      }
      stopPause = done;
    });

  async function run(): Promise<void> {
    while (running) {
      let foundWork = false;
      const startedAt = Date.now();
      try {
        foundWork = await options.runBatch();
      } catch (error) {
        options.onError(`${options.name} batch failed`, error);
        await sleep(options.errorPauseMs ?? 1_000);
        continue;
      }
      if (!foundWork && running) await sleep(options.idleMs);
      else if (running) await pause(startedAt + (options.busyIntervalMs ?? 0) - Date.now());
    }
  }

  return {
    name: options.name,
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wakeSleeper?.();
      stopPause?.();
      await loop;
    },
    wake() {
      if (wakeSleeper) wakeSleeper();
      else wakeRequested = true;
    },
  };
}
