/**
 * @module
 * Durable SQLite commits without the fsync on the event loop (ADR 0732). The writer connection
 * commits with `synchronous = NORMAL` (the commit appends its frames to the WAL and returns, no
 * fsync); each write transaction's caller then waits here for an fdatasync of the WAL file that
 * started after its commit, run on libuv's thread pool. A sync covers every frame written before
 * it started, so one sync serves every commit made while the previous one ran (group commit at
 * the sync), and the event loop parses, validates and commits the next batch meanwhile.
 *
 * What a caller is told is what `synchronous = FULL` told it: once its promise resolves, the
 * commit survives power loss. The WAL's frame checksums are chained, so after a crash SQLite
 * recovers a prefix of the commits: a later commit never survives without an earlier one.
 */
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

export class WalSync {
  /** The sync running now, if any. */
  private running: Promise<void> | undefined;
  /** The sync that starts when the running one ends: every commit made meanwhile waits for it. */
  private queued: Promise<void> | undefined;
  private directorySynced = false;
  /** Syncs completed; read by tests and the bench. */
  syncs = 0;

  constructor(
    private readonly walFile: string,
    /** Makes the file's written bytes durable; the tests give one they control. */
    private readonly syncFile: (file: string) => Promise<void> = datasyncFile,
  ) {}

  /** Resolves once an fdatasync of the WAL that started after this call has completed. */
  afterCommit(): Promise<void> {
    if (this.queued) return this.queued;
    const running = this.running;
    if (!running) return this.start();
    const queued = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    this.queued = queued;
    return queued;
  }

  /** Resolves once no sync is running or waiting to run. */
  async idle(): Promise<void> {
    for (;;) {
      const pending = this.queued ?? this.running;
      if (!pending) return;
      await pending.catch(() => undefined);
    }
  }

  private start(): Promise<void> {
    const sync: Promise<void> = this.syncOnce().finally(() => {
      if (this.running === sync) this.running = undefined;
    });
    this.running = sync;
    return sync;
  }

  private async syncOnce(): Promise<void> {
    await this.syncFile(this.walFile);
    this.syncs += 1;
    if (!this.directorySynced) {
      // The WAL file's own directory entry, once: SQLite creates the file at the first write.
      this.directorySynced = true;
      await syncDirectory(dirname(this.walFile));
    }
  }
}

/** fdatasync of a file on libuv's thread pool; a file that does not exist has nothing to sync. */
export async function datasyncFile(file: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r+');
  } catch (error) {
    // No WAL file: the last connection closed and checkpointed it into the synced database.
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    // Some platforms and file systems cannot fsync a directory; SQLite ignores the same failure.
    if (!['EISDIR', 'EINVAL', 'EPERM', 'EACCES', 'ENOTSUP'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}
