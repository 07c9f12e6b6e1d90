/**
 * @module
 * Runs the built `drawdown` binary the way an operator does: as a separate process, against a
 * data folder or a PostgreSQL database, and `serve` on free loopback ports.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const BIN = join(REPO_ROOT, 'apps', 'billing-service', 'bin', 'drawdown.js');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let built = false;

/**
 * Builds the service (and what it references) so that `bin/drawdown.js` runs current code: once
 * per test process. Test files share their worker process (ADR 0011) and the sources do not change
 * during a run, yet some twenty `beforeAll`s asked for a build, each an `npx tsc -b` of about 2 s
 * even with nothing to rebuild. TypeScript's own binary is run directly, without npx's start-up.
 */
export function buildService(): void {
  if (built) return;
  try {
    execFileSync(process.execPath, [TSC, '-b', 'apps/billing-service'], { cwd: REPO_ROOT, stdio: 'pipe' });
  } catch (error) {
    // tsc -b still emits when another package has a type error; only a missing build is fatal.
    if (!existsSync(join(REPO_ROOT, 'apps', 'billing-service', 'dist', 'cli', 'main.js'))) throw error;
  }
  built = true;
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The flags that point a command at `storage`: its data folder, and its PostgreSQL database if it has one. */
export function storageFlags(storage: {
  readonly dataDir: string;
  readonly databaseUrl?: string | undefined;
}): string[] {
  return ['--data-dir', storage.dataDir, ...(storage.databaseUrl ? ['--database-url', storage.databaseUrl] : [])];
}

/** A command's `--json` output, parsed; the test fails with everything it printed when it is not JSON. */
export function jsonOutput(result: CliResult): Record<string, unknown> {
  expect(() => JSON.parse(result.stdout), `${result.stdout}${result.stderr}`).not.toThrow();
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** Runs one `drawdown` command to completion, in `cwd` (the repository root unless given). */
export function runCli(args: readonly string[], cwd = REPO_ROOT): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd, env: cliEnvironment() }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs one `drawdown` command in this process, through the binary's own entry function (`main`)
 * with its output captured and the environment `runCli` gives a process: what the command prints
 * and its exit code, as `runCli` answers them, without the second of a new Node process. Each file
 * keeps a few `runCli` spawns that prove the binary, its argv and exit codes (ADR 0926).
 */
export function runCliInProcess(args: readonly string[], env = cliEnvironment()): Promise<CliResult> {
  // One command at a time: separate processes wait on each other's SQLite write lock, but two
  // commands in one thread could not (SQLite's busy wait blocks the thread the other one needs).
  const result = inProcessQueue.then(() => runInProcess(args, env));
  inProcessQueue = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}

let inProcessQueue: Promise<void> = Promise.resolve();

async function runInProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
  });
  return { code, stdout, stderr };
}

/** The environment without the DRAWDOWN_* variables of the machine, so flags alone decide. */
export function cliEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DRAWDOWN_')));
}

export interface ServeProcess {
  readonly liveUrl: string;
  readonly sandboxUrl: string;
  /** Everything the process printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with the output once it matches `pattern`; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `drawdown serve` on ports the system chooses (port 0) and waits until it prints both
 * addresses: a port picked free beforehand can be taken by another process before serve binds it.
 */
export async function startServe(storageArgs: readonly string[]): Promise<ServeProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      ...storageArgs,
      '--live-port',
      '0',
      '--sandbox-port',
      '0',
      // Operations endpoints on a free port, so test processes never collide on the default.
      '--ops-address',
      '127.0.0.1:0',
    ],
    { cwd: REPO_ROOT, env: { ...cliEnvironment(), DRAWDOWN_RATE_LIMIT: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  const waiters = new Set<() => void>();
  const onOutput = (chunk: Buffer) => {
    printed += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(printed)) return;
        waiters.delete(check);
        resolve(printed);
      };
      waiters.add(check);
      check();
      void exited.then((code) => reject(new Error(`drawdown serve exited with ${code}:\n${printed}`)));
    });
  const started = await waitFor(/sandbox:\s+http:\/\/\S+\n/);
  const address = (name: string) => new RegExp(`${name}:\\s+(http://\\S+)\n`).exec(started)?.[1] ?? '';
  return {
    liveUrl: address('live'),
    sandboxUrl: address('sandbox'),
    output: () => printed,
    waitFor,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
