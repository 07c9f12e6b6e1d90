/**
 * The PostgreSQL pool is sized from configuration (issue 16): `--database-pool-size` or
 * `DRAWDOWN_DATABASE_POOL_SIZE`, 10 by default, reaching the store's connection limit; anything but
 * a whole number from 1 to 1000 is refused at start.
 */
import { PostgresDatabase, parsePostgresTargets } from '@drawdown/billing-store';
import { describe, expect, it } from 'vitest';
import { storeConfig } from '../../src/compose-services.js';
import { resolveServiceConfig } from '../../src/config.js';

const url = 'postgres://postgres@127.0.0.1:5432/drawdown';

describe('the PostgreSQL pool size', () => {
  it('is 10 unless configured, and reaches the store', () => {
    const config = resolveServiceConfig({ 'database-url': url }, {});
    expect(config.databasePoolSize).toBe(10);
    expect(storeConfig(config)).toEqual({
      engine: 'postgres',
      url,
      maxConnections: 10,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 60_000,
    });
  });

  it('comes from the flag before the environment', () => {
    expect(
      resolveServiceConfig({ 'database-pool-size': '24' }, { DRAWDOWN_DATABASE_POOL_SIZE: '4' }).databasePoolSize,
    ).toBe(24);
    expect(resolveServiceConfig({}, { DRAWDOWN_DATABASE_POOL_SIZE: '4' }).databasePoolSize).toBe(4);
  });

  it.each(['0', '-1', '2.5', 'many', '1001'])('refuses %s', (value) => {
    expect(() => resolveServiceConfig({ 'database-pool-size': value }, {})).toThrow(
      /--database-pool-size must be a positive number/,
    );
  });
});

describe('the PostgreSQL timeouts and hosts (ADR 1520)', () => {
  it('reach the store from the flags; 0 turns the statement timeout off', () => {
    const config = resolveServiceConfig(
      { 'database-url': url, 'database-connect-timeout-ms': '1500', 'database-statement-timeout-ms': '0' },
      {},
    );
    expect(storeConfig(config)).toMatchObject({ connectTimeoutMs: 1_500, statementTimeoutMs: 0 });
  });

  it.each(['-1', '2.5', 'soon'])('refuses a statement timeout of %s', (value) => {
    expect(() => resolveServiceConfig({ 'database-statement-timeout-ms': value }, {})).toThrow(
      /--database-statement-timeout-ms must be a positive number/,
    );
  });

  it('reads every host of a multi-host URL, in order, and the read-write target', () => {
    const targets = parsePostgresTargets(
      'postgres://u:p%40ss@db1:5433,db2,[::1]:6000/drawdown?target_session_attrs=read-write&sslmode=disable',
    );
    expect(targets.hosts).toEqual([
      { host: 'db1', port: 5433 },
      { host: 'db2', port: 5432 },
      { host: '[::1]', port: 6000 },
    ]);
    expect(targets.readWrite).toBe(true);
    expect(targets.urls).toEqual([
      'postgres://u:p%40ss@db1:5433/drawdown?sslmode=disable',
      'postgres://u:p%40ss@db2:5432/drawdown?sslmode=disable',
      'postgres://u:p%40ss@[::1]:6000/drawdown?sslmode=disable',
    ]);
    expect(parsePostgresTargets(url).readWrite).toBe(false);
  });

  it('refuses a target it does not implement', () => {
    expect(() => parsePostgresTargets('postgres://db1,db2/drawdown?target_session_attrs=standby')).toThrow(
      /target_session_attrs must be any, read-write or primary; got standby/,
    );
  });

  it('opens a pool that skips a host that refuses and uses the next', async () => {
    // Port 1 on loopback refuses; the machine's PostgreSQL is the second host.
    const database = new PostgresDatabase(
      'postgres://postgres@127.0.0.1:1,127.0.0.1:5432/postgres?target_session_attrs=read-write',
      {
        connectTimeoutMs: 2_000,
      },
    );
    try {
      const row = await database.get<{ port: number }>('select inet_server_port() as port');
      expect(row?.port).toBe(5432);
    } finally {
      await database.close();
    }
  });
});

describe('trusted proxies', () => {
  it('takes a count of proxies; 0 leaves --trust-proxy to decide', () => {
    expect(resolveServiceConfig({ 'trusted-proxies': '2' }, {}).trustedProxies).toBe(2);
    expect(resolveServiceConfig({}, { DRAWDOWN_TRUSTED_PROXIES: '3' }).trustedProxies).toBe(3);
    expect(resolveServiceConfig({}, {}).trustedProxies).toBe(0);
  });

  it.each(['-1', '11', '1.5', 'all', '10.0.0.0/33', '10.0.0.1,bad'])('refuses %s', (value) => {
    expect(() => resolveServiceConfig({ 'trusted-proxies': value }, {})).toThrow(
      /--trusted-proxies must be a (whole )?number of proxies/,
    );
  });

  it('takes the proxies’ addresses and CIDR ranges instead of a count (ADR 1522)', () => {
    const trusted = resolveServiceConfig({ 'trusted-proxies': '10.0.0.0/8, fd00::/8,192.0.2.7' }, {}).trustedProxies;
    expect(typeof trusted === 'number' ? trusted : trusted.text).toBe('10.0.0.0/8,fd00::/8,192.0.2.7');
    if (typeof trusted === 'number') throw new Error('ranges expected');
    expect(trusted.contains('10.200.0.1')).toBe(true);
    expect(trusted.contains('192.0.2.8')).toBe(false);
  });
});
