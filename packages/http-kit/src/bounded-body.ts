/**
 * @module
 * A WHATWG request body read up to a limit, counted on the stream: for handlers that receive a
 * `Request` (a fetch handler, a form read through hono's `c.req.raw`). Reading stops, and the
 * stream is cancelled, as soon as the body passes the limit, so a chunked body without a
 * declared length never costs more than the limit in memory (ADR 0903).
 */

/** The body's bytes, or null when it is longer than `limit` bytes (declared or counted). */
export async function readBodyWithin(request: Request, limit: number): Promise<Uint8Array | null> {
  const declared = request.headers.get('content-length');
  if (declared !== null && !request.headers.has('transfer-encoding') && Number(declared) > limit) {
    void request.body?.cancel().catch(() => undefined);
    return null;
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: cancelling one branch of a tee()d (cloned) body settles only once the
      // other branch is cancelled too.
      void reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** The body as UTF-8 text, or null when it is longer than `limit` bytes. */
export async function readTextWithin(request: Request, limit: number): Promise<string | null> {
  const body = await readBodyWithin(request, limit);
  return body === null ? null : new TextDecoder('utf-8').decode(body);
}
