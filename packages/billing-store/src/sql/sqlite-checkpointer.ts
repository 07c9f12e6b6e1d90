/**
 * @module
 * WAL checkpoints on a thread of their own (ADR 0714). SQLite checkpoints inside the commit
 * that crosses `wal_autocheckpoint` pages: with better-sqlite3 that commit runs on the event
 * loop, which then copies pages and fsyncs the database file while no request is parsed. Here
 * the writer never checkpoints; a worker thread with its own connection runs a PASSIVE
 * checkpoint (it never waits for, nor blocks, the writer or readers) every `everyMs`.
 *
 * A WAL file keeps the size of the largest burst it held: SQLite reuses it from the start rather
 * than shrink it. When a passive checkpoint has copied everything and the file is larger than the
 * limit, the thread truncates it to zero (`wal_checkpoint(TRUNCATE)`, without waiting: a reader
 * still in the WAL makes it try again on the next turn); `journal_size_limit` bounds what is left
 * whenever the writer restarts the WAL (ADR 1488).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The worker's code, run as CommonJS: it loads the same better-sqlite3 as the service. */
const CHECKPOINTER_SOURCE = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require(workerData.driver);
const connection = new Sqlite(workerData.file);
connection.pragma('synchronous = ' + workerData.synchronous);
connection.pragma('journal_size_limit = ' + workerData.walLimitBytes);
// A TRUNCATE checkpoint that cannot have the database at once gives up until the next turn: it
// must never keep the writer (on the event loop) waiting for readers to finish.
connection.pragma('busy_timeout = 0');
const walFile = workerData.file + '-wal';
function walSize() {
  try {
    return statSync(walFile).size;
  } catch {
    return 0;
  }
}
let turn = 0;
const timer = setInterval(() => {
  turn += 1;
  try {
    const [result] = connection.pragma('wal_checkpoint(PASSIVE)');
    let truncated = false;
    // After a burst the WAL file keeps its size: once everything in it is copied, empty it.
    if (result && result.busy === 0 && result.log === result.checkpointed && walSize() > workerData.walLimitBytes) {
      const [done] = connection.pragma('wal_checkpoint(TRUNCATE)');
      truncated = done !== undefined && done.busy === 0;
    }
    if ((result && result.log > 0) || truncated) {
      parentPort.postMessage({ turn, frames: result ? result.log : 0, copied: result ? result.checkpointed : 0, truncated });
    }
  } catch {
    // A busy database is checkpointed on the next turn.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  connection.close();
  parentPort.close();
});
`;

export const CHECKPOINT_EVERY_MS = 100;

/** What the last checkpoint that found frames in the WAL did: frames in the log, frames copied. */
export interface CheckpointResult {
  /** Counts the thread's checkpoints, so a caller can wait for one that started after its writes. */
  readonly turn: number;
  readonly frames: number;
  readonly copied: number;
  /** Whether this turn truncated the WAL file after a burst (ADR 1488). */
  readonly truncated: boolean;
}

export interface Checkpointer {
  readonly last: CheckpointResult | undefined;
  /** Stops the thread after its current checkpoint. */
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, synchronous: 'FULL' | 'NORMAL', walLimitBytes: number): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER_SOURCE, {
    eval: true,
    workerData: { driver, file, synchronous, walLimitBytes, everyMs: CHECKPOINT_EVERY_MS },
  });
  // Never what keeps a process alive; a failure to start leaves the WAL to grow, so it is loud.
  worker.unref();
  worker.on('error', (error) => {
    console.error('[drawdown] the SQLite checkpoint thread failed:', error);
  });
  let last: CheckpointResult | undefined;
  worker.on('message', (result: CheckpointResult) => {
    last = result;
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    get last() {
      return last;
    },
    async stop() {
      // Waiting for the thread must keep the process alive until it has closed its connection.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
