/**
 * @module
 * The document pool (ADR 1491): invoice and credit note PDFs are rendered, and logo files
 * decoded, in a small pool of worker threads (piscina), never on the event loop that answers
 * every tenant's API requests. A PDF takes tens of milliseconds of CPU and a logo check up to
 * a few hundred; on the event loop one link holder's downloads raised another tenant's median
 * latency from 1-3 ms to 37-60 ms (issue 32).
 *
 * - **Threads:** `--document-workers`, by default one fewer than the machine's cores (at least
 *   one, at most four), so the event loop keeps a core. Started with the first document asked
 *   for (a CLI command that renders nothing starts none) and kept: each thread parses pdfkit's
 *   fonts once.
 * - **Queue:** at most `--document-queue` documents wait for a thread; one more is refused with
 *   `documents_busy` (503, Retry-After) instead of queueing without bound.
 * - **Memory:** each thread's JavaScript heap is capped (`--document-worker-memory-mb`, the
 *   worker's `resourceLimits`); a thread over it is ended and replaced, and its task fails alone.
 *   Pixel buffers live outside that heap: the logo limits (ADR 1490) bound them.
 * - **Shutdown:** `close()` lets every queued and running document finish, then ends the threads.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import {
  BillingError,
  type DecodedImage,
  type ImageDecoder,
  type InvoiceDocument,
  LOGO_LIMITS,
} from '@drawdown/billing-core';
import { Piscina } from 'piscina';
import type { DocumentResult, DocumentTask } from './document-worker.js';

export interface DocumentPoolOptions {
  /** Worker threads rendering at once. */
  readonly threads: number;
  /** Documents that may wait for a thread; one more is refused with `documents_busy`. */
  readonly queue: number;
  /** Each thread's JavaScript heap ceiling (V8 old generation), in MiB. */
  readonly memoryMb: number;
  /** Hears failures of the pool itself (a close that timed out); not task failures, which reject their task. */
  readonly onError?: ((message: string, error: unknown) => void) | undefined;
}

/** One fewer thread than the machine's cores, at least one and at most four: the event loop keeps a core. */
export function defaultDocumentThreads(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}

export const DEFAULT_DOCUMENT_QUEUE = 64;
export const DEFAULT_DOCUMENT_WORKER_MEMORY_MB = 256;

export interface DocumentPoolFigures {
  /** Worker threads started and not ended. */
  readonly threads: number;
  /** Documents waiting for a thread. */
  readonly queued: number;
  /** Documents asked for and not yet finished: the queued ones and those on a thread. */
  readonly inFlight: number;
  /** Documents finished (rendered or refused) since the pool started, by kind. */
  readonly completed: { readonly invoice: number; readonly logo: number };
  /** Documents refused because the queue was full. */
  readonly refused: number;
  /** The worker threads that did the work, by `threadId`. */
  readonly threadIds: readonly number[];
}

export interface RenderedPdf {
  readonly pdf: Buffer;
  /** The worker thread that rendered it. */
  readonly threadId: number;
}

export interface DocumentPool {
  /** Renders an invoice or credit note document as PDF bytes on a worker thread. */
  renderInvoice(document: InvoiceDocument): Promise<RenderedPdf>;
  /** The core's `ImageDecoder` port: logo files decoded on a worker thread. */
  readonly images: ImageDecoder;
  figures(): DocumentPoolFigures;
  /** Lets queued and running documents finish, then ends the threads; later documents are refused. */
  close(): Promise<void>;
}

const HERE = import.meta.url;
/** Run from the TypeScript sources (tests), the threads load them through tsx, a development dependency. */
const FROM_SOURCES = HERE.endsWith('.ts');
const WORKER_FILE = new URL(`./document-worker.${FROM_SOURCES ? 'ts' : 'js'}`, HERE);

function workerExecArgv(): string[] {
  if (!FROM_SOURCES) return [];
  // tsx's own `--import tsx` registers in the main thread only; a thread registers its API. The
  // ES module build of that API sits beside the CommonJS one `require.resolve` finds.
  const api = pathToFileURL(
    createRequire(HERE)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = `import { register } from ${JSON.stringify(api)}; register();`;
  return ['--import', `data:text/javascript,${encodeURIComponent(source)}`];
}

function busy(): BillingError {
  return new BillingError(
    'documents_busy',
    'The service is rendering as many documents as it queues; retry in a few seconds.',
  );
}

function isQueueFull(error: unknown): boolean {
  return error instanceof Error && /^(Task queue is at limit|No task queue available)/.test(error.message);
}

export function createDocumentPool(options: DocumentPoolOptions): DocumentPool {
  let pool: Piscina<DocumentTask, DocumentResult> | undefined;
  let closed = false;
  let inFlight = 0;
  let refused = 0;
  const completed = { invoice: 0, logo: 0 };
  const threadIds = new Set<number>();

  function started(): Piscina<DocumentTask, DocumentResult> {
    if (pool) return pool;
    pool = new Piscina<DocumentTask, DocumentResult>({
      filename: WORKER_FILE.href,
      name: 'runDocumentTask',
      minThreads: options.threads,
      maxThreads: options.threads,
      maxQueue: options.queue,
      // A thread stays for the life of the service: each one parses the fonts once.
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
      execArgv: workerExecArgv(),
      // Results are waited for with promises; a thread never blocks on Atomics between tasks.
      atomics: 'disabled',
      recordTiming: false,
    });
    pool.on('error', (error: unknown) => options.onError?.('document pool', error));
    return pool;
  }

  async function run(task: DocumentTask): Promise<DocumentResult> {
    if (closed) throw new Error('the document pool is closed');
    inFlight += 1;
    try {
      const result = await started().run(task);
      threadIds.add(result.threadId);
      completed[result.kind] += 1;
      return result;
    } catch (error) {
      if (isQueueFull(error)) {
        refused += 1;
        throw busy();
      }
      throw error;
    } finally {
      inFlight -= 1;
    }
  }

  return {
    async renderInvoice(document) {
      const result = await run({ kind: 'invoice', document });
      if (result.kind !== 'invoice') throw new Error('the document pool answered a render with a logo');
      return {
        pdf: Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength),
        threadId: result.threadId,
      };
    },
    images: {
      async decode(bytes): Promise<DecodedImage> {
        const limits = { maxSide: LOGO_LIMITS.maxSide, maxDecodedBytes: LOGO_LIMITS.maxDecodedBytes };
        try {
          const result = await run({ kind: 'logo', bytes, limits });
          if (result.kind !== 'logo') throw new Error('the document pool answered a logo with a render');
          return result.image;
        } catch (error) {
          // A thread that ran out of heap is replaced; the file is what took it.
          if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
            return { ok: false, problem: 'decoding it takes more memory than a document thread has' };
          }
          throw error;
        }
      },
    },
    figures() {
      return {
        threads: pool?.threads.length ?? 0,
        queued: pool?.queueSize ?? 0,
        inFlight,
        completed: { ...completed },
        refused,
        threadIds: [...threadIds],
      };
    },
    async close() {
      closed = true;
      const running = pool;
      pool = undefined;
      await running?.close();
    },
  };
}
