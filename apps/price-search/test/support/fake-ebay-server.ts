import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** A request the fake eBay received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** How the fake answers searches: a status and a JSON body in the Browse API wire format. */
export type SearchAnswer = { status: number; body: unknown };

/**
 * A local HTTP server speaking the eBay OAuth and Browse API wire formats, started for one test.
 * Tokens are `token-1`, `token-2`, … ; a search with a token listed in `rejectedTokens` gets 401.
 */
export async function startFakeEbay(answerSearch: (request: ReceivedRequest) => SearchAnswer) {
  const received: ReceivedRequest[] = [];
  const rejectedTokens = new Set<string>();
  let tokensIssued = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (request.method === 'POST' && request.path === '/identity/v1/oauth2/token') {
        const expected = `Basic ${Buffer.from('client-id:client-secret').toString('base64')}`;
        if (req.headers.authorization !== expected) {
          send(401, { error: 'invalid_client', error_description: 'client authentication failed' });
          return;
        }
        tokensIssued += 1;
        send(200, { access_token: `token-${tokensIssued}`, expires_in: 7200, token_type: 'Application Access Token' });
        return;
      }
      if (request.method === 'GET' && request.path === '/buy/browse/v1/item_summary/search') {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (rejectedTokens.has(token)) {
          send(401, { errors: [{ errorId: 1001, message: 'Invalid access token' }] });
          return;
        }
        const answer = answerSearch(request);
        send(answer.status, answer.body);
        return;
      }
      send(404, { errors: [{ errorId: 0, message: 'not found' }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    rejectedTokens,
    searches: () => received.filter((request) => request.path.endsWith('/item_summary/search')),
    tokenGrants: () => received.filter((request) => request.path.endsWith('/oauth2/token')),
  };
}

/** An item summary as the Browse API returns it (prices are decimal strings). */
export function anItemSummary(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    itemId: 'v1|358845422976|0',
    legacyItemId: '358845422976',
    title: 'Apple iPhone 13 128GB Midnight Unlocked',
    price: { value: '329.99', currency: 'GBP' },
    condition: 'Used',
    conditionId: '3000',
    buyingOptions: ['FIXED_PRICE', 'BEST_OFFER'],
    itemWebUrl: 'https://www.ebay.co.uk/itm/358845422976',
    image: { imageUrl: 'https://i.ebayimg.com/images/g/abc/s-l225.jpg' },
    seller: { username: 'seller', feedbackPercentage: '99.8', feedbackScore: 1520 },
    itemLocation: { country: 'GB', postalCode: 'M1****' },
    ...overrides,
  };
}

/** A search response envelope. */
export function aSearchResponse(items: readonly unknown[], extra: Record<string, unknown> = {}): unknown {
  return {
    href: 'https://api.ebay.com/buy/browse/v1/item_summary/search?q=iphone&limit=10&offset=0',
    total: items.length,
    limit: 10,
    offset: 0,
    itemSummaries: items,
    ...extra,
  };
}
