/**
 * @module
 * Lookups counted per meter key and calendar month, in the service's state database.
 */
import type Database from 'better-sqlite3';

/** Monthly lookup counters. */
export class QuotaStore {
  readonly #read: Database.Statement<[string, string], { used: number }>;
  readonly #increment: Database.Statement<[string, string]>;
  readonly #add: Database.Statement<[string, string, number]>;
  readonly #addAll: (counts: ReadonlyArray<readonly [string, string, number]>) => void;

  constructor(db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS quota_usage (
      meter_key TEXT NOT NULL,
      month TEXT NOT NULL,
      used INTEGER NOT NULL,
      PRIMARY KEY (meter_key, month)
    ) WITHOUT ROWID`);
    this.#read = db.prepare('SELECT used FROM quota_usage WHERE meter_key = ? AND month = ?');
    this.#increment = db.prepare(`INSERT INTO quota_usage (meter_key, month, used) VALUES (?, ?, 1)
      ON CONFLICT (meter_key, month) DO UPDATE SET used = used + 1`);
    this.#add = db.prepare(`INSERT INTO quota_usage (meter_key, month, used) VALUES (?, ?, ?)
      ON CONFLICT (meter_key, month) DO UPDATE SET used = used + excluded.used`);
    this.#addAll = db.transaction((counts: ReadonlyArray<readonly [string, string, number]>) => {
      for (const [meterKey, month, count] of counts) this.#add.run(meterKey, month, count);
    });
  }

  /** Lookups counted for `meterKey` in `month` ("2026-11"). */
  used(meterKey: string, month: string): number {
    return this.#read.get(meterKey, month)?.used ?? 0;
  }

  /** Counts one lookup. */
  increment(meterKey: string, month: string): void {
    this.#increment.run(meterKey, month);
  }

  /** Adds several counts in one transaction: all of them or, when it throws, none. */
  addAll(counts: ReadonlyArray<readonly [meterKey: string, month: string, count: number]>): void {
    this.#addAll(counts);
  }
}
