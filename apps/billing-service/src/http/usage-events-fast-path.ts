/**
 * @module
 * `POST /usage-events` served on node:http directly (ADR 0719): the hottest request of the
 * service, answered without building Hono's context, the undici-compatible `Request` and the
 * `Response` of @hono/node-server, which together cost about a fifth of a usage event's CPU.
 *
 * The rules stay the app's own, by construction. Every step before the use case either passes or
 * hands the request to the Hono app untouched, which then answers it exactly as it answers
 * any request: a rate-limit refusal (the decision is handed over, not counted twice), a body
 * without a declared length or over the limit, a refused key or permission (the app reads
 * the key again and refuses it itself), a body that is not JSON, too deep, holds unstorable
 * text outside the events or fails the schema. The body is read through http-kit, which
 * remembers it, so the app reads the same text (or the same failure) and never sees it as
 * unread. From the use case on, the answer is the app's envelope, error mapping and access line,
 * built by the same functions. With tracing configured every request goes through the app.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RecordUsageEventsBody } from '@drawdown/billing-contract';
import type { UseCases } from '@drawdown/billing-core';
import {
  BillingError,
  type Environment,
  permits,
  type UsageEventInput,
  type UsageEventResult,
} from '@drawdown/billing-core';
import {
  forwardedClientAddress,
  incomingHeader,
  type ProxyTrust,
  proxyHops,
  readIncomingText,
} from '@drawdown/http-kit';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.js';
import { errorBody, unexpectedFailure } from './envelope.js';
import { STATUS_BY_CODE } from './error-mapping.js';
import type { RateDecision, RateSubject, RequestRateLimits } from './rate-limiter.js';
import { JSON_CONTENT_TYPE, parseJsonText, validatedBody } from './request-body.js';
import { type RequestObserver, requestIdFrom } from './request-observer.js';
import { toSnakeCase } from './wire-case.js';

export const USAGE_EVENTS_PATH = '/usage-events';
const ROUTE = '/usage-events';

/** Node's request listener: the Hono app's, as @hono/node-server builds it. */
export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => unknown;

export interface FastPath {
  /** Whether the request is the fast path's to serve; every other request goes to the app. */
  matches(incoming: IncomingMessage): boolean;
  /** Serves a request it matches, or hands it to `app`; never rejects. */
  serve(incoming: IncomingMessage, outgoing: ServerResponse, app: NodeListener): Promise<unknown>;
}

export interface FastPathDependencies {
  readonly useCases: Pick<UseCases, 'authenticate' | 'recordUsageEvents'>;
  readonly rateLimits: RequestRateLimits | null;
  readonly trustProxy: boolean | ProxyTrust;
  readonly maxBodyBytes: number;
  readonly observeRequest?: RequestObserver | undefined;
  logError(message: string, error: unknown, fields?: Record<string, unknown>): void;
  /** Hears whether each request was served here or handed to the app. */
  readonly onOutcome?: ((outcome: 'served' | 'handed_over') => void) | undefined;
}

/** A rate decision and whom it counted the request against. */
export interface RateVerdict {
  readonly subject: RateSubject;
  readonly decision: RateDecision;
}

/** Rate decisions the fast path took before handing a request to the app, which must not count it again. */
const decidedAhead = new WeakMap<IncomingMessage, RateVerdict>();

/** The rate decision taken for this request before the app saw it, if any (and forgets it). */
export function rateDecisionTakenAhead(c: Context<AppEnv>): RateVerdict | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return undefined;
  const decision = decidedAhead.get(incoming);
  decidedAhead.delete(incoming);
  return decision;
}

const JSON_HEADER = 'application/json';

/** The event's wire fields, their domain names and `RecordUsageEventsBody`'s length limits. */
const EVENT_FIELDS = [
  ['event_key', 'eventKey', 1_024],
  ['customer_id', 'customerId', 64],
  ['action', 'action', 200],
  ['quantity', 'quantity', 128],
  ['occurred_at', 'occurredAt', 64],
] as const;
/** `RecordUsageEventsBody`'s bound on the list. */
const MAX_LISTED_EVENTS = 1_000;

/**
 * The events of a body in the shape every client sends (`{"events": [...]}` with the five string
 * fields, nothing else), as the full reading (`parseJsonText`, then `validatedBody`) would give
 * them; undefined for any other body, which the full reading then decides. Such a body passes
 * every rule of the full reading: it is JSON of depth 3, its only text outside the events is the
 * key `events`, the schema's keys and limits hold, and the events' own text is the use case's
 * to check (ADR 0901).
 */
export function plainEvents(text: string, contentType: string | undefined): UsageEventInput[] | undefined {
  if (!JSON_CONTENT_TYPE.test(contentType ?? '')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'events') return undefined;
  const list = (value as { events: unknown }).events;
  if (!Array.isArray(list) || list.length > MAX_LISTED_EVENTS) return undefined;
  const events: UsageEventInput[] = [];
  for (const item of list) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    if (Object.keys(item).length !== EVENT_FIELDS.length) return undefined;
    const fields: Record<string, string> = {};
    for (const [wire, name, maxLength] of EVENT_FIELDS) {
      if (!Object.hasOwn(item, wire)) return undefined;
      const field = (item as Record<string, unknown>)[wire];
      if (typeof field !== 'string' || field.length > maxLength) return undefined;
      fields[name] = field;
    }
    events.push(fields as unknown as UsageEventInput);
  }
  return events;
}

/**
 * The 202's body, as `JSON.stringify({ data: toSnakeCase({ events }), meta })` writes it, with the
 * usual result (accepted) written directly rather than through a renamed copy (ADR 0734).
 */
