/**
 * The files that hold secrets and customers' data are readable and writable by their owner only
 * (ADR 1481), whatever the process's umask lets through (these commands run under the usual
 * 022): the SQLite database and, while `serve` runs, its `-wal` and `-shm`; the demo keys file
 * of `drawdown init --keys-file`; and `drawdown backup`'s copy. A database an older build left
 * readable by others is narrowed to 0600 when it is opened, and `serve` says so in its log. The
 * commands are the built `drawdown` binary, run as an operator runs them.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeServices } from '../../src/compose-services.js';
import { resolveServiceConfig } from '../../src/config.js';
import { buildService, runCli, startServe } from '../support/cli-process.js';
import { memoryLog } from '../support/memory-log.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

beforeAll(() => buildService(), 180_000);

describe('files holding secrets', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'drawdown-modes-'));
  const dataDir = join(scratch, 'data');
  const database = join(dataDir, 'drawdown.sqlite');
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('are created 0600: the database, its -wal and -shm, the keys file and a backup', async () => {
    const migrated = await runCli(['migrate', '--data-dir', dataDir]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(modeOf(database)).toBe(0o600);

    const keysFile = join(scratch, 'demo-keys.json');
    const init = await runCli(['init', '--keys-file', keysFile, '--data-dir', dataDir]);
    expect(init.code, init.stderr).toBe(0);
    expect(modeOf(keysFile)).toBe(0o600);

    const server = await startServe(['--data-dir', dataDir]);
    try {
      // While serve runs the write-ahead log and its index exist beside the database.
      for (const suffix of ['-wal', '-shm']) {
        expect(existsSync(`${database}${suffix}`), suffix).toBe(true);
        expect(modeOf(`${database}${suffix}`), suffix).toBe(0o600);
      }
      const backup = join(scratch, 'backup.sqlite');
      const backedUp = await runCli(['backup', backup, '--data-dir', dataDir]);
      expect(backedUp.code, backedUp.stderr).toBe(0);
      expect(modeOf(backup)).toBe(0o600);
      // A backup never overwrites, and leaves the file it refused alone.
      const again = await runCli(['backup', backup, '--data-dir', dataDir]);
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/exists already/);
      expect(modeOf(backup)).toBe(0o600);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(modeOf(database)).toBe(0o600);
  }, 120_000);

  it('narrows a database others could read to 0600 when it is opened, and logs it', async () => {
    chmodSync(database, 0o644);
    const log = memoryLog();
    const services = await composeServices(resolveServiceConfig({ 'data-dir': dataDir, 'rate-limit': 'off' }, {}), {
      logger: log.logger,
    });
    try {
      expect(modeOf(database)).toBe(0o600);
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: 'database file was readable by others: narrowed to owner only',
          file: database,
          previousMode: '0644',
          mode: '0600',
        }),
      );
    } finally {
      await services.store.close();
    }
    // Opened again, there is nothing left to narrow and nothing to say.
    const quiet = memoryLog();
    const reopened = await composeServices(resolveServiceConfig({ 'data-dir': dataDir }, {}), { logger: quiet.logger });
    await reopened.store.close();
    expect(quiet.lines.filter((line) => String(line.msg).includes('narrowed'))).toEqual([]);
  });
});
