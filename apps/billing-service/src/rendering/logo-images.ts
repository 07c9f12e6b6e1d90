/**
 * @module
 * The image decoder behind seller logos (ADR 1106). A logo is what its bytes are, never what a
 * name or a declared type says: the signature picks PNG or JPEG, the header's size is checked
 * before any pixel is inflated (no decompression bombs), then the whole file is decoded (pngjs,
 * jpeg-js: checksums, every scanline, every scan), and finally drawn once into a throwaway PDF
 * with pdfkit, so that a logo that was accepted always renders on an invoice.
 */
import type { DecodedImage, ImageDecoder } from '@drawdown/billing-core';
import { LOGO_LIMITS } from '@drawdown/billing-core';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

/** The size a PNG's IHDR chunk declares (bytes 16-23, big-endian), read before inflating anything. */
function pngHeaderSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function decodePixels(bytes: Uint8Array): DecodedImage {
  const tooLarge = (width: number, height: number): DecodedImage => ({
    ok: false,
    problem: `${width} × ${height} pixels is more than ${LOGO_LIMITS.maxSide} a side`,
  });
  if (startsWith(bytes, PNG_SIGNATURE)) {
    const header = pngHeaderSize(bytes);
    if (!header) return { ok: false, problem: 'the PNG header is cut short' };
    if (header.width > LOGO_LIMITS.maxSide || header.height > LOGO_LIMITS.maxSide)
      return tooLarge(header.width, header.height);
    const image = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return { ok: true, contentType: 'image/png', width: image.width, height: image.height };
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    const limitMp = (LOGO_LIMITS.maxSide * LOGO_LIMITS.maxSide) / 1_000_000;
    const image = jpeg.decode(bytes, { useTArray: true, maxResolutionInMP: limitMp, maxMemoryUsageInMB: 64 });
    return { ok: true, contentType: 'image/jpeg', width: image.width, height: image.height };
  }
  return { ok: false, problem: 'its bytes are neither a PNG nor a JPEG file' };
}

/** Draws the image into a PDF that is thrown away: pdfkit's own PNG and JPEG readers must take it too. */
async function drawsInPdf(bytes: Uint8Array): Promise<void> {
  // Loaded on first use: pdfkit and its fonts cost a third of a second to import, which every
  // short CLI process would pay otherwise.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: [100, 100], margin: 0 });
    pdf.on('data', () => {});
    pdf.on('end', () => resolve());
    pdf.on('error', reject);
    try {
      pdf.image(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, 0, { fit: [100, 100] });
      pdf.end();
    } catch (error) {
      reject(error);
    }
  });
}

export const logoImageDecoder: ImageDecoder = {
  async decode(bytes) {
    let decoded: DecodedImage;
    try {
      decoded = decodePixels(bytes);
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
  },
};
