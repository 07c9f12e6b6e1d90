/**
 * Idle keep-alive connections of the live and sandbox APIs stay open 72 s by default (ADR 1408):
 * longer than a load balancer's usual 60 s idle timeout, so the balancer never reuses a socket
 * the service is closing. Node's own default is 5 s.
 */
import { request } from 'node:http';
import { type BillingHarness, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveServiceConfig } from '../../src/config.js';

/** The Keep-Alive header of a plain request to `url`, on a connection the client keeps open. */
function keepAliveHeader(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}/event-types`, { headers: { connection: 'keep-alive' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.headers['keep-alive'])));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('keep-alive connections', () => {
  let harness: BillingHarness;

  beforeAll(async () => {
    harness = await startBillingHarness();
  });
  afterAll(() => harness.close());

  it('are kept 72 seconds on both environments’ APIs, as the server tells each client', async () => {
    expect(await keepAliveHeader(harness.liveUrl)).toBe('timeout=72');
    expect(await keepAliveHeader(harness.sandboxUrl)).toBe('timeout=72');
  });

  it('take --keep-alive-timeout-ms or DRAWDOWN_KEEP_ALIVE_TIMEOUT_MS, and refuse anything but a positive integer', () => {
    expect(resolveServiceConfig({}, {}).keepAliveTimeoutMs).toBe(72_000);
    expect(resolveServiceConfig({ 'keep-alive-timeout-ms': '90000' }, {}).keepAliveTimeoutMs).toBe(90_000);
    expect(resolveServiceConfig({}, { DRAWDOWN_KEEP_ALIVE_TIMEOUT_MS: '65000' }).keepAliveTimeoutMs).toBe(65_000);
    expect(() => resolveServiceConfig({ 'keep-alive-timeout-ms': '0' }, {})).toThrow(/keep-alive-timeout-ms/);
    expect(() => resolveServiceConfig({ 'keep-alive-timeout-ms': '5s' }, {})).toThrow(/keep-alive-timeout-ms/);
  });
});
