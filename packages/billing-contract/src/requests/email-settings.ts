/**
 * @module
 * `PATCH /email-settings` (ADR 1502): who customer emails come from and which are sent. Every
 * field is optional; null clears one. The core refuses line breaks in the name and anything but
 * one plain address in the address fields.
 */
import { z } from 'zod';

export const UpdateEmailSettingsBody = z.strictObject({
  sender_name: z.string().max(200).nullable().optional(),
  sender_address: z.string().max(254).nullable().optional(),
  reply_to: z.string().max(254).nullable().optional(),
  enabled_emails: z.array(z.string().max(64)).max(32).optional(),
  renewal_reminder_days: z.number().int().optional(),
  renewal_reminders: z.string().max(16).optional(),
});
