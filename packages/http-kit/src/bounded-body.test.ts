import { describe, expect, it } from 'vitest';
import { readTextWithin } from './bounded-body.js';

/** A request whose body is an endless stream of 1 KiB chunks; counts the chunks pulled. */
function endlessRequest(): { request: Request; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      controller.enqueue(new Uint8Array(1_024).fill(97));
    },
  });
  const request = new Request('http://localhost/', { method: 'POST', body, duplex: 'half' } as RequestInit);
  return { request, pulled: () => pulled };
}

describe('readTextWithin', () => {
  it('reads a body within the limit', async () => {
    const request = new Request('http://localhost/', { method: 'POST', body: 'a=1&b=2' });
    expect(await readTextWithin(request, 16)).toBe('a=1&b=2');
  });

  it('refuses a declared length over the limit without reading', async () => {
    const request = new Request('http://localhost/', {
      method: 'POST',
      body: 'x'.repeat(100),
      headers: { 'content-length': '100' },
    });
    expect(await readTextWithin(request, 16)).toBeNull();
  });

  it('stops reading an endless body just past the limit', async () => {
    const { request, pulled } = endlessRequest();
    expect(await readTextWithin(request, 16 * 1_024)).toBeNull();
    // 16 chunks fit; the 17th passes the limit; the stream may have pulled one more ahead.
    expect(pulled()).toBeLessThanOrEqual(18);
  });
});
