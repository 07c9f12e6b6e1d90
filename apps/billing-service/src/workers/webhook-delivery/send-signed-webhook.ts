/**
 * @module
 * One signed webhook attempt, shared by real notifications and simulated events so both are
 * refused, signed, sent and cut off by the same rules: the destination guard, a fresh
 * `Paddle-Signature` for the moment of sending, the same headers, timeout and response cap.
 */
import type { DeliveryOutcome, Environment } from '@drawdown/billing-core';
import type { DestinationGuard } from './destination-guard.js';
import { postWebhook } from './post-webhook.js';
import { SIGNATURE_HEADER, signPayload } from './sign-payload.js';

export interface SendOptions {
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
}

export interface SignedWebhook {
  readonly destination: string;
  readonly environment: Environment;
  readonly endpointSecretKey: string;
  /** The raw body: it is what is signed, byte for byte. */
  readonly body: string;
  readonly signedAt: number;
}

export function sendSignedWebhook(
  webhook: SignedWebhook,
  context: { readonly guard: DestinationGuard; readonly options: SendOptions; readonly stopSignal: AbortSignal },
): Promise<DeliveryOutcome> {
  let url: URL;
  try {
    url = new URL(webhook.destination);
  } catch {
    return Promise.resolve({ kind: 'failure', reason: 'The destination is not a valid URL.' });
  }
  const refusal = context.guard.refusalForLiteralHost(url, webhook.environment);
  if (refusal !== null) return Promise.resolve({ kind: 'failure', reason: `Destination refused: ${refusal}.` });
  return postWebhook({
    url,
    body: webhook.body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': context.options.userAgent,
      [SIGNATURE_HEADER]: signPayload(webhook.endpointSecretKey, webhook.body, webhook.signedAt),
    },
    timeoutMs: context.options.requestTimeoutMs,
    stopSignal: context.stopSignal,
    lookup: context.guard.lookupFor(webhook.environment),
    maxResponseBytes: context.options.maxResponseBytes,
  });
}
