/**
 * @module
 * Structured logs: one JSON line per event (pino), with level, time, and the request id,
 * account and environment where known. Errors carry their stack inside the JSON string, so a
 * stack never spans lines. A failure that repeats (a database outage fails every poll and
 * every request) is written a few times per window, then counted and summarised once.
 */
import { StandingFailure } from '@drawdown/billing-core';
import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  readonly level: LogLevel;
  /**
   * Where lines go; standard error when absent (standard output stays for what a command prints),
   * buffered and written asynchronously (ADR 0715): whatever is still buffered is written
   * synchronously when the process exits, a fatal error included, and `flushLogs` empties the
   * buffer on a graceful shutdown.
   */
  readonly destination?: DestinationStream | undefined;
}

/**
 * Loggers made by `createLogger`: their options are the ones below (no mixin, hooks, redaction,
 * message prefix or nested key), so a line of known fields can be spelled without pino's generic
 * path, byte for byte as pino spells it (`access-line.ts`, ADR 0727).
 */
const plainLoggers = new WeakSet<Logger>();

/** Whether `logger` came from `createLogger` (a child logger did not). */
export function isPlainLogger(logger: Logger): boolean {
  return plainLoggers.has(logger);
}

export function createLogger(options: LoggerOptions): Logger {
  const logger = pino(
    {
      level: options.level,
      base: { service: 'drawdown' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
    },
    options.destination ?? bufferedStandardError(),
  );
  plainLoggers.add(logger);
  return logger;
}

/** Lines wait at most this long in the buffer before they are written. */
const LOG_FLUSH_DELAY_MS = 100;

/**
 * Standard error, buffered: lines are collected and written asynchronously in one write once
 * 4 KiB are waiting or the oldest has waited `LOG_FLUSH_DELAY_MS` (a write per line, even an
 * asynchronous one, costs more CPU than the line itself at a few thousand requests a second).
 */
function bufferedStandardError(): DestinationStream {
  const stream = pino.destination({ fd: 2, sync: false, minLength: 4096 });
  const write = stream.write.bind(stream);
  let timer: NodeJS.Timeout | undefined;
  stream.write = (line: string) => {
    const accepted = write(line);
    if (timer === undefined) {
      timer = setTimeout(() => {
        timer = undefined;
        try {
          stream.flush();
        } catch {
          // Closed at exit: its last lines were written synchronously then.
        }
      }, LOG_FLUSH_DELAY_MS);
      timer.unref();
    }
    return accepted;
  };
  return stream;
}

/**
 * Writes out, synchronously, every line the logger still buffers: the last step of a graceful
 * shutdown. (An exit of any kind, a fatal error's included, does the same through pino's exit
 * hook; a SIGKILL loses the lines still buffered, at most the last 100 ms of them.)
 */
export function flushLogs(logger: Logger): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { flushSync?: () => void }
    | undefined;
  try {
    stream?.flushSync?.();
  } catch {
    // A stream not yet open or already closed has nothing this process can still write.
  }
}

/** A logger that writes nothing, for tests and library callers that bring none. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** Logs `message` with `error` at `error` level, unless the same failure already filled its window. */
export type FailureReporter = (message: string, error: unknown, fields?: Record<string, unknown>) => void;

export interface FailureLimit {
  /** Lines written per distinct failure per window. */
  readonly perWindow: number;
  readonly windowMs: number;
  /** Milliseconds since some origin; injected so tests control time. */
  readonly now: () => number;
}

/** How often a standing failure (`StandingFailure`: it lasts until an operator acts) is written again. */
export const STANDING_FAILURE_WINDOW_MS = 3_600_000;

export const DEFAULT_FAILURE_LIMIT: FailureLimit = { perWindow: 5, windowMs: 10_000, now: () => performance.now() };

function errorKey(message: string, error: unknown): string {
  const detail = error instanceof Error ? `${error.name}:${(error as { code?: unknown }).code ?? error.message}` : '';
  return `${message}\u0000${detail}`;
}

/**
 * Reports unexpected failures through `logger`, at most `perWindow` lines per failure (its
 * message and error kind) per window; the first line of the next window says how many were
 * suppressed in between.
 */
export function createFailureReporter(logger: Logger, limit: FailureLimit = DEFAULT_FAILURE_LIMIT): FailureReporter {
  const windows = new Map<string, { startedAt: number; windowMs: number; written: number; suppressed: number }>();
  return (message, error, fields = {}) => {
    const key = errorKey(message, error);
    const now = limit.now();
    // A standing condition (it lasts until someone acts) is written once per hour, not per window.
    const standing = error instanceof StandingFailure;
    const windowMs = standing ? STANDING_FAILURE_WINDOW_MS : limit.windowMs;
    const perWindow = standing ? 1 : limit.perWindow;
    let window = windows.get(key);
    if (!window || now - window.startedAt >= window.windowMs) {
      const suppressed = window?.suppressed ?? 0;
      window = { startedAt: now, windowMs, written: 0, suppressed: 0 };
      windows.set(key, window);
      if (suppressed > 0) fields = { ...fields, suppressedSinceLastWindow: suppressed };
      // Forget failures that stopped: the map holds only what failed recently.
      for (const [other, value] of windows)
        if (now - value.startedAt >= value.windowMs && value.suppressed === 0) windows.delete(other);
    }
    if (window.written >= perWindow) {
      window.suppressed += 1;
      return;
    }
    window.written += 1;
    const note = window.written === perWindow ? { repeatsSuppressedFor: `${windowMs} ms` } : {};
    logger.error({ ...fields, ...note, err: error instanceof Error ? error : new Error(String(error)) }, message);
  };
}
