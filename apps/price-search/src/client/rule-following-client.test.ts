import { describe, expect, it } from 'vitest';
import { PriceSearchClient } from './price-search-client.js';
import { RuleFollowingClient, SearchFailedError } from './rule-following-client.js';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

// A fetch that answers from a script and remembers what was asked.
function scriptedFetch(answer: (path: string, body: unknown) => Answer) {
  const calls: Array<{ path: string; body: unknown }> = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const path = new URL(String(input)).pathname;
    const body = init?.body === undefined ? undefined : JSON.parse(String(init.body));
    calls.push({ path, body });
    const reply = answer(path, body);
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

const listing = { product: 'Kettle', price: 20, currency: 'GBP', condition: 'New', network: 'argos_uk', url: 'u' };
const health = { status: 'degraded', version: '0.1.0', time: '', networks: [], sources: [] };

function clientWith(answer: (path: string, body: unknown) => Answer) {
  const script = scriptedFetch(answer);
  const client = new RuleFollowingClient(
    new PriceSearchClient({ baseUrl: 'http://price-search.test', fetch: script.fetch }),
  );
  return { client, calls: script.calls };
}

describe('RuleFollowingClient', () => {
  it('retries once with a broader query and the text budget as max_price when nothing is found', async () => {
    const { client, calls } = clientWith((_, body) => ({
      status: 200,
      body: (body as { query: string }).query === 'russell kettle' ? [listing] : [],
    }));
    const result = await client.search({ query: 'refurbished russell hobbs kettle under £40' });
    expect(calls.map((call) => call.body)).toEqual([
      { query: 'refurbished russell hobbs kettle under £40' },
      { query: 'russell kettle', max_price: 40 },
    ]);
    expect(result.meta).toMatchObject({ broadened: true, searched_query: 'russell kettle', returned: 1 });
  });

  it('does not retry when the query cannot be broader', async () => {
    const { client, calls } = clientWith(() => ({ status: 200, body: [] }));
    const result = await client.search({ query: 'kettle' });
    expect(calls).toHaveLength(1);
    expect(result.meta.broadened).toBe(false);
  });

  it('checks health after the second consecutive service failure, not before', async () => {
    const { client, calls } = clientWith((path) =>
      path === '/health'
        ? { status: 200, body: health }
        : {
            status: 503,
            body: { error: { code: 'networks_unavailable', message: 'Every requested network failed.' } },
          },
    );
    await expect(client.search({ query: 'kettle' })).rejects.toThrow('Every requested network failed.');
    expect(calls.filter((call) => call.path === '/health')).toHaveLength(0);
    const second = await client.search({ query: 'kettle' }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(SearchFailedError);
    expect((second as SearchFailedError).healthSummary).toBe('service degraded');
    expect(calls.filter((call) => call.path === '/health')).toHaveLength(1);
  });

  it('does not count refusals as failures of the service', async () => {
    let refuse = true;
    const { client, calls } = clientWith((path) => {
      if (path === '/health') return { status: 200, body: health };
      if (refuse) return { status: 400, body: { error: { code: 'query_too_long', message: 'too long' } } };
      return { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } };
    });
    await expect(client.search({ query: 'kettle' })).rejects.toThrow('too long');
    refuse = false;
    await expect(client.search({ query: 'kettle' })).rejects.toThrow('boom');
    expect(calls.filter((call) => call.path === '/health')).toHaveLength(0);
  });

  it('resets the count after a success', async () => {
    let fail = true;
    const { client, calls } = clientWith((path) => {
      if (path === '/health') return { status: 200, body: health };
      return fail ? { status: 502, body: 'bad gateway' } : { status: 200, body: [listing] };
    });
    await client.search({ query: 'kettle' }).catch(() => {});
    fail = false;
    await client.search({ query: 'kettle' });
    fail = true;
    await client.search({ query: 'kettle' }).catch(() => {});
    expect(calls.filter((call) => call.path === '/health')).toHaveLength(0);
  });
});
