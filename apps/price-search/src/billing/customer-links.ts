/**
 * @module
 * Which Drawdown customer pays for which API key. Kept in the state database beside the keys (its own table,
 * created here) so the key store stays free of billing concerns and a service without billing never sees it.
 */
import type Database from 'better-sqlite3';

/** The link of one key to its billing customer. */
export interface CustomerLink {
  readonly keyId: string;
  readonly customerId: string;
  readonly linkedAt: string;
}

interface LinkRow {
  key_id: string;
  customer_id: string;
  linked_at: string;
}

/** Drawdown customer ids look like `ctm_` followed by letters and digits. */
export function isCustomerId(value: string): boolean {
  return /^ctm_[a-z0-9]{8,64}$/i.test(value);
}

/** Key → customer links in the state database. */
export class CustomerLinkStore {
  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS billing_customer_links (
      key_id TEXT PRIMARY KEY,
      customer_id TEXT NOT NULL,
      linked_at TEXT NOT NULL
    )`);
  }

  /** Links `keyId` to `customerId`, replacing an earlier link (a key moves to another customer whole). */
  link(keyId: string, customerId: string, now: Date): CustomerLink {
    const linkedAt = now.toISOString();
    this.db
      .prepare(
        `INSERT INTO billing_customer_links (key_id, customer_id, linked_at) VALUES (?, ?, ?)
         ON CONFLICT (key_id) DO UPDATE SET customer_id = excluded.customer_id, linked_at = excluded.linked_at`,
      )
      .run(keyId, customerId, linkedAt);
    return { keyId, customerId, linkedAt };
  }

  /** The customer that pays for `keyId`, if any. */
  customerOf(keyId: string): string | undefined {
    const row = this.db.prepare('SELECT * FROM billing_customer_links WHERE key_id = ?').get(keyId) as
      | LinkRow
      | undefined;
    return row?.customer_id;
  }
}
