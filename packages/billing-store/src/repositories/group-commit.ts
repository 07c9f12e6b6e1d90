/**
 * @module
 * Group commit: concurrent callers share one database commit. Items queue up while the
 * current batch commits; the next batch takes everything queued, up to `maxBatch`. Each
 * caller's promise settles only after the commit that holds its item, so an answer sent on
 * it is durable. One fsync per batch instead of per request is what lets durable ingestion
 * keep up with the HTTP layer.
 *
 * A batch that fails is committed again item by item, so an item that can never commit fails
 * alone and never takes its neighbours (another tenant's, say) down with it (ADR 0901). The
 * fallback costs nothing while batches succeed.
 */
import { CommitNotDurable } from '../sql/sql-database.js';

interface Waiting<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result) => void;
  readonly reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  readonly maxBatch: number;
  /** Batches committing at once: 1 for SQLite's single writer, more for a PostgreSQL pool. */
  readonly maxInFlight: number;
}

export class GroupCommit<Item, Result> {
  private queue: Waiting<Item, Result>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly commit: (items: readonly Item[]) => Promise<readonly Result[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    // setImmediate runs after the current round of I/O, so requests already read join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private async commitOneByOne(batch: readonly Waiting<Item, Result>[]): Promise<void> {
    for (const waiting of batch) {
      try {
        const [result] = await this.commit([waiting.item]);
        waiting.resolve(result as Result);
      } catch (error) {
        waiting.reject(error);
      }
    }
  }

  private drain(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      this.commit(batch.map((waiting) => waiting.item))
        .then(
          (results) => {
            for (const [index, waiting] of batch.entries()) waiting.resolve(results[index] as Result);
          },
          (error: unknown) => {
            // A batch committed whose sync failed is not committed again item by item: its
            // items' outcome is unknown, not failed (ADR 0732).
            if (batch.length === 1 || error instanceof CommitNotDurable) {
              for (const waiting of batch) waiting.reject(error);
              return;
            }
            return this.commitOneByOne(batch);
          },
        )
        .finally(() => {
          this.inFlight -= 1;
          if (this.queue.length > 0) this.schedule();
        });
    }
  }
}
