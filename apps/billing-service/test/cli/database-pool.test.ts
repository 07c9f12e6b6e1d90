/**
 * The PostgreSQL pool is sized from configuration (issue 16): `--database-pool-size` or
 * `DRAWDOWN_DATABASE_POOL_SIZE`, 10 by default, reaching the store's connection limit; anything but
 * a whole number from 1 to 1000 is refused at start.
 */
import { describe, expect, it } from 'vitest';
import { storeConfig } from '../../src/compose-services.js';
import { resolveServiceConfig } from '../../src/config.js';

const url = 'postgres://postgres@127.0.0.1:5432/drawdown';

describe('the PostgreSQL pool size', () => {
  it('is 10 unless configured, and reaches the store', () => {
    const config = resolveServiceConfig({ 'database-url': url }, {});
    expect(config.databasePoolSize).toBe(10);
    expect(storeConfig(config)).toEqual({ engine: 'postgres', url, maxConnections: 10 });
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
