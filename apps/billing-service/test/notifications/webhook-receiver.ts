/**
 * @module
 * Test receivers for webhooks: a real HTTP server on loopback that records every request,
 * answers as the test says (a status, or never), can stop listening and come back on the same
 * port, and verifies each webhook with the official SDK the moment it arrives (the SDK refuses
 * signatures older than five seconds, so verifying later would test the clock, not us).
 *
 * For a test of one more event type, `startWebhookTestbed` plus `verifiedEvent` is all it takes:
 *
 *     const testbed = await startWebhookTestbed(harness, { events: ['usage_balance.depleted'] });
 *     …cause the event…
 *     const event = await testbed.verifiedEvent('usage_balance.depleted');
 *     expect(event.data).toMatchObject({ customerId: … });
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BillingHarness } from '@drawdown/testkit';
import { type Environment, type EventEntity, Paddle } from '@paddle/paddle-node-sdk';

/** How the receiver answers one request: an HTTP status, or `hang` to never answer. */
export type ReceiverAnswer = number | 'hang';

export interface ReceivedWebhook {
  readonly rawBody: string;
  readonly signature: string;
  readonly userAgent: string;
  readonly contentType: string;
  readonly notificationId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** The status the receiver answered with, or `hang`. */
  readonly answer: ReceiverAnswer;
  /** What the official SDK made of it: the typed event, or the error it threw. */
  readonly verified: EventEntity | undefined;
  readonly verificationError: unknown;
}

export interface WebhookReceiverOptions {
  /** Verifies each webhook with the SDK against this secret (settable later with `useSecret`). */
  readonly secret?: string;
  readonly answer?: ReceiverAnswer | ((body: { notificationId: string; eventType: string }) => ReceiverAnswer);
}

export interface WebhookReceiver {
  readonly url: string;
  readonly received: readonly ReceivedWebhook[];
  /** Requests that are still waiting for an answer (the receiver hangs on them). */
  readonly openRequests: number;
  answerWith(answer: NonNullable<WebhookReceiverOptions['answer']>): void;
  useSecret(secret: string): void;
  /** Stops listening (answering the requests it already has): attempts now fail to connect. */
  goDown(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  /** Resolves once `condition` holds for what was received; fails with `what` after `limitMs` (20 s). */
  waitFor(what: string, condition: (received: readonly ReceivedWebhook[]) => boolean, limitMs?: number): Promise<void>;
  /** Stops listening and drops every connection, hanging ones included. */
  close(): Promise<void>;
}

const SDK = new Paddle('pdl_sdbx_apikey_01hv8x2ag5p1y5q9c7a5d3k0w8_unused', { logLevel: 'none' as never });

/** Polls `condition` until it holds; throws after `limitMs` naming what never happened. */
export async function eventually(what: string, condition: () => boolean | Promise<boolean>, limitMs = 20_000) {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  let secret = options.secret;
  let answer = options.answer ?? 200;
  let server: Server | undefined;
  let port = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const rawBody = await readBody(request);
    const signature = String(request.headers['paddle-signature'] ?? '');
    let verified: EventEntity | undefined;
    let verificationError: unknown;
    if (secret !== undefined) {
      try {
        verified = await SDK.webhooks.unmarshal(rawBody, secret, signature);
      } catch (error) {
        verificationError = error;
      }
    }
    const parsed = JSON.parse(rawBody) as { notification_id: string; event_id: string; event_type: string };
    const decided =
      typeof answer === 'function'
        ? answer({ notificationId: parsed.notification_id, eventType: parsed.event_type })
        : answer;
    received.push({
      rawBody,
      signature,
      userAgent: String(request.headers['user-agent'] ?? ''),
      contentType: String(request.headers['content-type'] ?? ''),
      notificationId: parsed.notification_id,
      eventId: parsed.event_id,
      eventType: parsed.event_type,
      answer: decided,
      verified,
      verificationError,
    });
    if (decided === 'hang') {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      return;
    }
    response.writeHead(decided, { 'content-type': 'text/plain' });
    response.end(decided >= 200 && decided < 300 ? 'ok' : `answered ${decided}`);
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((request, response) => {
        handle(request, response).catch(() => {
          response.writeHead(400);
          response.end('unreadable');
        });
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as AddressInfo).port;
        server = next;
        resolve();
      });
    });

  // Requests already being answered finish; new connections are refused from now on.
  const goDown = (dropEverything = false) =>
    new Promise<void>((resolve) => {
      const current = server;
      server = undefined;
      if (!current) return resolve();
      current.close(() => resolve());
      if (dropEverything) current.closeAllConnections();
      else current.closeIdleConnections();
    });

  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}/webhooks`;
    },
    received,
    get openRequests() {
      return hanging.size;
    },
    answerWith(next) {
      answer = next;
    },
    useSecret(next) {
      secret = next;
    },
    goDown: () => goDown(),
    comeBack: listen,
    waitFor: (what, condition, limitMs) => eventually(what, () => condition(received), limitMs),
    close: () => goDown(true),
  };
}

/** A receiver subscribed through the official SDK, for tests of one event type at a time. */
export interface WebhookTestbed {
  readonly receiver: WebhookReceiver;
  readonly paddle: Paddle;
  readonly settingId: string;
  readonly secret: string;
  /**
   * The first webhook of `eventType` (and matching `where`, if given), verified and typed by
   * the official SDK's `webhooks.unmarshal`; fails if verification failed.
   */
  verifiedEvent(eventType: string, where?: (webhook: ReceivedWebhook) => boolean): Promise<EventEntity>;
  close(): Promise<void>;
}

export async function startWebhookTestbed(
  harness: BillingHarness,
  options: { readonly events: readonly string[]; readonly environment?: 'sandbox' | 'live' },
): Promise<WebhookTestbed> {
  const live = options.environment === 'live';
  const paddle = new Paddle(live ? harness.liveKey : harness.sandboxKey, {
    environment: (live ? harness.liveUrl : harness.sandboxUrl) as Environment,
    logLevel: 'none' as never,
  });
  const receiver = await startWebhookReceiver();
  const setting = await paddle.notificationSettings.create({
    description: 'Test receiver',
    type: 'url',
    destination: receiver.url,
    subscribedEvents: options.events as never,
  });
  const secret = setting.endpointSecretKey;
  receiver.useSecret(secret);
  return {
    receiver,
    paddle,
    settingId: setting.id,
    secret,
    async verifiedEvent(eventType, where) {
      const matches = (webhook: ReceivedWebhook) => webhook.eventType === eventType && (where?.(webhook) ?? true);
      await receiver.waitFor(`a ${eventType} webhook`, (received) => received.some(matches));
      const webhook = receiver.received.find(matches);
      if (!webhook?.verified) throw webhook?.verificationError ?? new Error(`${eventType} was not verified`);
      return webhook.verified;
    },
    close: () => receiver.close(),
  };
}
