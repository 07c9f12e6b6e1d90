import type { SqlExecutor } from '../sql/sql-database.js';
import type { Migration } from './migration.js';

/** The kinds of ADRs 1500-1502: every saved list of kinds sent was written knowing these. */
const FIRST_KINDS = [
  'receipt',
  'invoice_issued',
  'payment_failed',
  'subscription_past_due',
  'subscription_canceled',
  'subscription_cancel_scheduled',
  'subscription_paused',
  'subscription_resumed',
  'subscription_plan_changed',
  'refund_issued',
  'credit_note_issued',
] as const;
/** The reminders (ADR 1503, shipped with migration 0245): unknown to settings saved before it. */
const REMINDER_KINDS = ['renewal_upcoming', 'trial_ending', 'card_expiring'] as const;

/**
 * Email settings store the kinds turned off instead of the kinds sent (ADR 1504), so a kind added
 * later is on until someone turns it off. A saved list of kinds sent becomes the kinds it left
 * out of those that existed when it was saved: the first eleven always; the three reminders only
 * when the row was saved after migration 0245 brought them (every row, when the settings table
 * came in the same run as 0245 or after it). Timestamps are RFC 3339 in UTC with milliseconds, so
 * they compare as text.
 */
async function storeKindsTurnedOff(tx: SqlExecutor): Promise<void> {
  const applied = await tx.all<{ id: string; applied_at: string }>(
    `select id, applied_at from schema_migrations where id in ('0245-email-reminders', '0250-customer-email')`,
  );
  const at = (id: string) => applied.find((row) => row.id === id)?.applied_at;
  const reminders = at('0245-email-reminders');
  const settingsTable = at('0250-customer-email');
  // Applied in this run (not in schema_migrations yet) or with or before the settings table: every row knew them.
  const remindersKnownSince =
    reminders === undefined || settingsTable === undefined || reminders <= settingsTable ? '' : reminders;
  const rows = await tx.all<{ account_id: string; environment: string; body: string }>(
    'select account_id, environment, body from email_settings',
  );
  for (const row of rows) {
    const body = JSON.parse(row.body) as Record<string, unknown>;
    const enabled = body.enabledEmails;
    if (!Array.isArray(enabled)) continue;
    const savedAt = typeof body.updatedAt === 'string' ? body.updatedAt : '';
    const known: readonly string[] = savedAt >= remindersKnownSince ? [...FIRST_KINDS, ...REMINDER_KINDS] : FIRST_KINDS;
    const { enabledEmails: _listed, ...rest } = body;
    const next = { ...rest, disabledEmails: known.filter((kind) => !enabled.includes(kind)) };
    await tx.run('update email_settings set body = ? where account_id = ? and environment = ?', [
      JSON.stringify(next),
      row.account_id,
      row.environment,
    ]);
  }
}

export const emailKindsTurnedOff: Migration = {
  id: '0251-email-kinds-turned-off',
  statements: () => [storeKindsTurnedOff],
};
