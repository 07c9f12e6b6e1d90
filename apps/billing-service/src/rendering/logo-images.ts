/**
 * @module
 * The image decoder behind seller logos (ADRs 1106, 1490). A logo is what its bytes are, never
 * what a name or a declared type says. The core has already read the header and refused a file
 * declaring more than the limits (`logo_too_large`); this decoder runs in the document worker
 * pool (ADR 1491), off the event loop, and trusts nothing it is given:
 *
 * - PNG: the declared size is checked again, then the image data (the IDAT chunks) is inflated
 *   with the exact size the header implies as its ceiling, so a stream that inflates to more
 *   is refused after that many bytes, never after all of it (an interlaced PNG of a few pixels
 *   whose data inflates to 250 MB was the decompression bomb of issue 32); then pngjs decodes
 *   the whole file (checksums, every scanline).
 * - JPEG: jpeg-js decodes every scan with its resolution and memory ceilings set from the limits.
 * - Both: the image is drawn once into a throwaway PDF with pdfkit, so that a logo that was
 *   accepted always renders on an invoice.
 */
import { inflateSync } from 'node:zlib';
import type { DecodedImage } from '@drawdown/billing-core';
import jpeg from 'jpeg-js';
import PDFDocument from 'pdfkit';
import { PNG } from 'pngjs';

/** The limits the decoder holds a file to; the core's `LOGO_LIMITS` (the worker never imports the core). */
export interface LogoDecodeLimits {
  readonly maxSide: number;
  readonly maxDecodedBytes: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** The seven passes of Adam7 interlacing: first column and row, column and row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

interface PngLayout {
  readonly width: number;
  readonly height: number;
  /** height × bytes per row of samples: the figure the limits are about, as the core reads it. */
  readonly decodedBytes: number;
  /** Bytes the image data inflates to: each row's filter byte and samples, per interlace pass. */
  readonly inflatedBytes: number;
  /** The IDAT chunks' data, in order. */
  readonly imageData: Buffer;
}

/** The IHDR facts and the image data of a PNG, read chunk by chunk without inflating anything. */
function pngLayout(bytes: Buffer): PngLayout | string {
  if (bytes.length < 33) return 'the PNG header is cut short';
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const depth = bytes[24] ?? 0;
  const channels = CHANNELS[bytes[25] ?? -1];
  if (channels === undefined) return 'the PNG names an unknown colour type';
  const interlaced = bytes[28] === 1;
  const rowBytes = (pixels: number) => 1 + Math.ceil((pixels * channels * depth) / 8);
  let inflatedBytes = 0;
  for (const [column, row, columnStep, rowStep] of interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const)) {
    const passWidth = Math.ceil((width - column) / columnStep);
    const passHeight = Math.ceil((height - row) / rowStep);
    if (passWidth > 0 && passHeight > 0) inflatedBytes += passHeight * rowBytes(passWidth);
  }
  const idat: Buffer[] = [];
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) return `the PNG's ${type} chunk is cut short`;
    if (type === 'IDAT') idat.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const decodedBytes = height * (rowBytes(width) - 1);
  return { width, height, decodedBytes, inflatedBytes, imageData: Buffer.concat(idat) };
}

function decodePng(bytes: Buffer, limits: LogoDecodeLimits): DecodedImage {
  const layout = pngLayout(bytes);
  if (typeof layout === 'string') return { ok: false, problem: layout };
  const { width, height, inflatedBytes } = layout;
  if (width > limits.maxSide || height > limits.maxSide || layout.decodedBytes > limits.maxDecodedBytes) {
    return { ok: false, problem: `${width} × ${height} pixels is more than the limits` };
  }
  try {
    // The ceiling is what the header declares: one byte more and zlib stops.
    inflateSync(layout.imageData, { maxOutputLength: inflatedBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      return {
        ok: false,
        problem: `its image data inflates to more than the ${inflatedBytes} bytes its header declares`,
      };
    }
    return { ok: false, problem: `its image data does not inflate (${(error as Error).message})` };
  }
  const image = PNG.sync.read(bytes);
  return { ok: true, contentType: 'image/png', width: image.width, height: image.height };
}

function decodeJpeg(bytes: Buffer, limits: LogoDecodeLimits): DecodedImage {
  const image = jpeg.decode(bytes, {
    useTArray: true,
    maxResolutionInMP: (limits.maxSide * limits.maxSide) / 1_000_000,
    // Its coefficients (2 bytes a sample) and its RGBA output (4 bytes a pixel), with room to spare.
    maxMemoryUsageInMB: Math.ceil((limits.maxDecodedBytes * 6) / 1024 / 1024) + 8,
  });
  return { ok: true, contentType: 'image/jpeg', width: image.width, height: image.height };
}

/** Draws the image into a PDF that is thrown away: pdfkit's own PNG and JPEG readers must take it too. */
function drawsInPdf(bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: [100, 100], margin: 0 });
    pdf.on('data', () => {});
    pdf.on('end', () => resolve());
    pdf.on('error', reject);
    try {
      pdf.image(bytes, 0, 0, { fit: [100, 100] });
      pdf.end();
    } catch (error) {
      reject(error);
    }
  });
}

/** Decodes a logo file whole, within `limits`; runs in a document worker. */
export async function decodeLogoImage(data: Uint8Array, limits: LogoDecodeLimits): Promise<DecodedImage> {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let decoded: DecodedImage;
  try {
    if (startsWith(bytes, PNG_SIGNATURE)) decoded = decodePng(bytes, limits);
    else if (startsWith(bytes, [0xff, 0xd8, 0xff])) decoded = decodeJpeg(bytes, limits);
    else decoded = { ok: false, problem: 'its bytes are neither a PNG nor a JPEG file' };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
  if (!decoded.ok) return decoded;
  try {
    await drawsInPdf(bytes);
  } catch (error) {
    return { ok: false, problem: `the PDF writer cannot draw it: ${error instanceof Error ? error.message : error}` };
  }
  return decoded;
}
