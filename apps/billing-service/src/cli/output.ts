import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where a command's output goes and which environment it reads: the process's own, unless
 * `main` was given others (the tests run most commands in their own process this way, ADR 0926).
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

const PROCESS_IO: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  get env() {
    return process.env;
  },
};

const current = new AsyncLocalStorage<CliIo>();

/** The output and environment of the command running now. */
export function cliIo(): CliIo {
  return current.getStore() ?? PROCESS_IO;
}

/** Runs `command` with `io` as its output and environment (the process's when absent). */
export function withCliIo<T>(io: CliIo | undefined, command: () => Promise<T>): Promise<T> {
  return io ? current.run(io, command) : command();
}

/** Prints a result as JSON for scripts, or as aligned `label: value` lines for people. */
export function printResult(json: boolean, value: Record<string, unknown>, lines: readonly [string, string][]): void {
  const { stdout } = cliIo();
  if (json) {
    stdout(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  const width = Math.max(...lines.map(([label]) => label.length));
  for (const [label, text] of lines) stdout(`${`${label}:`.padEnd(width + 2)}${text}\n`);
}
