/**
 * The operations endpoints of a real `drawdown serve` on a private PostgreSQL server that the
 * test stops and starts again: `/readyz` answers 200 while the database answers, 503 naming the
 * database while it is down (and `/livez` stays 200), and 200 again once it is back. During the
 * outage the log stays short: repeated failures are written a few times, then counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PrivatePostgresServer, startPrivatePostgres } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService, type ServeProcess, startServe } from '../support/cli-process.js';

async function readiness(
  opsUrl: string,
): Promise<{ status: number; body: { status: string; checks: Record<string, string> } }> {
  const response = await fetch(`${opsUrl}/readyz`, { signal: AbortSignal.timeout(10_000) });
  return {
    status: response.status,
    body: (await response.json()) as { status: string; checks: Record<string, string> },
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const value = await read();
    if (done(value) || attempt >= 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('readiness with the database down', () => {
  let postgres: PrivatePostgresServer;
  let dataDir: string;
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    buildService();
    postgres = await startPrivatePostgres();
    dataDir = mkdtempSync(join(tmpdir(), 'drawdown-ready-'));
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready, then 503 while PostgreSQL is down (alive all along), then ready again', async () => {
    server = await startServe(['--data-dir', dataDir, '--database-url', postgres.url, '--migrate']);
    const opsUrl = /operations: (http:\/\/\S+)/.exec(server.output())?.[1] ?? '';
    expect(opsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const ready = await readiness(opsUrl);
    expect(ready).toEqual({
      status: 200,
      body: { status: 'ready', checks: { accepting: 'ok', database: 'ok', schema: 'ok', workers: 'ok' } },
    });
    expect(await (await fetch(`${opsUrl}/version`)).json()).toEqual({
      name: 'drawdown',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    // The public API ports do not serve them.
    expect((await fetch(`${server.liveUrl}/readyz`)).status).not.toBe(200);

    const linesBefore = server.output().split('\n').length;
    await postgres.halt();
    const running = server;
    const down = await until(
      () =>
        readiness(opsUrl).catch((error: unknown) => {
          throw new Error(`${String(error)}\n${running.output()}`);
        }),
      (result) => result.status === 503,
    );
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('not_ready');
    expect(down.body.checks.database).not.toBe('ok');
    expect(down.body.checks.accepting).toBe('ok');
    expect((await fetch(`${opsUrl}/livez`)).status).toBe(200);
    // Metrics still answer, saying the database is down rather than repeating stale queue figures.
    const metrics = await fetch(`${opsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(/^drawdown_database_up 0$/m);
    // Readiness as a gauge, for the alert (Prometheus cannot scrape /readyz's JSON).
    expect(text).toMatch(/^drawdown_ready 0$/m);
    expect(text).toMatch(/^drawdown_usage_events_pending nan$/im);
    // The API answers a clear error rather than hanging or pretending.
    const refused = await fetch(`${server.sandboxUrl}/products`, {
      headers: { authorization: 'Bearer pdl_sdbx_apikey_00000000000000000000000000_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    });
    expect([500, 503]).toContain(refused.status);
    // Two seconds of outage: the workers fail every poll, yet the log stays short.
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    await postgres.resume();
    const back = await until(
      () => readiness(opsUrl),
      (result) => result.status === 200,
    );
    expect(back.status).toBe(200);
    const outageLines = server
      .output()
      .split('\n')
      .slice(linesBefore)
      .filter((line) => line.includes('"level":"error"'));
    expect(outageLines.length).toBeGreaterThan(0);
    // A handful per failing worker, each one JSON line with its stack inside (the limiter itself is
    // unit-tested in observability.test.ts).
    expect(outageLines.length).toBeLessThanOrEqual(60);
    for (const line of outageLines) expect(() => JSON.parse(line)).not.toThrow();
  }, 120_000);
});
