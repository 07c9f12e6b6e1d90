/**
 * @module
 * Customer email (ADRs 1500, 1502), Drawdown's own resources (the public API has none): the
 * account environment's email settings, and its email jobs. In the sandbox every job is captured,
 * never sent, so `GET /emails` is where an integrator reads what a customer would have received.
 */
import { UpdateEmailSettingsBody } from '@drawdown/billing-contract';
import {
  EMAIL_KINDS,
  type EmailJob,
  type EmailJobColumn,
  type EmailSettings,
  emailKindsOn,
} from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const listSpec: ListSpec<EmailJobColumn> = {
  idPrefix: 'eml',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    status: { kind: 'enum', column: 'status', values: ['pending', 'sent', 'captured', 'skipped', 'failed'] },
    kind: { kind: 'enum', column: 'kind', values: EMAIL_KINDS },
    customer_id: { kind: 'ids', column: 'customer_id', prefix: 'ctm' },
  },
};

function presentSettings(settings: EmailSettings) {
  return {
    sender_name: settings.senderName,
    sender_address: settings.senderAddress,
    reply_to: settings.replyTo,
    enabled_emails: emailKindsOn(settings),
    renewal_reminder_days: settings.renewalReminderDays,
    renewal_reminders: settings.renewalReminders,
    updated_at: settings.updatedAt,
  };
}

export function presentEmail(job: EmailJob) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    event_id: job.eventId,
    customer_id: job.customerId,
    recipient: job.recipient,
    locale: job.locale,
    skip_reason: job.skipReason,
    message_id: job.messageId,
    attempts: job.attempts,
    last_error: job.lastError,
    next_attempt_at: job.nextAttemptAt,
    created_at: job.createdAt,
    sent_at: job.sentAt,
    message: job.message && {
      from: job.message.from,
      reply_to: job.message.replyTo,
      to: job.message.to,
      subject: job.message.subject,
      language: job.message.language,
      text: job.message.text,
      html: job.message.html,
    },
  };
}

export function registerEmailRoutes(app: Hono<AppEnv>): void {
  app.get('/email-settings', need('notification_setting.read'), async (c) =>
    respond(c, presentSettings(await c.var.useCases.getEmailSettings(c.var.caller))),
  );
  app.patch('/email-settings', need('notification_setting.write'), async (c) => {
    const body = await readBody(c, UpdateEmailSettingsBody);
    return respond(c, presentSettings(await c.var.useCases.updateEmailSettings(c.var.caller, body)));
  });
  app.get('/emails', need('notification.read'), async (c) => {
    const { query, perPage } = parseListParams(c, listSpec);
    return respondPage(c, await c.var.useCases.listEmails(c.var.caller, query), perPage, presentEmail);
  });
  app.get('/emails/:id', need('notification.read'), async (c) =>
    respond(c, presentEmail(await c.var.useCases.getEmail(c.var.caller, pathId(c, 'eml')))),
  );
}
