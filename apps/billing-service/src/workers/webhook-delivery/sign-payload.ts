/**
 * @module
 * The `Paddle-Signature` header: `ts=<unix seconds>;h1=<hex HMAC-SHA256>`, the HMAC of
 * `"<ts>:<raw body>"` keyed with the whole endpoint secret key. No spaces and exactly one `h1`:
 * the official SDK splits on `;` and `=` without trimming and keeps only the last `h1`.
 */
import { createHmac } from 'node:crypto';

/** The header name receivers read the signature from. */
export const SIGNATURE_HEADER = 'Paddle-Signature';

/** Signs one attempt's body; every attempt is signed afresh with the time it is sent. */
export function signPayload(endpointSecretKey: string, rawBody: string, unixSeconds: number): string {
  const h1 = createHmac('sha256', endpointSecretKey).update(`${unixSeconds}:${rawBody}`, 'utf8').digest('hex');
  return `ts=${unixSeconds};h1=${h1}`;
}
