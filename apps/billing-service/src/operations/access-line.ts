/**
 * @module
 * The access line: one `request` log line per request served, at `info` (`warn` for a 5xx), with
 * the request's id, environment, account, client address (behind `--trust-proxy` the
 * `X-Forwarded-For` entry the proxy appended), method, route pattern, the path when no route
 * matched (`route` is then `unmatched`), status, duration in milliseconds to a tenth, and the
 * trace id when requests are traced.
 *
 * pino writes it for any logger. For a logger made by `createLogger`, whose options are known,
 * the line is spelled here instead (ADR 0727): the same bytes pino would write (its level and
 * time prefix, the logger's bindings, the fields in the same order, its line end, to its
 * stream), for about half the CPU, which matters at thousands of usage requests a second. The
 * spelling is taken only where it cannot differ from pino's: text of printable ASCII without
 * a quote or backslash (which every JSON encoder writes as it is) and finite numbers; any other
 * record, a subscriber to pino's `pino_asJson` diagnostics channel, or a stream that asks pino
 * for its metadata (a multistream) get pino's own path.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { type Logger, pino } from 'pino';
import type { RequestRecord } from '../http/request-observer.js';
import { isPlainLogger } from './logger.js';

export type AccessLineWriter = (record: RequestRecord) => void;

/**
 * Whether a request gets its access line (ADR 0730): every request but `POST /usage-events`
 * answered 202, of which the first and then one in `oneIn` (per process). A refused or failed
 * usage request always gets its line.
 */
export function accessLineSampler(oneIn: number): (record: RequestRecord) => boolean {
  if (oneIn <= 1) return () => true;
  let accepted = 0;
  return (record) => {
    if (record.status !== 202 || record.route !== '/usage-events' || record.method !== 'POST') return true;
    accepted = accepted === oneIn ? 1 : accepted + 1;
    return accepted === 1;
  };
}

/** Text every JSON encoder spells as itself between quotes. */
const VERBATIM_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const INFO = 30;
const WARN = 40;
/** pino traces its serialisation on this channel; a subscriber must see every line. */
const serialisation = tracingChannel('pino_asJson');

function fieldsOf(record: RequestRecord) {
  return {
    requestId: record.requestId,
    environment: record.environment,
    accountId: record.accountId,
    clientAddress: record.clientAddress,
    method: record.method,
    route: record.route,
    ...(record.path === undefined ? {} : { path: record.path }),
    status: record.status,
    durationMs: Math.round(record.durationMs * 10) / 10,
    ...(record.traceId === undefined ? {} : { traceId: record.traceId }),
  };
}

/** pino's own path: the reference the hand-spelt line must equal. */
export function accessLineByPino(logger: Logger, record: RequestRecord): void {
  if (record.status >= 500) logger.warn(fieldsOf(record), 'request');
  else logger.info(fieldsOf(record), 'request');
}

const verbatim = (text: string | undefined) => text === undefined || VERBATIM_TEXT.test(text);

export function accessLineWriter(logger: Logger): AccessLineWriter {
  const internals = logger as unknown as Record<symbol, unknown>;
  const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym } = pino.symbols;
  const stream = internals[streamSym] as { write(line: string): unknown } & Record<symbol, unknown>;
  if (!isPlainLogger(logger) || stream[Symbol.for('pino.metadata')] === true) {
    return (record) => accessLineByPino(logger, record);
  }
  return (record) => {
    const durationMs = Math.round(record.durationMs * 10) / 10;
    if (
      serialisation.hasSubscribers ||
      !Number.isFinite(durationMs) ||
      !Number.isInteger(record.status) ||
      !verbatim(record.requestId) ||
      !verbatim(record.environment) ||
      !verbatim(record.accountId) ||
      !verbatim(record.clientAddress) ||
      !verbatim(record.method) ||
      !verbatim(record.path) ||
      !verbatim(record.route) ||
      !verbatim(record.traceId)
    ) {
      accessLineByPino(logger, record);
      return;
    }
    const warn = record.status >= 500;
    if (!logger.isLevelEnabled(warn ? 'warn' : 'info')) return;
    const levels = internals[lsCacheSym] as Record<number, string>;
    const time = (internals[timeSym] as () => string).call(logger);
    stream.write(
      `${levels[warn ? WARN : INFO]}${time}${internals[chindingsSym]},"requestId":"${record.requestId}","environment":"${record.environment}"${
        record.accountId === undefined ? '' : `,"accountId":"${record.accountId}"`
      }${record.clientAddress === undefined ? '' : `,"clientAddress":"${record.clientAddress}"`},"method":"${
        record.method
      }","route":"${record.route}"${record.path === undefined ? '' : `,"path":"${record.path}"`},"status":${
        record.status
      },"durationMs":${durationMs}${
        record.traceId === undefined ? '' : `,"traceId":"${record.traceId}"`
      },"msg":"request"${internals[endSym]}`,
    );
  };
}
