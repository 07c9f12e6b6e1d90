/**
 * @module
 * An optional buffer in front of `reportUsage`: `add()` records the event in a store and returns
 * at once; events are sent in the background (bounded concurrency, the same retry rules); `flush()`
 * waits for everything added so far; `close()` stops taking events, flushes, and returns whatever
 * could not be delivered.
 *
 * Nothing is lost on a clean shutdown: an event leaves the store only once it has a final answer
 * (accepted, rejected or expired). An event that exhausted its attempts stays in the store and is
 * sent again by the next `flush()`, or by the next buffer opened on the same store. The default
 * store is in memory; pass a store backed by a file, a database or KV storage to survive a crash
 * (ADR 0609). Resending is safe: an event counts once per `event_key` and `occurred_at`.
 */
import type { HttpClient } from '../core/http-client.js';
import type { Runtime } from '../core/runtime.js';
import type { UsageEvent, UsageEventInput } from '../types/usage.js';
import { normaliseUsageEvent, reportUsage, type UsageReport, type UsageRetryPolicy } from './report-usage.js';

/** Where buffered events wait until they have a final answer. */
export interface UsageBufferStore {
  /** Every event saved and not yet removed, oldest first. */
  load(): Promise<readonly UsageEvent[]>;
  /** Records an event durably; `add()` resolves only after this does. */
  save(event: UsageEvent): Promise<void>;
  /** Forgets an event that has its final answer. */
  remove(event: UsageEvent): Promise<void>;
}

function keyOf(event: UsageEvent): string {
  return JSON.stringify([event.customerId, event.action, event.eventKey, event.occurredAt]);
}

/** Keeps events in memory: lossless across `close()`, not across a crash. */
export class MemoryUsageBufferStore implements UsageBufferStore {
  readonly #events = new Map<string, UsageEvent>();

  async load(): Promise<readonly UsageEvent[]> {
    return [...this.#events.values()];
  }

  async save(event: UsageEvent): Promise<void> {
    this.#events.set(keyOf(event), event);
  }

  async remove(event: UsageEvent): Promise<void> {
    this.#events.delete(keyOf(event));
  }
}

export interface UsageBufferOptions {
  readonly store?: UsageBufferStore;
  /** Events in flight at once. Default 4. */
  readonly concurrency?: number;
  readonly retry?: Partial<UsageRetryPolicy>;
  /** Called with each event's report as it arrives. */
  readonly onReport?: (report: UsageReport) => void;
}

export interface UsageBufferFlushResult {
  /** Reports that arrived since the previous flush. */
  readonly reports: readonly UsageReport[];
  /** Events that exhausted their attempts and are still in the store. */
  readonly undelivered: readonly UsageEvent[];
}

/** Thrown by `add()` after `close()`. */
export class UsageBufferClosedError extends Error {
  override readonly name = 'UsageBufferClosedError';
}

export class UsageBuffer {
  readonly #store: UsageBufferStore;
  readonly #concurrency: number;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #undelivered = new Map<string, UsageEvent>();
  readonly #waiting: (() => void)[] = [];
  #active = 0;
  #reports: UsageReport[] = [];
  #closed = false;

  private constructor(
    private readonly http: HttpClient,
    private readonly runtime: Runtime,
    private readonly policy: UsageRetryPolicy,
    private readonly options: UsageBufferOptions,
  ) {
    this.#store = options.store ?? new MemoryUsageBufferStore();
    this.#concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  }

  /** @internal Use `drawdown.usageEvents.openBuffer()`. Starts sending what the store still holds. */
  static async open(
    http: HttpClient,
    runtime: Runtime,
    policy: UsageRetryPolicy,
    options: UsageBufferOptions,
  ): Promise<UsageBuffer> {
    const buffer = new UsageBuffer(http, runtime, policy, options);
    for (const event of await buffer.#store.load()) buffer.#send(event);
    return buffer;
  }

  /** Events added and not yet answered (in flight or waiting), plus undelivered ones. */
  get pending(): number {
    return this.#inFlight.size + this.#undelivered.size;
  }

  /**
   * Saves the event to the store (its key and timestamp fixed now) and queues it. Resolves once
   * stored, before it is sent, with the event as it will be sent.
   */
  async add(input: UsageEventInput): Promise<UsageEvent> {
    if (this.#closed) throw new UsageBufferClosedError('The usage buffer is closed.');
    const event = normaliseUsageEvent(input, this.runtime);
    await this.#store.save(event);
    this.#send(event);
    return event;
  }

  /** Sends undelivered events again and waits until every event added so far has a report. */
  async flush(): Promise<UsageBufferFlushResult> {
    const retry = [...this.#undelivered.values()];
    this.#undelivered.clear();
    for (const event of retry) this.#send(event);
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
    const reports = this.#reports;
    this.#reports = [];
    return { reports, undelivered: [...this.#undelivered.values()] };
  }

  /** Stops taking events, flushes, and returns what could not be delivered (still in the store). */
  async close(): Promise<UsageBufferFlushResult> {
    this.#closed = true;
    return this.flush();
  }

  #send(event: UsageEvent): void {
    const run = this.#run(event).finally(() => this.#inFlight.delete(run));
    this.#inFlight.add(run);
  }

  async #run(event: UsageEvent): Promise<void> {
    await this.#acquire();
    let report: UsageReport;
    try {
      report = await reportUsage(this.http, this.runtime, event, this.policy);
    } catch {
      // Not a verdict on the event (an unexpected failure inside the client): keep it for the next flush.
      this.#undelivered.set(keyOf(event), event);
      return;
    } finally {
      this.#release();
    }
    this.#reports.push(report);
    try {
      this.options.onReport?.(report);
    } catch {
      // A failing callback must not stop the buffer from settling the event; the report is also in flush()'s result.
    }
    if (report.kind === 'gave_up') {
      this.#undelivered.set(keyOf(event), event);
      return;
    }
    // Should removal fail, the event is sent again from the store later, which counts nothing twice.
    await this.#store.remove(event).catch(() => undefined);
  }

  async #acquire(): Promise<void> {
    if (this.#active < this.#concurrency) {
      this.#active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active -= 1;
  }
}
