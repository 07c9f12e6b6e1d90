/**
 * A PostgreSQL primary and a synchronous standby, started by a test from the installed server
 * binaries in a temporary folder on free loopback ports: streaming replication, the standby
 * promoted with `pg_ctl promote`, a server rebuilt as the new primary's standby with
 * `pg_basebackup`, and signals sent to a server's postmaster. The servers run as the `postgres`
 * system user when the test runs as root (initdb refuses root).
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/** The folder of the installed server's programs (where `postgres` resolves to). */
function serverBinaries(): string {
  const postgres = execFileSync('sh', ['-c', 'readlink -f "$(command -v postgres)"']).toString().trim();
  if (!postgres) throw new Error('no postgres binary on PATH');
  return dirname(postgres);
}

const BIN = serverBinaries();
const asRoot = process.getuid?.() === 0;
const serverUser = asRoot ? Number(execFileSync('id', ['-u', 'postgres']).toString()) : undefined;
const serverGroup = asRoot ? Number(execFileSync('id', ['-g', 'postgres']).toString()) : undefined;

/** Runs one of the server's programs (as `postgres` under root) and returns its output, or throws. */
function tool(name: string, args: readonly string[]): string {
  const result = spawnSync(join(BIN, name), args, {
    encoding: 'utf8',
    ...(serverUser === undefined ? {} : { uid: serverUser, gid: serverGroup }),
    env: { ...process.env, PGCONNECT_TIMEOUT: '5' },
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`${name} ${args.join(' ')} failed: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** `tool` without blocking the test's event loop: the load it runs goes on meanwhile. */
function toolAsync(name: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      join(BIN, name),
      args,
      {
        encoding: 'utf8',
        timeout: 120_000,
        ...(serverUser === undefined ? {} : { uid: serverUser, gid: serverGroup }),
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${name} ${args.join(' ')} failed: ${stdout}${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** A loopback port free now (the system's choice). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface PostgresServer {
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** The postmaster's process id, read from `postmaster.pid`; undefined when it is not running. */
  postmasterPid(): number | undefined;
  /** Starts the server and waits until it accepts connections. */
  start(): void;
  /** Signals the postmaster alone. */
  signal(signal: NodeJS.Signals): void;
  /** Signals the postmaster and every process it started (backends, WAL sender and receiver): the whole server. */
  signalAll(signal: NodeJS.Signals): void;
  /** Whether the postmaster and the processes it had when last signalled are gone. */
  gone(): boolean;
  /** Promotes a standby and waits until it takes writes. */
  promote(): Promise<void>;
  /** Stops it however it is (a stopped process is continued first), leaving its folder. */
  kill(): void;
  query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<R[]>;
}

const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  'wal_level = replica',
  'max_wal_senders = 8',
  'wal_keep_size = 256MB',
  'hot_standby = on',
  // Every commit waits until a standby has flushed it: the standby loses nothing acknowledged.
  "synchronous_standby_names = '*'",
  'synchronous_commit = on',
  // The tests kill processes, never the machine: the page cache survives, so fsync buys nothing here.
  'fsync = off',
  'full_page_writes = off',
  'max_connections = 200',
  'shared_buffers = 32MB',
  'wal_receiver_status_interval = 1s',
  'wal_retrieve_retry_interval = 200ms',
];

export class PostgresPair {
  readonly root: string;
  readonly servers: PostgresServer[] = [];

  private constructor(root: string) {
    this.root = root;
  }

  /** Makes the folder the servers live in, owned by the user they run as. */
  static create(): PostgresPair {
    const root = mkdtempSync(join(tmpdir(), 'drawdown-pg-pair-'));
    if (serverUser !== undefined) chownSync(root, serverUser, serverGroup ?? serverUser);
    return new PostgresPair(root);
  }

  private server(name: string, port: number): PostgresServer {
    const dataDir = join(this.root, name);
    const log = join(this.root, `${name}.log`);
    const pidOf = () => {
      const file = join(dataDir, 'postmaster.pid');
      if (!existsSync(file)) return undefined;
      const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
      return Number.isInteger(pid) && pid > 0 ? pid : undefined;
    };
    let lastPid: number | undefined;
    let family: number[] = [];
    const childrenOf = (pid: number): number[] => {
      try {
        return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        // A zombie still answers signal 0; its state says it is gone.
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        return state !== 'Z';
      } catch {
        return false;
      }
    };
    const server: PostgresServer = {
      name,
      port,
      dataDir,
      postmasterPid: pidOf,
      start: () => {
        // A killed postmaster can linger as a zombie until init reaps it (it is not our child), and
        // PostgreSQL takes a lock file (the data folder's, the socket's) naming a pid that still
        // exists for a running server: the locks of a postmaster dead or a zombie are stale, and go.
        // (A server rebuilt on a killed one's port meets the socket's lock alone.)
        for (const lock of [join(dataDir, 'postmaster.pid'), join(this.root, `.s.PGSQL.${port}.lock`)]) {
          if (!existsSync(lock)) continue;
          const holder = Number(readFileSync(lock, 'utf8').split('\n')[0]);
          if (Number.isInteger(holder) && holder > 0 && !alive(holder)) rmSync(lock, { force: true });
        }
        try {
          tool('pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '60', 'start', '-o', `-p ${port} -k ${this.root}`]);
        } catch (error) {
          const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
          throw new Error(`${(error as Error).message}\n${name}'s log:\n${tail}`);
        }
        lastPid = pidOf();
      },
      signal: (signal) => {
        const pid = pidOf() ?? lastPid;
        if (pid === undefined) throw new Error(`${name} has no postmaster`);
        lastPid = pid;
        family = [pid, ...childrenOf(pid)];
        process.kill(pid, signal);
      },
      signalAll: (signal) => {
        const pid = pidOf() ?? lastPid;
        if (pid === undefined) throw new Error(`${name} has no postmaster`);
        lastPid = pid;
        // The postmaster is stopped first, so it starts no child between the listing and the
        // signal (a child left running would hold the shared memory and keep a restart out).
        process.kill(pid, 'SIGSTOP');
        family = [...childrenOf(pid), pid];
        for (const member of family) {
          try {
            process.kill(member, signal);
          } catch {
            // ended meanwhile
          }
        }
      },
      gone: () => lastPid === undefined || family.concat(lastPid).every((pid) => !alive(pid)),
      promote: async () => {
        await toolAsync('pg_ctl', ['-D', dataDir, '-w', '-t', '60', 'promote']);
      },
      kill: () => {
        const pid = pidOf() ?? lastPid;
        if (pid === undefined || !alive(pid)) return;
        // SIGKILL ends a stopped process too; nothing of a hung server runs again.
        server.signalAll('SIGKILL');
      },
      query: async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
        const client = new pg.Client({
          host: '127.0.0.1',
          port,
          user: 'postgres',
          database: 'postgres',
          connectionTimeoutMillis: 5_000,
        });
        client.on('error', () => {});
        await client.connect();
        try {
          return (await client.query<R>(sql, values)).rows;
        } finally {
          await client.end().catch(() => {});
        }
      },
    };
    return server;
  }

  /** Makes and starts a primary. */
  async startPrimary(name: string): Promise<PostgresServer> {
    const port = await freePort();
    const server = this.server(name, port);
    tool('initdb', ['-D', server.dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    writeFileSync(join(server.dataDir, 'postgresql.conf'), `${SETTINGS.join('\n')}\n`, { flag: 'a' });
    writeFileSync(join(server.dataDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n', { flag: 'a' });
    server.start();
    this.servers.push(server);
    return server;
  }

  /** Makes a standby of `primary` from a base backup (a folder of that name is replaced) and starts it. */
  async startStandby(name: string, primary: PostgresServer, port?: number): Promise<PostgresServer> {
    port ??= await freePort();
    const server = this.server(name, port);
    rmSync(server.dataDir, { recursive: true, force: true });
    mkdirSync(server.dataDir, { mode: 0o700 });
    if (serverUser !== undefined) chownSync(server.dataDir, serverUser, serverGroup ?? serverUser);
    tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      server.dataDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    server.start();
    this.servers.push(server);
    return server;
  }

  /** Waits until `primary` has a synchronous standby streaming (a condition, polled). */
  static async waitForSyncStandby(primary: PostgresServer, deadlineMs = 60_000): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const rows = await primary
        .query<{ sync_state: string }>("select sync_state from pg_stat_replication where state = 'streaming'")
        .catch(() => []);
      if (rows.some((row) => row.sync_state === 'sync')) return;
      if (Date.now() > deadline) throw new Error(`no synchronous standby on ${primary.name}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * Whether commits wait for a synchronous standby (`'*'`) or not (`''`): a primary left alone
   * after a failover would otherwise hold every commit until a standby returns. The runbook's
   * choice, made on the server with `ALTER SYSTEM` and a reload.
   */
  static async requireSyncStandby(primary: PostgresServer, required: boolean): Promise<void> {
    await primary.query(`alter system set synchronous_standby_names = '${required ? '*' : ''}'`);
    await primary.query('select pg_reload_conf()');
    // A new session reads the reloaded file; polled, since the postmaster rereads it on its own time.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const rows = await primary.query<{ setting: string }>(
        "select current_setting('synchronous_standby_names') as setting",
      );
      if ((rows[0]?.setting === '*') === required) return;
      if (Date.now() > deadline) throw new Error(`${primary.name} never took synchronous_standby_names = ${required}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Kills every server and removes the folder. */
  dispose(): void {
    for (const server of this.servers) server.kill();
    rmSync(this.root, { recursive: true, force: true });
  }
}
