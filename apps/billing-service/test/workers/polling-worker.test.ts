/**
 * The polling worker's pacing under load: a batch follows the previous one no sooner than
 * `busyIntervalMs` after it started, whether that one found work or a wake cut an idle sleep
 * short (ADR 0726); a wake after a long idle sleep runs a batch at once.
 * Fake timers make the schedule exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPollingWorker } from '../../src/workers/polling-worker.js';

describe('a polling worker with a busy interval', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts the next busy batch only when the interval since the last start has passed', async () => {
    const starts: number[] = [];
    let work = 3;
    const worker = createPollingWorker({
      name: 'test',
      idleMs: 1_000,
      busyIntervalMs: 10,
      onError: () => {},
      runBatch: async () => {
        starts.push(Date.now());
        work -= 1;
        return work >= 0;
      },
    });
    const start = Date.now();
    worker.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([start]);
    worker.wake();
    await vi.advanceTimersByTimeAsync(9);
    expect(starts).toEqual([start]);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([start, start + 10]);
    await vi.advanceTimersByTimeAsync(20);
    // Three batches found work and the fourth none; the wake that came during the pause is
    // kept, so one more batch looks, but only once the interval since the fourth started has
    // passed (ADR 0726), and only then the worker sleeps its idle time.
    expect(starts).toEqual([start, start + 10, start + 20, start + 30]);
    await vi.advanceTimersByTimeAsync(9);
    expect(starts).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([start, start + 10, start + 20, start + 30, start + 40]);
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toHaveLength(5);
    const stopped = worker.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });

  it('runs a woken batch at once after a long idle sleep, and no sooner than the interval after an empty batch', async () => {
    const starts: number[] = [];
    const worker = createPollingWorker({
      name: 'test',
      idleMs: 1_000,
      busyIntervalMs: 10,
      onError: () => {},
      runBatch: async () => {
        starts.push(Date.now());
        return false;
      },
    });
    const start = Date.now();
    worker.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([start]);
    // A wake 2 ms after an empty batch started: the events it announces gather until 10 ms.
    await vi.advanceTimersByTimeAsync(2);
    worker.wake();
    await vi.advanceTimersByTimeAsync(7);
    expect(starts).toEqual([start]);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([start, start + 10]);
    // A wake after a long idle sleep starts a batch at once: a lone event waits for nothing.
    await vi.advanceTimersByTimeAsync(500);
    worker.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([start, start + 10, start + 510]);
    const stopped = worker.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });
});
