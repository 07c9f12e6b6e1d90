/**
 * @module
 * One signed webhook attempt, shared by real notifications and simulated events so both are
 * refused, signed, sent and cut off by the same rules: the destination guard, a fresh
 * `Paddle-Signature` for the moment of sending, the same headers, timeout and response cap.
 * Each attempt is one client span (ADR 1452): method, the destination's host and port, the
 * answer's status (or the failure), and which attempt it is; never the path or query, which
 * may hold a receiver's secret.
 */
import type { DeliveryOutcome, Environment } from '@drawdown/billing-core';
import { NO_SPANS, type Spans } from '../../operations/spans.js';
import { DESTINATION_REFUSED_CODE, type DestinationGuard } from './destination-guard.js';
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
  /** Which attempt this is for its notification (1 for the first); simulated events have one. */
  readonly attempt: number;
}

export interface SendContext {
  readonly guard: DestinationGuard;
  readonly options: SendOptions;
  readonly stopSignal: AbortSignal;
  /** Where the attempt is traced; nowhere when absent. */
  readonly spans?: Spans | undefined;
}

export function sendSignedWebhook(webhook: SignedWebhook, context: SendContext): Promise<DeliveryOutcome> {
  const host = URL.canParse(webhook.destination) ? new URL(webhook.destination) : undefined;
  return (context.spans ?? NO_SPANS).inSpan(
    'POST',
    {
      kind: 'client',
      attributes: {
        'http.request.method': 'POST',
        'drawdown.webhook.attempt': webhook.attempt,
        'drawdown.environment': webhook.environment,
        ...(host ? { 'server.address': host.hostname, 'server.port': Number(host.port || defaultPort(host)) } : {}),
      },
    },
    async (span) => {
      const outcome = await send(webhook, context);
      if (outcome.kind === 'response') {
        span.setAttributes({ 'http.response.status_code': outcome.statusCode });
        if (outcome.statusCode >= 400) span.fail(new Error(`the receiver answered ${outcome.statusCode}`));
      } else {
        span.setAttributes({ 'error.type': outcome.kind });
        span.fail(new Error(outcome.reason));
      }
      return outcome;
    },
  );
}

function defaultPort(url: URL): number {
  return url.protocol === 'https:' ? 443 : 80;
}

/** A destination the guard refused: nothing was sent, and the log says why, with the code. */
export function refusedOutcome(refusal: string): DeliveryOutcome {
  return { kind: 'failure', reason: `Destination refused (${DESTINATION_REFUSED_CODE}): ${refusal}.`, refused: true };
}

function send(webhook: SignedWebhook, context: SendContext): Promise<DeliveryOutcome> {
  let url: URL;
  try {
    url = new URL(webhook.destination);
  } catch {
    return Promise.resolve({ kind: 'failure', reason: 'The destination is not a valid URL.' });
  }
  const refusal = context.guard.refusalForLiteralHost(url);
  if (refusal !== null) return Promise.resolve(refusedOutcome(refusal));
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
    lookup: context.guard.lookup,
    maxResponseBytes: context.options.maxResponseBytes,
    refused: refusedOutcome,
  });
}
