/**
 * @module
 * Child processes for the benchmarks: pinned to a core with `taskset` when the machine has
 * it, their output collected, their memory read from /proc, and always stopped at the end.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Whether a command is on the PATH. */
export function commandExists(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

/** Pinning needs `taskset` and at least two cores: the server on core 0, load generators on core 1. */
export const PINNING = commandExists('taskset') && availableParallelism() >= 2;

export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

/** The command line that runs `command` pinned to `core` (taskset execs it: the pid stays the same). */
export function pinnedCommand(core, command, args) {
  return PINNING ? { command: 'taskset', args: ['-c', String(core), command, ...args] } : { command, args };
}

const running = new Set();

/**
 * Starts a process pinned to `core`. The result collects stdout and stderr and can wait for a
 * pattern in stdout.
 */
export function startProcess({ core, command, args, env = process.env, cwd = process.cwd() }) {
  const line = pinnedCommand(core, command, args);
  const child = spawn(line.command, line.args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves with the first match of `pattern` in stdout; rejects if the process exits first. */
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stdout);
        if (match) return match;
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`${command} exited before printing ${pattern}:\n${stdout}\n${stderr}`);
        }
        if (Date.now() > deadline)
          throw new Error(`${command} did not print ${pattern} in ${timeoutMs} ms:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** Asks a process to stop (SIGTERM), then kills it if it has not exited after `graceMs`. */
export async function stopProcess(handle, graceMs = 15_000) {
  if (handle.child.exitCode !== null || handle.child.signalCode !== null) return handle.exited;
  handle.child.kill('SIGTERM');
  const timer = setTimeout(() => handle.child.kill('SIGKILL'), graceMs);
  const result = await handle.exited;
  clearTimeout(timer);
  return result;
}

/** Kills whatever is still running (on a failure or Ctrl-C), so the bench never leaves a process behind. */
export function killAll() {
  for (const child of running) child.kill('SIGKILL');
}

/** Runs a process to completion and returns its output. */
export async function runToEnd(options) {
  const handle = startProcess(options);
  const { code, signal } = await handle.exited;
  return { code, signal, stdout: handle.stdout(), stderr: handle.stderr() };
}

/** Resident and peak resident memory of a process, in MiB, from /proc/<pid>/status. */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return match ? Number(match[1]) / 1024 : null;
    };
    return { rssMiB: field('VmRSS'), peakRssMiB: field('VmHWM') };
  } catch {
    return { rssMiB: null, peakRssMiB: null };
  }
}

/** Samples a process's memory every `everyMs` until `stop()` is called; returns the samples. */
export function sampleMemory(pid, everyMs = 200) {
  const samples = [];
  const timer = setInterval(() => {
    const memory = memoryOf(pid);
    if (memory.rssMiB !== null) samples.push(memory.rssMiB);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const last = memoryOf(pid);
      if (last.rssMiB !== null) samples.push(last.rssMiB);
      return {
        maxRssMiB: samples.length > 0 ? Math.max(...samples) : null,
        lastRssMiB: last.rssMiB,
        peakRssMiB: last.peakRssMiB,
        samples: samples.length,
      };
    },
  };
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used so far, in milliseconds; null when unreadable. */
export function cpuTimeOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3, state.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU time used so far by one PostgreSQL database's server processes: its backends and
 * autovacuum workers, whose process titles (`postgres: <cluster>: <user> <database> …`) name it.
 * Only titles that start with `postgres:` count: the billing service's own command line names
 * the database too (`--database-url …/<database>`), and counting it (as this bench did before
 * 2026-11-28) added the service's CPU to PostgreSQL's.
 */
export function databaseCpuTimeOf(databaseName) {
  // The name as a whole word: a backend's title goes on with its client, an autovacuum worker's ends.
  const named = new RegExp(`^postgres: .* ${databaseName}(?: |\\u0000|$)`);
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!named.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) continue;
    } catch {
      continue;
    }
    total += cpuTimeOf(Number(entry)) ?? 0;
  }
  return total;
}

/**
 * Nanoseconds the process's threads have spent runnable but waiting for a CPU (the second field
 * of /proc/<pid>/task/<tid>/schedstat): how much a busy machine held the process back.
 */
export function runQueueWaitOf(pid) {
  try {
    let total = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').trim().split(' ');
      total += Number(fields[1] ?? 0);
    }
    return total;
  } catch {
    return null;
  }
}
