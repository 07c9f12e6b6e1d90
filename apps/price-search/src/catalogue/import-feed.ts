/**
 * @module
 * Imports a feed into the catalogue in batches, reporting progress and every rejected row with its reason.
 * Rows are independent: a bad row is counted and skipped, never fatal. Memory does not grow with the feed: rows
 * are streamed, and an id the feed repeats is found within the batch, or in the catalogue itself for earlier
 * batches (every row is stamped with this import's id), never in a set of every id seen.
 */
import { randomUUID } from 'node:crypto';
import type { NetworkId } from '../listing/networks.js';
import type { Catalogue } from './catalogue.js';
import { type CatalogueItem, checkFeedRow, type RowRejection } from './feed/feed-record.js';
import { type FeedFormat, readFeed } from './feed/read-feed.js';

/** Options of one import. */
export interface ImportFeedInput {
  readonly path: string;
  readonly format?: FeedFormat;
  /** Network of rows without a `network` column. */
  readonly network?: NetworkId;
  /** Called after each batch with the running totals. */
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Called for each rejected row. */
  readonly onRejected?: (rejection: RowRejection) => void;
  readonly batchSize?: number;
  /** The live feed and refresh run the rows come from (see `CatalogueStore.upsert`). */
  readonly origin?: { readonly feedId: string; readonly run: number };
}

/** Running totals of an import. */
export interface ImportProgress {
  readonly read: number;
  readonly imported: number;
  readonly rejected: number;
  /** Bytes of the feed file read so far (every format is streamed). */
  readonly bytesRead?: number | undefined;
}

/** The result of an import. */
export interface ImportReport extends ImportProgress {
  /** Rejections, capped at the first 1,000 so a broken feed cannot exhaust memory. */
  readonly rejections: readonly RowRejection[];
}

const MAX_KEPT_REJECTIONS = 1_000;
const DUPLICATE = 'duplicate id in this feed';

/** Reads the feed at `input.path` and upserts its valid rows into `store`. */
export async function importFeed(store: Catalogue, input: ImportFeedInput): Promise<ImportReport> {
  const batchSize = input.batchSize ?? 2_000;
  const rejections: RowRejection[] = [];
  const importId = randomUUID();
  const key = (item: CatalogueItem): string => `${item.network}\u0000${item.itemId}`;
  // Keys of the batch being filled: a repeat within it is refused as it is read.
  const inBatch = new Set<string>();
  let batch: { readonly item: CatalogueItem; readonly position: number }[] = [];
  let read = 0;
  let imported = 0;
  let rejected = 0;

  const reject = (rejection: RowRejection): void => {
    rejected += 1;
    if (rejections.length < MAX_KEPT_REJECTIONS) rejections.push(rejection);
    input.onRejected?.(rejection);
  };
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    // A repeat of an id an earlier batch of this import wrote: the first one stays, as within a batch.
    const written = await store.importedBy(
      importId,
      batch.map((entry) => entry.item),
    );
    const fresh: CatalogueItem[] = [];
    for (const { item, position } of batch) {
      if (written.has(key(item))) reject({ position, itemId: item.itemId, reason: DUPLICATE });
      else fresh.push(item);
    }
    if (fresh.length > 0) await store.upsert(fresh, input.origin, importId);
    imported += fresh.length;
    batch = [];
    inBatch.clear();
  };

  let bytesRead: number | undefined;
  for await (const row of readFeed(input.path, input.format)) {
    read += 1;
    bytesRead = row.bytesRead;
    if (read % batchSize === 0) {
      await flush();
      input.onProgress?.({ read, imported, rejected, bytesRead });
    }
    const check = checkFeedRow(row, input.network);
    if (!check.ok) {
      reject({ position: check.position, itemId: check.itemId, reason: check.reason });
      continue;
    }
    if (inBatch.has(key(check.item))) {
      reject({ position: row.position, itemId: check.item.itemId, reason: DUPLICATE });
      continue;
    }
    inBatch.add(key(check.item));
    batch.push({ item: check.item, position: row.position });
  }
  await flush();
  input.onProgress?.({ read, imported, rejected, bytesRead });
  return { read, imported, rejected, rejections };
}
