/**
 * @module
 * Customer email (ADRs 1500-1502): the settings of an account environment and its email jobs.
 * A sandbox job is `captured`, never sent; its `message` is what the customer would receive.
 */
import { z } from 'zod';
import { entity, id, nullableTimestamp, timestamp } from './common.js';

const EMAIL_KIND = z.enum([
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
  'renewal_upcoming',
  'trial_ending',
  'card_expiring',
]);

export const EmailSettings = entity(
  'EmailSettings',
  'Drawdown: who customer emails come from (sender name and address, reply-to) and which kinds are sent. Every kind is on until turned off.',
  z.strictObject({
    sender_name: z.string().nullable(),
    sender_address: z.string().nullable(),
    reply_to: z.string().nullable(),
    enabled_emails: z.array(EMAIL_KIND),
    /** Days before a charge the upcoming-renewal, trial-ending and card-expiring reminders go out. */
    renewal_reminder_days: z.number().int().min(1).max(60),
    /** `yearly`: upcoming-renewal reminders for subscriptions billed yearly or less often; `all`: every subscription. */
    renewal_reminders: z.enum(['yearly', 'all']),
    /** Null until the settings were first changed. */
    updated_at: nullableTimestamp,
  }),
);

export const Email = entity(
  'Email',
  'Drawdown: one customer email, written with the event that caused it. `pending` waits for its next attempt, `sent` was accepted by the SMTP server, `captured` is a sandbox email kept instead of sent, `skipped` was never sent (`skip_reason`), `failed` was refused for good or ran out of attempts (`last_error`).',
  z.strictObject({
    id: id('eml'),
    kind: EMAIL_KIND,
    status: z.enum(['pending', 'sent', 'captured', 'skipped', 'failed']),
    event_id: id('evt').nullable(),
    customer_id: id('ctm'),
    recipient: z.string().nullable(),
    locale: z.string(),
    skip_reason: z.enum(['no_email_address', 'email_turned_off', 'no_sender_address']).nullable(),
    message_id: z.string(),
    attempts: z.number().int().min(0),
    last_error: z.string().nullable(),
    next_attempt_at: nullableTimestamp,
    created_at: timestamp,
    sent_at: nullableTimestamp,
    message: z
      .strictObject({
        from: z.string(),
        reply_to: z.string().nullable(),
        to: z.string(),
        subject: z.string(),
        language: z.string(),
        text: z.string(),
        html: z.string(),
      })
      .nullable(),
  }),
);
