/**
 * @module
 * Real image files for logo tests, made by the same libraries' encoders (pngjs, jpeg-js): a
 * coloured block with a diagonal, so a decoder has real pixels to read.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

function pixels(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const onDiagonal = Math.abs(x * height - y * width) < width * 2;
      data[at] = onDiagonal ? 255 : 20;
      data[at + 1] = onDiagonal ? 255 : 90;
      data[at + 2] = onDiagonal ? 255 : 160;
      data[at + 3] = 255;
    }
  }
  return data;
}

/** A PNG file of `width` × `height` pixels. */
export function pngFile(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  pixels(width, height).copy(png.data);
  return PNG.sync.write(png);
}

/** A baseline JPEG file of `width` × `height` pixels. */
export function jpegFile(width: number, height: number): Buffer {
  return jpeg.encode({ width, height, data: pixels(width, height) }, 90).data;
}

/** A 240 × 80 PNG logo, base64. */
export const LOGO_PNG_BASE64 = pngFile(240, 80).toString('base64');
