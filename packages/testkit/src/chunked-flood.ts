/**
 * @module
 * Sends a chunked request body (no Content-Length) as fast as the server takes it, up to
 * `maxBytes`, and stops as soon as the answer arrives. `bytesSent` is what the server had taken
 * by then (socket buffers aside): a server that limits the body on the stream answers after a
 * little more than its limit, one that reads the whole body first only after all of it.
 */
import { request } from 'node:http';

export interface FloodOptions {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The size of each chunk written. Default 64 KiB. */
  readonly chunkBytes?: number;
  /** The whole body, if the server never answers early. */
  readonly maxBytes: number;
}

export interface FloodResult {
  readonly status: number;
  readonly body: string;
  /** Bytes of the body written before the answer's headers arrived. */
  readonly bytesSent: number;
}

/** Posts a chunked body of up to `maxBytes` to `url`, stopping at the answer. */
export function floodChunked(url: string, options: FloodOptions): Promise<FloodResult> {
  const chunk = Buffer.alloc(options.chunkBytes ?? 64 * 1_024, 'a');
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const outgoing = request(url, {
      method: options.method ?? 'POST',
      headers: { ...options.headers, 'transfer-encoding': 'chunked' },
    });
    outgoing.on('response', (response) => {
      answered = true;
      const sentAtAnswer = bytesSent;
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => {
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(parts).toString('utf8'),
          bytesSent: sentAtAnswer,
        });
        outgoing.destroy();
      });
      response.on('error', reject);
    });
    // The server may close the connection while we still write: that is the point, not a failure.
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    const write = () => {
      while (!answered && bytesSent < options.maxBytes) {
        bytesSent += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once('drain', write);
          return;
        }
      }
      if (!answered) outgoing.end();
    };
    write();
  });
}
