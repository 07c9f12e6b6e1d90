/**
 * @module
 * What a logo file declares about itself, read from its header without decoding a pixel
 * (ADR 1490): the format, the size in pixels, how many bytes its pixels take once decoded, and
 * for a JPEG how many scans a decoder would walk. The seller details refuse a logo over the
 * limits on these figures before the image decoder (a port) is ever called, so a small file
 * declaring a huge image costs nothing but this walk over its bytes.
 *
 * PNG: the signature, then the IHDR chunk, which must come first (13 bytes: width, height, bit
 * depth, colour type, compression, filter and interlace method), in one of the combinations
 * the PNG specification allows. JPEG: the marker segments up to the end of the image, the
 * first frame header (SOFn: sample precision, height, width, components) and the number of
 * start-of-scan markers; the entropy-coded data between markers is skipped by its rule that
 * 0xFF is always followed by 0x00 or a restart marker.
 */
export type LogoHeader =
  | {
      readonly ok: true;
      readonly contentType: 'image/png' | 'image/jpeg';
      readonly width: number;
      readonly height: number;
      /** height × bytes per row (width × channels × bits per sample, rounded up to whole bytes). */
      readonly decodedBytes: number;
      /** JPEG: the start-of-scan markers (a progressive image has several); PNG: 1. */
      readonly scans: number;
    }
  | { readonly ok: false; readonly problem: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** Channels per PNG colour type, and the bit depths each allows (PNG specification, table 11.1). */
const PNG_COLOUR_TYPES: Readonly<Record<number, { channels: number; depths: readonly number[] }>> = {
  0: { channels: 1, depths: [1, 2, 4, 8, 16] },
  2: { channels: 3, depths: [8, 16] },
  3: { channels: 1, depths: [1, 2, 4, 8] },
  4: { channels: 2, depths: [8, 16] },
  6: { channels: 4, depths: [8, 16] },
};

const IHDR = [0x49, 0x48, 0x44, 0x52] as const;

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, index) => bytes[at + index] === byte);
}

function uint32(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] ?? 0) * 0x1000000 + (bytes[at + 1] ?? 0) * 0x10000 + (bytes[at + 2] ?? 0) * 0x100 + (bytes[at + 3] ?? 0)
  );
}

function uint16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function decodedBytes(width: number, height: number, channels: number, bitsPerSample: number): number {
  return height * Math.ceil((width * channels * bitsPerSample) / 8);
}

function pngHeader(bytes: Uint8Array): LogoHeader {
  // Signature (8), chunk length (4), "IHDR" (4), 13 bytes of data, CRC (4).
  if (bytes.length < 33) return { ok: false, problem: 'the PNG header is cut short' };
  if (uint32(bytes, 8) !== 13 || !startsWith(bytes, IHDR, 12)) {
    return { ok: false, problem: 'the PNG does not start with its IHDR chunk' };
  }
  const width = uint32(bytes, 16);
  const height = uint32(bytes, 20);
  const [depth = 0, colourType = 0, compression = 0, filter = 0, interlace = 0] = bytes.subarray(24, 29);
  const colour = PNG_COLOUR_TYPES[colourType];
  if (!colour || !colour.depths.includes(depth)) {
    return { ok: false, problem: `colour type ${colourType} with ${depth}-bit samples is not a PNG format` };
  }
  if (compression !== 0 || filter !== 0 || interlace > 1) {
    return { ok: false, problem: 'the PNG header names an unknown compression, filter or interlace method' };
  }
  if (width === 0 || height === 0) return { ok: false, problem: 'the PNG declares no pixels' };
  return {
    ok: true,
    contentType: 'image/png',
    width,
    height,
    decodedBytes: decodedBytes(width, height, colour.channels, depth),
    scans: 1,
  };
}

/** Start-of-frame markers (SOF0-3, 5-7, 9-11, 13-15): DHT (C4), JPG (C8) and DAC (CC) are not frames. */
function isFrameMarker(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers that stand alone, without a length: TEM, the restart markers, SOI and EOI. */
function standsAlone(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9);
}

function jpegHeader(bytes: Uint8Array): LogoHeader {
  let frame: { width: number; height: number; components: number; precision: number } | undefined;
  let scans = 0;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return { ok: false, problem: 'the JPEG has bytes between its segments' };
    while (bytes[at] === 0xff) at += 1; // fill bytes
    const marker = bytes[at];
    at += 1;
    if (marker === undefined) break;
    if (marker === 0xd9) return jpegFound(frame, scans);
    if (standsAlone(marker)) continue;
    if (at + 2 > bytes.length) break;
    const length = uint16(bytes, at);
    if (length < 2 || at + length > bytes.length) break;
    if (isFrameMarker(marker)) {
      if (frame) return { ok: false, problem: 'the JPEG has more than one frame' };
      if (length < 8) return { ok: false, problem: 'the JPEG frame header is cut short' };
      frame = {
        precision: bytes[at + 2] ?? 0,
        height: uint16(bytes, at + 3),
        width: uint16(bytes, at + 5),
        components: bytes[at + 7] ?? 0,
      };
      if (frame.width === 0 || frame.height === 0) {
        return { ok: false, problem: 'the JPEG declares no width or no height in its frame header' };
      }
      if (frame.components === 0 || frame.components > 4) {
        return { ok: false, problem: `a JPEG of ${frame.components} components is not an image format` };
      }
    }
    at += length;
    if (marker !== 0xda) continue;
    if (!frame) return { ok: false, problem: 'the JPEG has a scan before its frame header' };
    scans += 1;
    // The scan's entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a restart.
    while (at < bytes.length) {
      if (bytes[at] === 0xff) {
        const next = bytes[at + 1];
        if (next !== 0x00 && !(next !== undefined && next >= 0xd0 && next <= 0xd7)) break;
        at += 2;
      } else {
        at += 1;
      }
    }
  }
  // Data ending inside a scan is the decoder's to judge (some writers leave out the end marker).
  return frame && scans > 0 && at >= bytes.length
    ? jpegFound(frame, scans)
    : { ok: false, problem: 'the JPEG is cut short' };
}

function jpegFound(
  frame: { width: number; height: number; components: number; precision: number } | undefined,
  scans: number,
): LogoHeader {
  if (!frame) return { ok: false, problem: 'the JPEG has no frame header' };
  return {
    ok: true,
    contentType: 'image/jpeg',
    width: frame.width,
    height: frame.height,
    decodedBytes: decodedBytes(frame.width, frame.height, frame.components, frame.precision > 8 ? 16 : 8),
    scans,
  };
}

/** The header of a PNG or JPEG file, or why the bytes are not one. */
export function readLogoHeader(bytes: Uint8Array): LogoHeader {
  if (startsWith(bytes, PNG_SIGNATURE)) return pngHeader(bytes);
  if (startsWith(bytes, [0xff, 0xd8])) return jpegHeader(bytes);
  return { ok: false, problem: 'its bytes are neither a PNG nor a JPEG file' };
}
