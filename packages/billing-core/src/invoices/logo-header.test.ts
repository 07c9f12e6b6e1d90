/**
 * What a logo's header declares (ADR 1490), read from hand-built headers: PNG's IHDR in every
 * colour type, interlaced or not, JPEG's frame header and its scans, and the files that are
 * neither or are cut short.
 */
import { describe, expect, it } from 'vitest';
import { readLogoHeader } from './logo-header.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function be32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

/** A PNG signature and IHDR chunk (checksum not checked by the header reader), then four bytes. */
function png(width: number, height: number, depth: number, colourType: number, interlace = 0): Uint8Array {
  return Uint8Array.from([
    ...SIGNATURE,
    ...be32(13),
    ...[0x49, 0x48, 0x44, 0x52],
    ...be32(width),
    ...be32(height),
    depth,
    colourType,
    0,
    0,
    interlace,
    ...be32(0),
    0,
    0,
    0,
    0,
  ]);
}

/** SOI, a frame header (`marker`), `scans` scans of a few entropy-coded bytes each (one stuffed 0xFF00 and a restart), EOI. */
function jpeg(width: number, height: number, components: number, scans: number, marker = 0xc2): Uint8Array {
  const frame = [0xff, marker, 0x00, 8 + 3 * components, 8, height >> 8, height & 0xff, width >> 8, width & 0xff];
  frame.push(components);
  for (let index = 1; index <= components; index += 1) frame.push(index, 0x11, 0);
  const scan = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56];
  const table = [0xff, 0xc4, 0x00, 0x04, 0x00, 0x00];
  return Uint8Array.from([0xff, 0xd8, ...table, ...frame, ...Array(scans).fill(scan).flat(), 0xff, 0xd9]);
}

describe('readLogoHeader', () => {
  it('reads a PNG’s size and the bytes its samples take, whatever the colour type and depth', () => {
    const cases: [Uint8Array, number][] = [
      [png(1024, 1024, 8, 6), 1024 * 1024 * 4],
      [png(1024, 1024, 8, 6, 1), 1024 * 1024 * 4],
      [png(2048, 2048, 16, 6, 1), 2048 * 2048 * 8],
      [png(300, 100, 8, 2), 300 * 3 * 100],
      [png(300, 100, 16, 4), 300 * 4 * 100],
      [png(2048, 2048, 8, 3), 2048 * 2048],
      [png(1001, 10, 1, 0), 126 * 10],
      [png(999, 7, 2, 3), 250 * 7],
    ];
    for (const [bytes, decodedBytes] of cases) {
      expect(readLogoHeader(bytes)).toMatchObject({ ok: true, contentType: 'image/png', decodedBytes, scans: 1 });
    }
    expect(readLogoHeader(png(0x7fff_ffff, 3, 8, 6))).toMatchObject({ width: 0x7fff_ffff, height: 3 });
  });

  it('refuses PNG headers that are no PNG format, or cut short', () => {
    const problems: [Uint8Array, string][] = [
      [png(10, 10, 16, 3), 'colour type 3 with 16-bit samples is not a PNG format'],
      [png(10, 10, 4, 2), 'colour type 2 with 4-bit samples is not a PNG format'],
      [png(10, 10, 8, 5), 'colour type 5 with 8-bit samples is not a PNG format'],
      [png(10, 10, 8, 6, 2), 'the PNG header names an unknown compression, filter or interlace method'],
      [png(0, 10, 8, 6), 'the PNG declares no pixels'],
      [png(10, 10, 8, 6).subarray(0, 30), 'the PNG header is cut short'],
      [
        Uint8Array.from([...SIGNATURE, ...be32(13), 0x49, 0x44, 0x41, 0x54, ...Array(21).fill(0)]),
        'the PNG does not start with its IHDR chunk',
      ],
    ];
    for (const [bytes, problem] of problems) expect(readLogoHeader(bytes)).toEqual({ ok: false, problem });
  });

  it('reads a JPEG’s frame header and counts its scans past stuffed bytes and restarts', () => {
    expect(readLogoHeader(jpeg(65_535, 65_535, 3, 1, 0xc0))).toEqual({
      ok: true,
      contentType: 'image/jpeg',
      width: 65_535,
      height: 65_535,
      decodedBytes: 65_535 * 65_535 * 3,
      scans: 1,
    });
    expect(readLogoHeader(jpeg(640, 480, 1, 10))).toMatchObject({ decodedBytes: 640 * 480, scans: 10 });
    expect(readLogoHeader(jpeg(16, 16, 4, 101))).toMatchObject({ decodedBytes: 16 * 16 * 4, scans: 101 });
    // Data that ends inside a scan is left to the decoder.
    const unended = jpeg(64, 64, 3, 2);
    expect(readLogoHeader(unended.subarray(0, unended.length - 2))).toMatchObject({ ok: true, scans: 2 });
  });

  it('refuses JPEGs without a usable frame header, and files of neither kind', () => {
    const problems: [Uint8Array, string][] = [
      [jpeg(64, 0, 3, 1), 'the JPEG declares no width or no height in its frame header'],
      [jpeg(64, 64, 5, 1), 'a JPEG of 5 components is not an image format'],
      [Uint8Array.from([0xff, 0xd8, 0xff, 0xd9]), 'the JPEG has no frame header'],
      [jpeg(64, 64, 3, 1).subarray(0, 12), 'the JPEG is cut short'],
      [Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), 'its bytes are neither a PNG nor a JPEG file'],
    ];
    for (const [bytes, problem] of problems) expect(readLogoHeader(bytes)).toEqual({ ok: false, problem });
    const twoFrames = Uint8Array.from([...jpeg(64, 64, 1, 0).subarray(0, -2), ...jpeg(64, 64, 1, 1).subarray(8)]);
    expect(readLogoHeader(twoFrames)).toEqual({ ok: false, problem: 'the JPEG has more than one frame' });
  });
});
