/**
 * @module
 * One thread of the document pool (ADR 1491): renders invoice and credit note PDFs and decodes
 * logo files, off the service's event loop. Loaded by piscina in each worker thread; pdfkit and
 * the fonts are parsed once per thread, when the thread starts. It imports no value from the
 * core, only types: a thread holds the renderer and the decoders, nothing else.
 */
import { threadId } from 'node:worker_threads';
import type { DecodedImage, InvoiceDocument } from '@drawdown/billing-core';
import { renderInvoicePdf } from './invoice-pdf.js';
import { decodeLogoImage, type LogoDecodeLimits } from './logo-images.js';

export type DocumentTask =
  | { readonly kind: 'invoice'; readonly document: InvoiceDocument }
  | { readonly kind: 'logo'; readonly bytes: Uint8Array; readonly limits: LogoDecodeLimits };

export type DocumentResult =
  | { readonly kind: 'invoice'; readonly threadId: number; readonly pdf: Uint8Array }
  | { readonly kind: 'logo'; readonly threadId: number; readonly image: DecodedImage };

export async function runDocumentTask(task: DocumentTask): Promise<DocumentResult> {
  if (task.kind === 'invoice') return { kind: 'invoice', threadId, pdf: await renderInvoicePdf(task.document) };
  return { kind: 'logo', threadId, image: await decodeLogoImage(task.bytes, task.limits) };
}