export function acceptedBody(results: readonly UsageEventResult[], requestId: string): string {
  let events = '';
  for (const result of results) {
    if (events !== '') events += ',';
    events +=
      result.status === 'accepted'
        ? `{"event_key":${JSON.stringify(result.eventKey)},"status":"accepted"}`
        : JSON.stringify(toSnakeCase(result));
  }
  return `{"data":{"events":[${events}]},"meta":{"request_id":${JSON.stringify(requestId)}}}`;
}

export function createUsageEventsFastPath(dependencies: FastPathDependencies, environment: Environment): FastPath {
  const { useCases, rateLimits, observeRequest } = dependencies;
  const trustedProxies = proxyHops(dependencies.trustProxy);

  async function serve(incoming: IncomingMessage, outgoing: ServerResponse, app: NodeListener): Promise<unknown> {
    const startedAt = performance.now();
    const clientAddress =
      forwardedClientAddress(
        incomingHeader(incoming, 'x-forwarded-for'),
        trustedProxies,
        incoming.socket.remoteAddress,
      ) ?? incoming.socket.remoteAddress;
    // The key is read first: the rate limit counts an authenticated request against its key and
    // any other against its address (ADR 1480). A refused key goes to the app, which reads it
    // again and refuses it itself, before the body is read.
    let authenticated: Awaited<ReturnType<UseCases['authenticate']>> | undefined;
    try {
      authenticated = await useCases.authenticate(incomingHeader(incoming, 'authorization'), environment);
    } catch {
      authenticated = undefined;
    }
    // The decision the app takes instead of counting the request again, when it is handed over.
    let verdict: RateVerdict | undefined;
    if (rateLimits) {
      const subject: RateSubject = authenticated
        ? { kind: 'key', keyId: authenticated.key.id }
        : { kind: 'address', address: clientAddress ?? 'in-process' };
      try {
        verdict = { subject, decision: await rateLimits.hit(subject, Date.now()) };
      } catch {
        // The app asks again and answers the failure as it answers it for any request.
        dependencies.onOutcome?.('handed_over');
        return app(incoming, outgoing);
      }
      if (!verdict.decision.allowed) {
        decidedAhead.set(incoming, verdict);
        dependencies.onOutcome?.('handed_over');
        return app(incoming, outgoing);
      }
    }
    const handOver = () => {
      if (verdict) decidedAhead.set(incoming, verdict);
      dependencies.onOutcome?.('handed_over');
      return app(incoming, outgoing);
    };
    const declared = incoming.headers['content-length'];
    if (
      declared === undefined ||
      incoming.headers['transfer-encoding'] !== undefined ||
      Number.parseInt(declared || '0', 10) > dependencies.maxBodyBytes
    ) {
      return handOver();
    }
    if (!authenticated || !permits(authenticated.key.permissions, 'usage_event.write')) return handOver();
    const caller: Parameters<UseCases['recordUsageEvents']>[0] = {
      account: authenticated.account,
      scope: { accountId: authenticated.account.id, environment },
    };
    let events: Parameters<UseCases['recordUsageEvents']>[1];
    try {
      const text = await readIncomingText(incoming);
      const contentType = incomingHeader(incoming, 'content-type');
      events =
        plainEvents(text, contentType) ??
        validatedBody(parseJsonText(text, contentType, { unstorableTextPerItemOf: 'events' }), RecordUsageEventsBody)
          .events;
    } catch {
      return handOver();
    }
    const requestId = requestIdFrom(incomingHeader(incoming, 'x-request-id'));
    const accountId = caller.scope.accountId;
    let status: number;
    let body: string;
    try {
      const results = await useCases.recordUsageEvents(caller, events);
      status = 202;
      body = acceptedBody(results, requestId);
    } catch (error) {
      // The app's onError: a BillingError is the client's answer; anything else is logged and masked.
      let failure: BillingError;
      if (error instanceof BillingError) failure = error;
      else {
        dependencies.logError(`POST ${ROUTE} failed`, error, { requestId, environment, accountId });
        failure = unexpectedFailure();
      }
      status = STATUS_BY_CODE[failure.code];
      body = JSON.stringify(errorBody(requestId, failure.code, failure.detail, failure.fieldErrors));
    }
    observeRequest?.({
      requestId,
      method: 'POST',
      route: ROUTE,
      status,
      durationMs: performance.now() - startedAt,
      environment,
      accountId,
      clientAddress,
      traceId: undefined,
    });
    // The headers @hono/node-server writes for the app's c.json() with Request-Id set.
    outgoing.writeHead(status, {
      'request-id': requestId,
      'content-type': JSON_HEADER,
      'Content-Length': Buffer.byteLength(body),
    });
    outgoing.end(body);
    dependencies.onOutcome?.('served');
    return undefined;
  }

  return {
    matches: (incoming) => incoming.method === 'POST' && incoming.url === USAGE_EVENTS_PATH,
    serve: (incoming, outgoing, app) =>
      serve(incoming, outgoing, app).then(undefined, (error: unknown) => {
        // Nothing above throws by design; should something, the socket must not hang.
        const requestId = requestIdFrom(incomingHeader(incoming, 'x-request-id'));
        dependencies.logError(`POST ${ROUTE} failed`, error, { requestId, environment });
        if (outgoing.headersSent) {
          outgoing.destroy();
          return;
        }
        const failure = unexpectedFailure();
        const body = JSON.stringify(errorBody(requestId, failure.code, failure.detail, []));
        outgoing.writeHead(500, {
          'request-id': requestId,
          'content-type': JSON_HEADER,
          'Content-Length': Buffer.byteLength(body),
        });
        outgoing.end(body);
      }),
  };
}
