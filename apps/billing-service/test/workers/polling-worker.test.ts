/**
 * The polling worker's pacing under load: batches that find work follow each other no sooner
 * than `busyIntervalMs` after the previous one started, and a wake does not cut that short.
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
    // kept, so one more batch looks at once, and only then the worker sleeps its idle time.
    expect(starts).toEqual([start, start + 10, start + 20, start + 30, start + 30]);
    await vi.advanceTimersByTimeAsync(999);
    expect(starts).toHaveLength(5);
    const stopped = worker.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });
});
