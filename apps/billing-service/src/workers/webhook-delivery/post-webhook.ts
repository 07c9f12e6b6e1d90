/**
 * @module
 * One webhook POST. The answer's status decides the outcome; at most `maxResponseBytes` of its
 * body are kept for the log. A deadline covers the whole exchange, and a second signal lets
 * the worker cut the request short when it stops. Redirects are not followed: a 3xx is a
 * failed attempt like any other non-2xx answer.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { DeliveryOutcome } from '@drawdown/billing-core';

export interface PostWebhookInput {
  readonly url: URL;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Aborts the request when the worker stops. */
  readonly stopSignal: AbortSignal;
  readonly lookup: LookupFunction;
  readonly maxResponseBytes: number;
  /** The outcome of a connection the lookup refused (the destination guard's, ADR 1485). */
  readonly refused: (reason: string) => DeliveryOutcome;
}

function describeFailure(error: unknown, timedOut: boolean, stopped: boolean, timeoutMs: number): string {
  if (stopped) return 'The attempt was interrupted: the delivery worker stopped.';
  if (timedOut) return `No response within ${timeoutMs} ms.`;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ECONNREFUSED') return `Connection refused: ${message}.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `DNS lookup failed: ${message}.`;
  return `Request failed: ${message}.`;
}

/** Posts the body and says what came of it; never throws. */
export function postWebhook(input: PostWebhookInput): Promise<DeliveryOutcome> {
  return new Promise((resolve) => {
    const deadline = AbortSignal.timeout(input.timeoutMs);
    const signal = AbortSignal.any([deadline, input.stopSignal]);
    let settled = false;
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let kept = 0;

    const settleWithResponse = (answer: IncomingMessage) => {
      if (settled) return;
      settled = true;
      const contentType = answer.headers['content-type'];
      resolve({
        kind: 'response',
        statusCode: answer.statusCode ?? 0,
        contentType: contentType ?? null,
        body: new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks)),
      });
    };

    const send = input.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(
      input.url,
      {
        method: 'POST',
        headers: { ...input.headers, 'Content-Length': String(Buffer.byteLength(input.body)) },
        signal,
        lookup: input.lookup,
        // One connection per attempt: no pooled socket outlives a refused or re-pointed host.
        agent: false,
      },
      (answer) => {
        response = answer;
        answer.on('data', (chunk: Buffer) => {
          if (kept < input.maxResponseBytes) {
            const slice = chunk.subarray(0, input.maxResponseBytes - kept);
            chunks.push(slice);
            kept += slice.length;
          }
          // The status is all that decides; a long body is not worth waiting for.
          if (kept >= input.maxResponseBytes) {
            settleWithResponse(answer);
            answer.destroy();
          }
        });
        answer.on('end', () => settleWithResponse(answer));
        answer.on('error', () => settleWithResponse(answer));
        answer.on('close', () => settleWithResponse(answer));
      },
    );
    outgoing.on('error', (error) => {
      // An answer already arrived: its status stands even if its body was cut short.
      if (response) {
        settleWithResponse(response);
        return;
      }
      if (settled) return;
      settled = true;
      if ((error as { code?: unknown }).code === 'EDESTINATIONNOTALLOWED') {
        resolve(input.refused(error.message));
        return;
      }
      resolve({
        kind: 'failure',
        reason: describeFailure(error, deadline.aborted, input.stopSignal.aborted, input.timeoutMs),
      });
    });
    outgoing.end(input.body);
  });
}
