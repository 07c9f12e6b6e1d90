/**
 * @module
 * A background loop that runs one batch of work after another. While batches find work it
 * runs them back to back; when idle it sleeps `idleMs`, or until `wake()` says new work
 * arrived. A failing batch is reported and retried after a pause; it never stops the loop.
 * Each batch is traced as the root span of its own trace (ADR 1452), named `<worker> batch`; a
 * batch that did nothing is marked idle, and tracing drops it.
 */

import { NO_SPANS, type Spans } from '../operations/spans.js';
import { IDLE_BATCH_ATTRIBUTE } from '../operations/tracing-attributes.js';

export interface Worker {
  readonly name: string;
  start(): void;
  /** Lets the current batch finish, then stops. */
  stop(): Promise<void>;
  /** Runs the next batch now instead of at the end of the idle sleep. */
  wake(): void;
}

/** What a batch tells its span: how many of each thing it handled. */
export interface BatchRecord {
  /** Records `drawdown.batch.<name>`; a count above zero means the batch did work (it is not idle). */
  count(name: string, value: number): void;
}

export interface PollingWorkerOptions {
  readonly name: string;
  /**
   * Does one batch; resolves true when it found work (so another batch runs at once). A batch
   * that resolves false and counted nothing above zero is idle.
   */
  readonly runBatch: (batch: BatchRecord) => Promise<boolean>;
  readonly idleMs: number;
  /**
   * A batch starts no sooner than this after the previous one started (after a long idle sleep
   * that is at once), so work arriving meanwhile joins one batch instead of one each (0: at once).
   */
  readonly busyIntervalMs?: number;
  readonly errorPauseMs?: number;
  readonly onError: (message: string, error: unknown) => void;
  /** Where batches are traced; nowhere when absent. */
  readonly spans?: Spans | undefined;
}

/** Runs one batch inside its span, marking it idle when it did nothing. */
function tracedBatch(spans: Spans, name: string, runBatch: PollingWorkerOptions['runBatch']): Promise<boolean> {
  return spans.inSpan(`${name} batch`, { kind: 'internal', batch: name }, async (span) => {
    let worked = false;
    const foundWork = await runBatch({
      count: (counted, value) => {
        span.setAttributes({ [`drawdown.batch.${counted}`]: value });
        if (value > 0) worked = true;
      },
    });
    span.setAttributes({ 'drawdown.batch.found_work': foundWork, [IDLE_BATCH_ATTRIBUTE]: !foundWork && !worked });
    return foundWork;
  });
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
        foundWork = await tracedBatch(options.spans ?? NO_SPANS, options.name, options.runBatch);
      } catch (error) {
        options.onError(`${options.name} batch failed`, error);
        await sleep(options.errorPauseMs ?? 1_000);
        continue;
      }
      if (!foundWork && running) await sleep(options.idleMs);
      // Whether the batch found work or a wake cut its idle sleep short, the next starts no sooner
      // than the interval after this one started: a wake that arrives right after an empty batch
      // (the events it announces were taken by the batch before) waits for more to gather rather
      // than running an empty batch again at once (ADR 0726).
      if (running) await pause(startedAt + (options.busyIntervalMs ?? 0) - Date.now());
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
