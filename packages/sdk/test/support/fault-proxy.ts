/**
 * A fault-injecting HTTP proxy on a loopback port, in front of a real service. Each request is
 * recorded (method, path, exact body bytes, arrival time on the test's clock) and then passed
 * through or answered with a fault chosen by the test's plan.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** Forward and relay the answer. */
  | { readonly kind: 'pass' }
  /** Close the connection without forwarding: the service never sees the request. */
  | { readonly kind: 'drop' }
  /** Forward, then close the connection without relaying: the service acted, the client cannot know. */
  | { readonly kind: 'drop-after-forward' }
  /** Answer with this status (and an error envelope) without forwarding. */
  | { readonly kind: 'status'; readonly status: number; readonly body?: string }
  /** Answer 429 with this Retry-After without forwarding. */
  | { readonly kind: 'rate-limit'; readonly retryAfter: string }
  /** Forward, then rewrite the usage-event result to a per-event `internal_error` rejection. */
  | { readonly kind: 'internal-error-result' }
  /** Never answer (until the proxy closes). */
  | { readonly kind: 'hang' };

export interface ProxiedRequest {
  readonly method: string;
  /** Path and query. */
  readonly path: string;
  readonly body: Buffer;
  readonly headers: IncomingMessage['headers'];
  /** The test clock's time when the request arrived. */
  readonly at: number;
  readonly fault: Fault['kind'];
}

export interface FaultPlanContext {
  readonly method: string;
  readonly path: string;
  /** How many earlier requests had this method and path (without query). */
  readonly seen: number;
}

export type FaultPlan = (request: FaultPlanContext) => Fault | Promise<Fault>;

export interface FaultProxy {
  readonly url: string;
  readonly requests: ProxiedRequest[];
  /** The requests to one method and path (without query). */
  to(method: string, path: string): ProxiedRequest[];
  setPlan(plan: FaultPlan): void;
  close(): Promise<void>;
}

/** Faults taken in order for requests to one method and path, then `pass`. */
export function faultsFor(method: string, path: string, faults: readonly Fault[]): FaultPlan {
  return (request) =>
    request.method === method && request.path === path ? (faults[request.seen] ?? { kind: 'pass' }) : { kind: 'pass' };
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

async function forward(upstream: string, request: IncomingMessage, body: Buffer): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return fetch(`${upstream}${request.url ?? '/'}`, {
    method: request.method ?? 'GET',
    headers,
    ...(body.length > 0 ? { body } : {}),
  });
}

function errorEnvelope(code: string, detail: string): string {
  return JSON.stringify({
    error: { type: 'api_error', code, detail, documentation_url: `https://example.test/errors/${code}` },
    meta: { request_id: 'proxy' },
  });
}

async function relay(response: ServerResponse, upstreamResponse: Response, text?: string): Promise<void> {
  const body = text ?? (await upstreamResponse.text());
  const headers: Record<string, string> = {};
  upstreamResponse.headers.forEach((value, name) => {
    if (!HOP_HEADERS.has(name) && name !== 'content-encoding') headers[name] = value;
  });
  response.writeHead(upstreamResponse.status, headers);
  response.end(body);
}

export async function startFaultProxy(options: {
  readonly upstream: string;
  readonly plan?: FaultPlan;
  readonly now?: () => number;
}): Promise<FaultProxy> {
  let plan: FaultPlan = options.plan ?? (() => ({ kind: 'pass' }));
  const now = options.now ?? Date.now;
  const requests: ProxiedRequest[] = [];
  const seen = new Map<string, number>();
  const hanging = new Set<ServerResponse>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const bare = path.split('?')[0] ?? path;
    const key = `${method} ${bare}`;
    const count = seen.get(key) ?? 0;
    seen.set(key, count + 1);
    const at = now();
    const fault = await plan({ method, path: bare, seen: count });
    requests.push({ method, path, body, headers: request.headers, at, fault: fault.kind });
    switch (fault.kind) {
      case 'pass':
        return relay(response, await forward(options.upstream, request, body));
      case 'drop':
        request.socket.destroy();
        return;
      case 'drop-after-forward': {
        await (await forward(options.upstream, request, body)).text();
        request.socket.destroy();
        return;
      }
      case 'status':
        response.writeHead(fault.status, { 'content-type': 'application/json' });
        response.end(fault.body ?? errorEnvelope('internal_error', 'Injected failure.'));
        return;
      case 'rate-limit':
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': fault.retryAfter });
        response.end(errorEnvelope('too_many_requests', 'Injected rate limit.'));
        return;
      case 'internal-error-result': {
        const upstreamResponse = await forward(options.upstream, request, body);
        const parsed = (await upstreamResponse.json()) as { data?: { events?: { event_key: string }[] } };
        const events = (parsed.data?.events ?? []).map((event) => ({
          event_key: event.event_key,
          status: 'rejected',
          error: { code: 'internal_error', detail: 'Injected per-event failure.' },
        }));
        return relay(response, upstreamResponse, JSON.stringify({ ...parsed, data: { events } }));
      }
      case 'hang':
        hanging.add(response);
        return;
    }
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(599);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (method, path) =>
      requests.filter((request) => request.method === method && request.path.split('?')[0] === path),
    setPlan: (next) => {
      plan = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
