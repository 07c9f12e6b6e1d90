/**
 * @module
 * The usage events this process's ingest committed as pending, kept in memory by sequence so
 * the drawdown can take them without reading their rows back from `usage_events` (ADR 0734).
 * It is a cache, never the record: the drawdown still takes each event off `usage_pending` in
 * its own transaction, and uses a remembered event only when the pending row it took names the
 * same event id; anything else (another process's events, events committed before a restart,
 * entries forgotten to stay within the bound) is read from the table as before.
 */
import type { PendingUsageEvent } from '@drawdown/billing-core';

/** At most this many events are remembered; the oldest are forgotten first. */
export const RECENTLY_RECORDED_LIMIT = 20_000;

export class RecentlyRecorded {
  /** By sequence, in the order committed: sequences grow, so the oldest come first. */
  private readonly events = new Map<number, PendingUsageEvent>();

  constructor(private readonly limit = RECENTLY_RECORDED_LIMIT) {}

  get size(): number {
    return this.events.size;
  }

  /** Remembers events whose insert (and pending row) has committed. */
  add(events: readonly PendingUsageEvent[]): void {
    for (const pending of events) this.events.set(pending.sequence, pending);
    if (this.events.size <= this.limit) return;
    for (const sequence of this.events.keys()) {
      this.events.delete(sequence);
      if (this.events.size <= this.limit) return;
    }
  }

  /**
   * The remembered event of a pending row just taken, when it is the same event (by id), and
   * forgets it either way: a taken event is never taken again.
   */
  take(sequence: number, id: string): PendingUsageEvent | undefined {
    const pending = this.events.get(sequence);
    if (pending === undefined) return undefined;
    this.events.delete(sequence);
    return pending.event.id === id ? pending : undefined;
  }

  /**
   * Forgets the events older than the oldest pending one: the pending list is taken oldest
   * first, so they are no longer pending (another process drew them down).
   */
  forgetBefore(sequence: number): void {
    for (const remembered of this.events.keys()) {
      if (remembered >= sequence) return;
      this.events.delete(remembered);
    }
  }
}
