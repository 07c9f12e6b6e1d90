/**
 * Debian's HAProxy (installed by `scripts/ensure-haproxy.sh`), started by a test in front of
 * service processes with `deploy/haproxy.cfg`'s directives: health checks on each process's
 * `/readyz`, connection failures resent to another process, nothing already sent resent. The
 * check intervals are shorter than the example's, and an admin socket reports each server's state.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceProcess } from '../usage/service-process.js';

/** The HAProxy program: on PATH, or where Debian puts it (root's PATH may lack /usr/sbin). */
function haproxyBinary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy || echo /usr/sbin/haproxy']).toString().trim();
  } catch {
    return '/usr/sbin/haproxy';
  }
}

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

/** One command on HAProxy's admin socket, its whole answer. */
function adminCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(socket);
    let answer = '';
    connection.on('data', (chunk) => {
      answer += chunk.toString();
    });
    connection.on('end', () => resolve(answer));
    connection.on('error', reject);
    connection.write(`${command}\n`);
  });
}

export interface Balancer {
  /** The sandbox API through the balancer. */
  readonly url: string;
  /** Each server's status (`UP`, `DOWN`, …) by its name: `s0`, `s1`, … in the order given. */
  states(): Promise<Map<string, string>>;
  /** What HAProxy printed, for failure messages. */
  output(): string;
  close(): void;
}

/** Starts HAProxy in front of the processes' sandbox APIs, checking each one's `/readyz`; resolves once it listens. */
export async function startBalancer(processes: readonly ServiceProcess[]): Promise<Balancer> {
  const folder = mkdtempSync(join(tmpdir(), 'drawdown-haproxy-'));
  const socket = join(folder, 'admin.sock');
  const port = await freePort();
  const servers = processes.map((process, index) => {
    const sandbox = new URL(process.sandboxUrl);
    const operations = new URL(process.operationsUrl ?? '');
    // Traffic to the sandbox port, the health check to the operations port's /readyz.
    return `  server s${index} ${sandbox.host} check port ${operations.port}`;
  });
  const config = [
    'global',
    `  stats socket ${socket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    // A check answered later than this counts as failed (without it, `inter` bounds the answer).
    '  timeout check 5s',
    // A connection the dead process refuses is tried again, on another server: the request was never sent.
    '  retries 3',
    '  option redispatch 1',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  default_backend drawdown',
    'backend drawdown',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 300ms fastinter 150ms downinter 300ms fall 2 rise 2',
    ...servers,
    '',
  ].join('\n');
  const configFile = join(folder, 'haproxy.cfg');
  writeFileSync(configFile, config);
  const child: ChildProcess = spawn(haproxyBinary(), ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const states = async () => {
    const [header = '', ...rows] = (await adminCommand(socket, 'show stat')).trim().split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const found = new Map<string, string>();
    for (const row of rows) {
      const fields = row.split(',');
      const record = Object.fromEntries(columns.map((column, index) => [column, fields[index] ?? '']));
      if (record.pxname === 'drawdown' && /^s\d+$/.test(record.svname ?? ''))
        found.set(record.svname ?? '', record.status ?? '');
    }
    return found;
  };
  const close = () => {
    child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) break;
    if ((await states().catch(() => new Map())).size === processes.length)
      return { url: `http://127.0.0.1:${port}`, states, output: () => output, close };
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  close();
  throw new Error(`HAProxy did not start:\n${output}`);
}
