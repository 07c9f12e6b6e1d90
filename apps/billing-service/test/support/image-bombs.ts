/**
 * @module
 * Hostile image files for the logo limits (ADR 1490), built byte by byte: small files whose
 * headers declare far more than they carry, or whose compressed data inflates to far more than
 * their header declares. Each is a well-formed file otherwise (valid chunk checksums, segment
 * lengths), so only the limits can refuse it.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, checksum]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(width: number, height: number, depth: number, colourType: number, interlace: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = depth;
  data[9] = colourType;
  data[12] = interlace;
  return chunk('IHDR', data);
}

/**
 * A PNG whose IDAT holds `inflatedBytes` zero bytes deflated (level 9, about 1,000 to 1), under a
 * header of `width` × `height` 8-bit RGBA, interlaced: with 250 MiB under 64 × 64 pixels, the
 * 255 KB file of issue 32 that took 250 MB to check.
 */
export function inflationBombPng(width: number, height: number, inflatedBytes: number): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height, 8, 6, 1),
    chunk('IDAT', deflateSync(Buffer.alloc(inflatedBytes), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG declaring `width` × `height` 16-bit RGBA, interlaced, with a few bytes of image data. */
export function hugeDeclaredPng(width: number, height: number): Buffer {
  return Buffer.concat([
    PNG_SIGNATURE,
    ihdr(width, height, 16, 6, 1),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A JPEG frame header declaring `width` × `height` with three components, then `scans` short
 * scans, then EOI: a baseline frame for one scan, a progressive one for more.
 */
export function hugeDeclaredJpeg(width: number, height: number, scans = 1): Buffer {
  const sof = Buffer.from([
    0xff,
    scans > 1 ? 0xc2 : 0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x11,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3f, 0x00]);
  const scan = Buffer.concat([sos, Buffer.alloc(32, 0x55)]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, ...Array(scans).fill(scan), Buffer.from([0xff, 0xd9])]);
}
