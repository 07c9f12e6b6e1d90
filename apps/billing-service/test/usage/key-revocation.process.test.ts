/**
 * Two `drawdown serve` processes on one database, each with its own cache of authenticated keys
 * (ADR 0710). A key both have just used is revoked by a third process (the CLI): a second later
 * both refuse it, whatever they had cached, while another key of the account keeps working.
 */
import { createTestStorage, ENGINES, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CACHE_TTL_MS } from '../../src/infrastructure/authenticated-key-cache.js';
import {
  buildService,
  createAccountWithCli,
  runCli,
  runCliProcess,
  type ServiceProcess,
  startServiceProcess,
} from './service-process.js';

async function status(service: ServiceProcess, key: string): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${service.sandboxUrl}/meters`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { error?: { code: string } };
  return body.error ? { status: response.status, code: body.error.code } : { status: response.status };
}

describe.each(ENGINES)('%s: revoking a key two service processes have cached', (engine) => {
  let storage: TestStorage;
  const services: ServiceProcess[] = [];
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage(engine);
    const created = await createAccountWithCli(storage);
    key = created.sandboxKey;
    const other = await runCli(
      ['keys', 'create', '--account', created.accountId, '--env', 'sandbox', '--permission', 'all'],
      storage,
    );
    otherKey = String(other.token);
    services.push(await startServiceProcess(storage, key), await startServiceProcess(storage, key));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop('SIGTERM')));
    await storage?.dispose();
  });

  it('is refused by both within a second of the revocation', async () => {
    for (const service of services) {
      expect(await status(service, key)).toEqual({ status: 200 });
      expect(await status(service, otherKey)).toEqual({ status: 200 });
    }
    await runCliProcess(['keys', 'revoke', `apikey_${key.split('_')[3]}`], storage);
    // The revocation has committed; every cache entry was read before it, so none outlives this.
    await new Promise((done) => setTimeout(done, KEY_CACHE_TTL_MS + 50));
    for (const service of services) {
      expect(await status(service, key)).toEqual({ status: 403, code: 'invalid_token' });
      expect(await status(service, otherKey)).toEqual({ status: 200 });
    }
  }, 60_000);
});
