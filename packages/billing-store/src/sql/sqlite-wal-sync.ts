/**
 * @module
 * Durable SQLite commits without the fsync on the event loop (ADR 0732). The writer connection
 * commits with `synchronous = NORMAL` (the commit appends its frames to the WAL and returns, no
 * fsync); each write transaction's caller then waits here for an fdatasync of the WAL file that
 * started after its commit, run on libuv's thread pool. A sync covers every frame written before
 * it started, whatever other syncs of the file are under way; up to two run at once (ADR 0740),
 * and one that waits for either to end serves every commit made while both run (group commit at
 * the sync), and the event loop parses, validates and commits the next batch meanwhile.
 *
 * What a caller is told is what `synchronous = FULL` told it: once its promise resolves, the
 * commit survives power loss. The WAL's frame checksums are chained, so after a crash SQLite
 * recovers a prefix of the commits: a later commit never survives without an earlier one.
 */
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/**
 * Syncs that may run at once (ADR 0740). A commit made while one sync runs starts a second at once
 * instead of waiting for the first to end, so a batch waits for one sync, not up to two; commits
 * made while two run share the one that starts when either ends.
 */
const CONCURRENT_SYNCS = 2;

export class WalSync {
  /** The syncs running now. */
  private readonly running = new Set<Promise<void>>();
  /** The sync that starts when a running one ends: every commit made meanwhile waits for it. */
  private queued: Promise<void> | undefined;
  /** The WAL directory's one sync, under way or done. */
  private directory: Promise<void> | undefined;
  /** Syncs completed; read by tests and the bench. */
  syncs = 0;

  private readonly file: SyncableFile;

  /** `file`: the WAL file's path, or (in tests) something whose syncs the test controls. */
  constructor(
    private readonly walFile: string,
    file?: SyncableFile,
  ) {
    this.file = file ?? new OpenFile(walFile);
  }

  /** Resolves once an fdatasync of the WAL that started after this call has completed. */
  afterCommit(): Promise<void> {
    if (this.queued) return this.queued;
    if (this.running.size < CONCURRENT_SYNCS) return this.start();
    const queued = Promise.race(
      [...this.running].map((sync) =>
        sync.then(
          () => undefined,
          () => undefined,
        ),
      ),
    ).then(() => {
      this.queued = undefined;
      return this.start();
    });
    this.queued = queued;
    return queued;
  }

  /** Resolves once no sync is running or waiting to run. */
  async idle(): Promise<void> {
    for (;;) {
      const pending = this.queued ?? this.running.values().next().value;
      if (!pending) return;
      await pending.catch(() => undefined);
    }
  }

  /** Waits for the syncs under way, then closes the file. */
  async close(): Promise<void> {
    await this.idle();
    await this.file.close();
  }

  private start(): Promise<void> {
    const sync: Promise<void> = this.syncOnce().finally(() => {
      this.running.delete(sync);
    });
    this.running.add(sync);
    return sync;
  }

  private async syncOnce(): Promise<void> {
    await this.file.sync();
    this.syncs += 1;
    // The WAL file's own directory entry, once: SQLite creates the file at the first write. A sync
    // running beside the first waits for it too before it answers its commits.
    this.directory ??= syncDirectory(dirname(this.walFile)).catch((error: unknown) => {
      this.directory = undefined;
      throw error;
    });
    await this.directory;
  }
}

/** A file whose written bytes can be made durable. */
export interface SyncableFile {
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The WAL file, opened at its first sync and kept open: `fdatasync` on libuv's thread pool. While
 * the database is open in this process SQLite never deletes or replaces its WAL file (it does so
 * only when the last connection closes), it only truncates it, so the descriptor stays the file's.
 * After a failed sync the file is opened anew.
 */
class OpenFile implements SyncableFile {
  /** The open file, shared by the syncs that run at once (ADR 0740). */
  private handle: Promise<FileHandle | undefined> | undefined;

  constructor(private readonly path: string) {}

  async sync(): Promise<void> {
    this.handle ??= open(this.path, 'r+').catch((error: unknown) => {
      this.handle = undefined;
      // No WAL file: nothing was written to it since the last connection checkpointed and removed it.
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    });
    const handle = await this.handle;
    if (!handle) return;
    try {
      await handle.datasync();
    } catch (error) {
      // Opened anew by the next sync; a sync running beside this one on the same handle finishes
      // first (a handle closes once its operations under way have ended).
      if ((await this.handle?.catch(() => undefined)) === handle) this.handle = undefined;
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await (await handle?.catch(() => undefined))?.close().catch(() => undefined);
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
