/**
 * @module
 * Webhook signatures: `Paddle-Signature: ts=<unix seconds>;h1=<hex>`, where h1 is the lowercase
 * hex HMAC-SHA256 of `"<ts>:<raw body>"` keyed with the destination's full secret string. Built
 * on Web Crypto (`globalThis.crypto.subtle`), so it runs in Node 20+ and in edge runtimes.
 *
 * Verification compares in constant time, accepts any of several `h1` values (a sender may sign
 * with an old and a new secret while rotating), and refuses timestamps further than the
 * tolerance from now in either direction (ADR 0606).
 */
import { type DrawdownEvent, parseEvent } from '../types/events.js';

/** The header the service signs webhooks in. */
export const SIGNATURE_HEADER = 'Paddle-Signature';

/** Five seconds, as the official SDK: the service signs every delivery attempt afresh. */
export const DEFAULT_TOLERANCE_SECONDS = 5;

export type WebhookVerificationFailure =
  | 'missing_signature'
  | 'malformed_signature'
  | 'timestamp_outside_tolerance'
  | 'signature_mismatch';

/** The webhook is not to be trusted; `reason` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** How far the signature's timestamp may be from now, in seconds. Default 5. */
  readonly toleranceSeconds?: number;
  /** The current time in epoch milliseconds; for tests. */
  readonly now?: () => number;
}

export interface SignWebhookOptions {
  /** The signing time: unix seconds or a Date. Default now. */
  readonly timestamp?: number | Date;
}

const encoder = new TextEncoder();

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

async function hmac(secret: string, timestamp: string, body: Uint8Array): Promise<Uint8Array> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const prefix = encoder.encode(`${timestamp}:`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix, 0);
  message.set(body, prefix.length);
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, message));
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1) {
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  }
  return bytes;
}

/** Compares two equal-length byte arrays without stopping at the first difference. */
function equalInConstantTime(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index += 1) difference |= (left[index] ?? 0) ^ (right[index] ?? 0);
  return difference === 0;
}

interface ParsedSignature {
  readonly timestamp: string;
  readonly signatures: readonly Uint8Array[];
}

function parseSignatureHeader(header: string): ParsedSignature {
  let timestamp: string | undefined;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 'ts') timestamp = value;
    else if (key === 'h1' && /^[\da-f]{64}$/i.test(value)) signatures.push(fromHex(value.toLowerCase()));
  }
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) {
    throw new WebhookVerificationError(
      'malformed_signature',
      'The signature header is not ts=<unix seconds>;h1=<64 hex digits>.',
    );
  }
  return { timestamp, signatures };
}

/**
 * Verifies a webhook's signature over its raw body (the exact bytes received, before any JSON
 * parsing). Resolves when valid; rejects with `WebhookVerificationError` otherwise.
 *
 * @example
 * await verifyWebhook(rawBody, process.env.WEBHOOK_SECRET, request.headers.get('paddle-signature'));
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  secret: string,
  signatureHeader: string | null | undefined,
  options: VerifyWebhookOptions = {},
): Promise<void> {
  if (!signatureHeader) {
    throw new WebhookVerificationError('missing_signature', `The ${SIGNATURE_HEADER} header is missing.`);
  }
  const { timestamp, signatures } = parseSignatureHeader(signatureHeader);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      `The signature was made more than ${tolerance} seconds from now; it may be a replay.`,
    );
  }
  const expected = await hmac(secret, timestamp, bytesOf(rawBody));
  let matched = false;
  // Every candidate is compared, so the time taken does not tell which one matched.
  for (const signature of signatures) matched = equalInConstantTime(expected, signature) || matched;
  if (!matched) {
    throw new WebhookVerificationError('signature_mismatch', 'No h1 signature matches the body and secret.');
  }
}

/** Verifies the signature, then parses the body into a typed event (unknown types included). */
export async function unmarshalWebhook(
  rawBody: string | Uint8Array,
  secret: string,
  signatureHeader: string | null | undefined,
  options: VerifyWebhookOptions = {},
): Promise<DrawdownEvent> {
  await verifyWebhook(rawBody, secret, signatureHeader, options);
  return parseEvent(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody));
}

/**
 * Signs a payload as the service does, for your own tests of a webhook receiver. Returns the
 * value of the `Paddle-Signature` header.
 *
 * @example
 * const header = await signWebhookPayload(body, secret);
 * await fetch(receiverUrl, { method: 'POST', body, headers: { 'paddle-signature': header } });
 */
export async function signWebhookPayload(
  body: string | Uint8Array,
  secret: string,
  options: SignWebhookOptions = {},
): Promise<string> {
  const { timestamp } = options;
  const seconds =
    timestamp === undefined
      ? Math.floor(Date.now() / 1000)
      : timestamp instanceof Date
        ? Math.floor(timestamp.getTime() / 1000)
        : Math.floor(timestamp);
  const signature = await hmac(secret, String(seconds), bytesOf(body));
  return `ts=${seconds};h1=${toHex(signature)}`;
}
