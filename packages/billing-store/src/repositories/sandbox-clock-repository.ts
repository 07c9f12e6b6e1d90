import type { SandboxClockRepository } from '@drawdown/billing-core';
import type { SqlExecutor } from '../sql/sql-database.js';

/** Per-account offsets of the sandbox clock; an account without a row runs on the wall clock. */
export class SqlSandboxClockRepository implements SandboxClockRepository {
  constructor(private readonly sql: SqlExecutor) {}

  async offsetOf(accountId: string): Promise<number> {
    const row = await this.sql.get<{ offset_ms: number | string }>(
      'select offset_ms from sandbox_clocks where account_id = ?',
      [accountId],
    );
    return row ? Number(row.offset_ms) : 0;
  }

  async setOffset(accountId: string, offsetMs: number): Promise<void> {
    await this.sql.run(
      `insert into sandbox_clocks (account_id, offset_ms) values (?, ?)
       on conflict (account_id) do update set offset_ms = excluded.offset_ms`,
      [accountId, offsetMs],
    );
  }

  async listOffsets(): Promise<readonly { readonly accountId: string; readonly offsetMs: number }[]> {
    const rows = await this.sql.all<{ account_id: string; offset_ms: number | string }>(
      'select account_id, offset_ms from sandbox_clocks',
    );
    return rows.map((row) => ({ accountId: row.account_id, offsetMs: Number(row.offset_ms) }));
  }

  async paymentOutcomeOf(accountId: string): Promise<'success' | 'failure'> {
    const row = await this.sql.get<{ outcome: string }>(
      'select outcome from sandbox_payment_outcomes where account_id = ?',
      [accountId],
    );
    return row?.outcome === 'failure' ? 'failure' : 'success';
  }

  async setPaymentOutcome(accountId: string, outcome: 'success' | 'failure'): Promise<void> {
    await this.sql.run(
      `insert into sandbox_payment_outcomes (account_id, outcome) values (?, ?)
       on conflict (account_id) do update set outcome = excluded.outcome`,
      [accountId, outcome],
    );
  }

  async reserveJumpSteps(accountId: string, day: string, steps: number, perDay: number): Promise<boolean> {
    if (steps > perDay) return false;
    // One statement on both engines: a new day starts the count again, the same day adds to it
    // only while the sum stays within the quota, so two jumps at once never both overrun it.
    const changed = await this.sql.run(
      `insert into sandbox_jump_quotas (account_id, day, steps) values (?, ?, ?)
       on conflict (account_id) do update set
         steps = case when sandbox_jump_quotas.day = excluded.day then sandbox_jump_quotas.steps + excluded.steps else excluded.steps end,
         day = excluded.day
       where sandbox_jump_quotas.day <> excluded.day or sandbox_jump_quotas.steps + excluded.steps <= ?`,
      [accountId, day, steps, perDay],
    );
    return changed > 0;
  }

  async jumpStepsOn(accountId: string, day: string): Promise<number> {
    const row = await this.sql.get<{ steps: number | string }>(
      'select steps from sandbox_jump_quotas where account_id = ? and day = ?',
      [accountId, day],
    );
    return row ? Number(row.steps) : 0;
  }

  async adjustJumpSteps(accountId: string, day: string, delta: number): Promise<void> {
    await this.sql.run(
      `update sandbox_jump_quotas set steps = case when steps + ? < 0 then 0 else steps + ? end
       where account_id = ? and day = ?`,
      [delta, delta, accountId, day],
    );
  }
}
