/**
 * @module
 * Finds a PostgreSQL server for the tests: the one named by DRAWDOWN_TEST_POSTGRES_URL, else
 * the machine's own on 127.0.0.1:5432, else a private one started from the installed binaries.
 * Tests never skip for want of PostgreSQL.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const MACHINE_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface PostgresServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** A PostgreSQL server of the test's own, which it may take down and bring back. */
export interface PrivatePostgresServer extends PostgresServer {
  /** Stops the server (immediately: clients see their connections die), keeping its data. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data. */
  resume(): Promise<void>;
}

export async function findOrStartPostgres(): Promise<PostgresServer> {
  const configured = process.env.DRAWDOWN_TEST_POSTGRES_URL;
  if (configured) return { url: configured, stop: async () => {} };
  if (await canConnect(MACHINE_SERVER_URL)) return { url: MACHINE_SERVER_URL, stop: async () => {} };
  return startPrivateServer();
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function postgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort().reverse() : [];
  for (const version of versions) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error('No PostgreSQL server at 127.0.0.1:5432 and no binaries under /usr/lib/postgresql to start one');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Starts a private PostgreSQL server from the installed binaries (tests that stop the database). */
export function startPrivatePostgres(): Promise<PrivatePostgresServer> {
  return startPrivateServer();
}

async function startPrivateServer(): Promise<PrivatePostgresServer> {
  const bin = postgresBinaries();
  const dir = mkdtempSync(join(tmpdir(), 'drawdown-pg-'));
  const dataDir = join(dir, 'data');
  const port = await freePort();
  // initdb refuses to run as root; the tests then run the server as the postgres user.
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asPostgres.length > 0) execFileSync('chown', ['postgres', dir]);
  const run = (file: string, args: string[]) => {
    const [command, ...rest] = [...asPostgres, join(bin, file), ...args];
    execFileSync(command as string, rest, { stdio: 'ignore' });
  };
  run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      dataDir,
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-w',
      'start',
    ]);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    halt: async () => run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']),
    resume: async () => start(),
    stop: async () => {
      await new Promise<void>((resolve) => {
        const [command, ...rest] = [...asPostgres, join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'fast', 'stop'];
        spawn(command as string, rest, { stdio: 'ignore' }).on('exit', () => resolve());
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
