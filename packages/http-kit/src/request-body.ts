/**
 * @module
 * Request bodies read straight from Node's `IncomingMessage` when the app runs on
 * @hono/node-server, instead of through the WHATWG `Request` that node-server otherwise builds
 * on first use (an undici Request over a web stream over the Node stream). On Node 20 that
 * Request costs about five times the CPU of a whole bare node:http request (ADR 0701). In
 * process (`app.request()`, no Node request behind it) everything goes through the Request as
 * before.
 *
 * The behaviour is the one of hono's `bodyLimit` plus `c.req.text()`: a declared length over
 * the limit is refused before authentication, a body without a declared length is read (up to
 * the limit) before authentication too, text is decoded as UTF-8 with a leading BOM dropped,
 * and a body that no route read is reported so that the connection can be closed.
 * `readRequestText` is the one way each server reads a body, and `limitBody` counts a body
 * without a declared length on the stream, refusing it as soon as it passes the limit (ADR 0903).
 */
import { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Bodies read ahead by the limit middleware (no declared length), waiting for their route. */
const readAhead = new WeakMap<IncomingMessage, Buffer>();
/** The bodies routes asked for, as text (asking twice gives the same text, as with hono's request). */
const texts = new WeakMap<IncomingMessage, Promise<string>>();
const utf8 = new TextDecoder('utf-8');

function incomingOf(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage ? incoming : undefined;
}

/**
 * Whether something other than this module consumes the stream: node-server's own Request
 * does once anything touches `c.req.raw`, and then the bytes flow there.
 */
function takenElsewhere(incoming: IncomingMessage): boolean {
  return incoming.readableFlowing !== null && !readAhead.has(incoming) && !texts.has(incoming);
}

function carriesBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/** Reads the whole stream; resolves null as soon as it passes `limit` bytes. */
function readUpTo(incoming: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanUp();
        incoming.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanUp();
      resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    // A stream closed before its end (the client went away) must not leave the request hanging.
    const onClose = () => onError(new Error('The client closed the connection before sending the whole body.'));
    function cleanUp() {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    }
    if (incoming.destroyed) {
      onClose();
      return;
    }
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

/**
 * Refuses bodies over `maxSize` bytes with `onError`: by the declared Content-Length when
 * there is one, else by reading the body now.
 */
export function limitBody(maxSize: number, onError: (c: Context) => Response | Promise<Response>): MiddlewareHandler {
  const throughRequest = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    const incoming = incomingOf(c);
    if (!incoming || takenElsewhere(incoming)) return throughRequest(c, next);
    if (!carriesBody(c.req.method)) return next();
    const declared = incoming.headers['content-length'];
    if (declared !== undefined && incoming.headers['transfer-encoding'] === undefined) {
      return Number.parseInt(declared || '0', 10) > maxSize ? onError(c) : next();
    }
    const body = await readUpTo(incoming, maxSize);
    if (body === null) return onError(c);
    readAhead.set(incoming, body);
    return next();
  };
}

/** The request body as text (UTF-8, BOM dropped), as `c.req.text()` gives it. */
export function readRequestText(c: Context): Promise<string> {
  const incoming = incomingOf(c);
  if (!incoming || takenElsewhere(incoming)) return c.req.text();
  if (!carriesBody(c.req.method)) return Promise.resolve('');
  return readIncomingText(incoming);
}

/**
 * The body of a Node request that carries one, read as `readRequestText` reads it and remembered
 * the same way: a handler that reads it before handing the request to the app (ADR 0719) leaves
 * the app the same text, or the same failure, and the body counts as read.
 */
export function readIncomingText(incoming: IncomingMessage): Promise<string> {
  let text = texts.get(incoming);
  if (!text) {
    const ahead = readAhead.get(incoming);
    text = (ahead ? Promise.resolve(ahead) : readUpTo(incoming, Number.POSITIVE_INFINITY)).then((body) =>
      utf8.decode(body ?? Buffer.alloc(0)),
    );
    texts.set(incoming, text);
  }
  return text;
}

/**
 * A request header by its lower-case name, as `c.req.header(name)` gives it (repeated fields
 * joined with ", ", as the WHATWG `Headers` joins them), read from the Node request's raw header
 * list: asking the `Request` would build undici `Headers` of every field, validating each, on
 * every request (ADR 0715).
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c);
  return incoming ? incomingHeader(incoming, name) : c.req.header(name);
}

/** `requestHeader` of a Node request itself. */
export function incomingHeader(incoming: IncomingMessage, name: string): string | undefined {
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const field = raw[index] as string;
    if (field.length === name.length && field.toLowerCase() === name) {
      const item = raw[index + 1] as string;
      value = value === undefined ? item : `${value}, ${item}`;
    }
  }
  return value;
}

/** Whether the request carried a body that no route read (the connection cannot be reused then). */
export function bodyLeftUnread(c: Context): boolean {
  const incoming = incomingOf(c);
  if (!incoming || takenElsewhere(incoming)) return c.req.raw.body !== null && !c.req.raw.bodyUsed;
  return carriesBody(c.req.method) && !texts.has(incoming);
}
