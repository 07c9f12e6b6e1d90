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
  readonly errorPauseMs?: number;
  readonly onError: (message: string, error: unknown) => void;
}

export function createPollingWorker(options: PollingWorkerOptions): Worker {
  let running = false;
  let loop: Promise<void> | undefined;
  let wakeSleeper: (() => void) | undefined;
  let wakeRequested = false;

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

  async function run(): Promise<void> {
    while (running) {
      let foundWork = false;
      try {
        foundWork = await options.runBatch();
      } catch (error) {
        options.onError(`${options.name} batch failed`, error);
        await sleep(options.errorPauseMs ?? 1_000);
        continue;
      }
      if (!foundWork && running) await sleep(options.idleMs);
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
      await loop;
    },
    wake() {
      if (wakeSleeper) wakeSleeper();
      else wakeRequested = true;
    },
  };
}
