/**
 * @module
 * Imports a feed into the catalogue in batches, reporting progress and every rejected row with its reason.
 * Rows are independent: a bad row is counted and skipped, never fatal.
 */
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

/** Reads the feed at `input.path` and upserts its valid rows into `store`. */
export async function importFeed(store: Catalogue, input: ImportFeedInput): Promise<ImportReport> {
  const batchSize = input.batchSize ?? 2_000;
  const rejections: RowRejection[] = [];
  const seen = new Set<string>();
  let batch: CatalogueItem[] = [];
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
    await store.upsert(batch, input.origin);
    imported += batch.length;
    batch = [];
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
    const key = `${check.item.network}\u0000${check.item.itemId}`;
    if (seen.has(key)) {
      reject({ position: row.position, itemId: check.item.itemId, reason: 'duplicate id in this feed' });
      continue;
    }
    seen.add(key);
    batch.push(check.item);
  }
  await flush();
  input.onProgress?.({ read, imported, rejected, bytesRead });
  return { read, imported, rejected, rejections };
}
