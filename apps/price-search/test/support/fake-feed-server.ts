import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { onTestFinished } from 'vitest';

/** What the fake feed host serves at one path: a body and its validators (ETag and/or Last-Modified). */
export interface FeedFile {
  body: string;
  contentType: string;
  etag?: string;
  lastModified?: string;
  /** Send the body gzipped as a .gz file (Content-Type application/gzip), as Awin's downloads are. */
  gzipFile?: boolean;
  /** Answer with this status instead (a broken feed host). */
  failWith?: number;
}

/**
 * A local HTTP server speaking plain HTTP file download semantics: 200 with ETag/Last-Modified, 304 when a
 * conditional request's validators match (If-None-Match first, else If-Modified-Since), as feed hosts do.
 */
export async function startFakeFeedHost(files: Record<string, FeedFile>) {
  const received: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    received.push({ path, headers: req.headers });
    const file = files[path];
    if (file === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    if (file.failWith !== undefined) {
      res.writeHead(file.failWith).end('upstream trouble');
      return;
    }
    const validators: Record<string, string> = {};
    if (file.etag !== undefined) validators.etag = file.etag;
    if (file.lastModified !== undefined) validators['last-modified'] = file.lastModified;
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    const notModified =
      ifNoneMatch !== undefined
        ? file.etag !== undefined && ifNoneMatch === file.etag
        : ifModifiedSince !== undefined &&
          file.lastModified !== undefined &&
          Date.parse(ifModifiedSince) >= Date.parse(file.lastModified);
    if (notModified) {
      res.writeHead(304, validators).end();
      return;
    }
    const body = file.gzipFile ? gzipSync(file.body) : Buffer.from(file.body);
    res.writeHead(200, { 'content-type': file.gzipFile ? 'application/gzip' : file.contentType, ...validators });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, received, files };
}
