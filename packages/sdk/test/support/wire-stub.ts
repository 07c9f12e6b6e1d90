/**
 * A tiny local server speaking the documented wire format, for endpoints the service does not
 * serve yet and for answers a real service will not give on demand. Each route answers with a
 * JSON body and status; every request is recorded.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface StubRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export type StubRoute = (request: StubRequest) => StubAnswer;

export interface WireStub {
  readonly url: string;
  readonly requests: StubRequest[];
  route(method: string, path: string, answer: StubRoute): void;
  close(): Promise<void>;
}

/** The success envelope. */
export function ok(data: unknown, status = 200): StubAnswer {
  return { status, body: { data, meta: { request_id: '00000000-0000-4000-8000-000000000000' } } };
}

/** The error envelope. */
export function failure(status: number, code: string, detail = code): StubAnswer {
  return {
    status,
    body: {
      error: {
        type: status >= 500 ? 'api_error' : 'request_error',
        code,
        detail,
        documentation_url: `https://example.test/${code}`,
      },
      meta: { request_id: '00000000-0000-4000-8000-000000000001' },
    },
  };
}

export async function startWireStub(): Promise<WireStub> {
  const routes = new Map<string, StubRoute>();
  const requests: StubRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stub');
      const recorded = {
        method: request.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const route = routes.get(`${recorded.method} ${url.pathname}`);
      const answer = route ? route(recorded) : failure(404, 'not_found');
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.status === 204 ? undefined : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (method, path, answer) => routes.set(`${method} ${path}`, answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
