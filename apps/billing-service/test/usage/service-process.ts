/**
 * The built service as a child process, for tests that kill it: build once, run the CLI against
 * a data folder or database, start `drawdown serve` on free loopback ports and wait until it
 * answers, and stop it with any signal.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCliInProcess } from '../support/cli-process.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
const BIN = join(REPO_ROOT, 'apps/billing-service/bin/drawdown.js');
const BUILT_CLI = join(REPO_ROOT, 'apps/billing-service/dist/cli/main.js');

/**
 * Brings `dist` up to date. `tsc -b` does nothing when nothing changed; the lock keeps two test
 * files (or two engineers) from writing the same outputs at once.
 */
export function buildService(): void {
  try {
    const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    execFileSync('flock', ['/tmp/drawdown-build.lock', process.execPath, tsc, '-b', 'tsconfig.build.json'], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    // A type error elsewhere still emits; only a missing build is fatal.
    if (!existsSync(BUILT_CLI)) throw error;
  }
}

export interface StorageFlags {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
}

/** The storage flags, with --migrate: these tests start from empty databases. */
function storageArgs(storage: StorageFlags): string[] {
  return [
    '--data-dir',
    storage.dataDir,
    ...(storage.databaseUrl ? ['--database-url', storage.databaseUrl] : []),
    '--migrate',
  ];
}

/**
 * Runs a `drawdown … --json` command and returns its parsed output. It runs through the binary's
 * entry function in this process (ADR 0926): these tests make accounts and keys with it, and what
 * they put under test is the `serve` process. `runCliProcess` runs it as a process.
 */
export async function runCli(args: readonly string[], storage: StorageFlags): Promise<Record<string, unknown>> {
  const result = await runCliInProcess([...args, ...storageArgs(storage), '--json'], process.env);
  if (result.code !== 0)
    throw new Error(`drawdown ${args.join(' ')} failed (${result.code}): ${result.stdout} ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** Runs a `drawdown … --json` command as its own process and returns its parsed output. */
export function runCliProcess(args: readonly string[], storage: StorageFlags): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [BIN, ...args, ...storageArgs(storage), '--json'],
      { cwd: REPO_ROOT },
      (error, stdout) => {
        if (error) {
          fail(new Error(`drawdown ${args.join(' ')} failed: ${stdout} ${error.message}`));
          return;
        }
        try {
          done(JSON.parse(stdout) as Record<string, unknown>);
        } catch (parseError) {
          fail(parseError);
        }
      },
    );
  });
}

/** An early-access account and an all-permission sandbox key, made with the CLI. */
export async function createAccountWithCli(storage: StorageFlags): Promise<{ accountId: string; sandboxKey: string }> {
  const created = await runCli(['accounts', 'create', '--name', 'Fault test', '--early-access'], storage);
  const accountId = String((created.account as { id: string }).id);
  const key = await runCli(
    ['keys', 'create', '--account', accountId, '--env', 'sandbox', '--permission', 'all'],
    storage,
  );
  return { accountId, sandboxKey: String(key.token) };
}

export interface ServiceProcess {
  readonly sandboxUrl: string;
  readonly liveUrl: string;
  /** The operations endpoints (`/readyz`, `/metrics`). */
  readonly operationsUrl: string | undefined;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  /** Whether the process is still running. */
  running(): boolean;
  /** Sends the signal and waits until the process has exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
  /** The exit code once the process has exited (null while it runs or when a signal ended it). */
  exitCode(): number | null;
}

/** The address `drawdown serve` printed for `name` (`live` or `sandbox`), once it has. */
function printedAddress(output: string, name: string): string | undefined {
  return new RegExp(`^\\s+${name}:\\s+(http://\\S+)$`, 'm').exec(output)?.[1];
}

/**
 * Starts `drawdown serve` and waits until the sandbox address answers `key`. The ports are the
 * system's choice (port 0), read from what the service prints: a port picked free beforehand can be
 * taken by another process before the service binds it.
 */
export async function startServiceProcess(
  storage: StorageFlags,
  key: string,
  extraArgs: readonly string[] = [],
): Promise<ServiceProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      ...storageArgs(storage),
      '--live-port',
      '0',
      '--sandbox-port',
      '0',
      '--rate-limit',
      'off',
      '--ops-address',
      '127.0.0.1:0',
      ...extraArgs,
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DRAWDOWN_SCHEDULER_POLL_MS: '100' } },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once('exit', () => done());
  });
  const stop = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  let printed: { live: string; sandbox: string } | undefined;
  // A deadline rather than a count of polls: on a saturated machine Node alone can take half a minute to start.
  const deadline = Date.now() + 90_000;
  while (printed === undefined && Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const live = printedAddress(output, 'live');
    const sandbox = printedAddress(output, 'sandbox');
    if (live && sandbox) printed = { live, sandbox };
    else await new Promise((done) => setTimeout(done, 50));
  }
  if (printed === undefined) {
    await stop('SIGKILL');
    throw new Error(`the service did not start:\n${output}`);
  }
  const sandboxUrl = printed.sandbox;
  const service: ServiceProcess = {
    sandboxUrl,
    liveUrl: printed.live,
    operationsUrl: /^\s+operations:\s+(http:\/\/\S+)/m.exec(output)?.[1],
    output: () => output,
    exitCode: () => child.exitCode,
    running: () => child.exitCode === null && child.signalCode === null,
    stop,
  };
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${sandboxUrl}/meters`, { headers: { authorization: `Bearer ${key}` } });
      if (response.status === 200) return service;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  await service.stop('SIGKILL');
  throw new Error(`the service did not start:\n${output}`);
}
