/**
 * @module
 * Each account environment's email settings (ADR 1502): the sender's name and address, the
 * reply-to address, and which emails go out. Names reach a header, so line breaks are refused.
 */

import type { SellerLogo } from '../invoices/entities.js';
import { BillingError } from '../shared/billing-error.js';
import { toTimestamp } from '../shared/clock.js';
import type { Context } from '../shared/context.js';
import {
  DEFAULT_EMAIL_SETTINGS,
  EMAIL_KINDS,
  type EmailKind,
  type EmailSettings,
  MAX_RENEWAL_REMINDER_DAYS,
  RENEWAL_REMINDER_CYCLES,
  type RenewalReminderCycles,
} from './entities.js';
import type { EmailSlice } from './repositories.js';

export interface UpdateEmailSettingsInput {
  readonly senderName?: string | null | undefined;
  readonly senderAddress?: string | null | undefined;
  readonly replyTo?: string | null | undefined;
  readonly enabledEmails?: readonly string[] | undefined;
  readonly renewalReminderDays?: number | undefined;
  readonly renewalReminders?: string | undefined;
}

/** The settings with every default filled in (settings saved before a field existed lack it). */
export function withEmailDefaults(settings: EmailSettings | undefined): EmailSettings {
  const { enabledEmails: listed, ...stored } = (settings ?? {}) as Partial<EmailSettings> & {
    readonly enabledEmails?: readonly string[];
  };
  // Saved by a process of the version before ADR 1504 while this one ran (a rolling upgrade): its
  // list of kinds sent was written knowing the fourteen kinds of ADRs 1500-1503, all there are.
  const legacy =
    stored.disabledEmails === undefined && Array.isArray(listed)
      ? { disabledEmails: EMAIL_KINDS.filter((kind) => !listed.includes(kind)) }
      : {};
  return { ...DEFAULT_EMAIL_SETTINGS, ...stored, ...legacy } as EmailSettings;
}

/** The kinds sent (ADR 1504): every kind but those turned off, in the settings' documented order. */
export function emailKindsOn(settings: EmailSettings): EmailKind[] {
  return EMAIL_KINDS.filter((kind) => !settings.disabledEmails.includes(kind));
}

export async function getEmailSettings(context: Context<EmailSlice>): Promise<EmailSettings> {
  return withEmailDefaults(await context.store.emailSettings.find(context.scope));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]/;
// One addr-spec without display name, comments or quoting: what a header may carry verbatim.
const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

function checkedAddress(field: string, value: string | null): string | null {
  if (value !== null && (value.length > 254 || !ADDRESS.test(value))) {
    throw BillingError.invalidField(field, 'must be one email address (name@example.com)');
  }
  return value;
}

export async function updateEmailSettings(
  context: Context<EmailSlice>,
  input: UpdateEmailSettingsInput,
): Promise<EmailSettings> {
  if (input.senderName != null && (CONTROL.test(input.senderName) || input.senderName.trim() === '')) {
    throw BillingError.invalidField(
      'sender_name',
      'must be a non-empty name without line breaks or control characters',
    );
  }
  const senderAddress =
    input.senderAddress === undefined ? undefined : checkedAddress('sender_address', input.senderAddress);
  const replyTo = input.replyTo === undefined ? undefined : checkedAddress('reply_to', input.replyTo);
  let disabledEmails: EmailKind[] | undefined;
  if (input.enabledEmails !== undefined) {
    const unknown = input.enabledEmails.find((kind) => !(EMAIL_KINDS as readonly string[]).includes(kind));
    if (unknown !== undefined) {
      throw BillingError.invalidField(
        'enabled_emails',
        `has ${JSON.stringify(unknown)}, which is not one of ${EMAIL_KINDS.join(', ')}`,
      );
    }
    // Stored as the kinds left out, so a kind added later is on until turned off (ADR 1504).
    disabledEmails = EMAIL_KINDS.filter((kind) => !input.enabledEmails?.includes(kind));
  }
  const days = input.renewalReminderDays;
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_RENEWAL_REMINDER_DAYS)) {
    throw BillingError.invalidField(
      'renewal_reminder_days',
      `must be a whole number of days from 1 to ${MAX_RENEWAL_REMINDER_DAYS}`,
    );
  }
  const cycles = input.renewalReminders;
  if (cycles !== undefined && !(RENEWAL_REMINDER_CYCLES as readonly string[]).includes(cycles)) {
    throw BillingError.invalidField('renewal_reminders', `must be one of ${RENEWAL_REMINDER_CYCLES.join(', ')}`);
  }
  return context.store.transaction(async (tx) => {
    const current = withEmailDefaults(await tx.emailSettings.find(context.scope));
    const next: EmailSettings = {
      senderName: input.senderName === undefined ? current.senderName : input.senderName,
      senderAddress: senderAddress === undefined ? current.senderAddress : senderAddress,
      replyTo: replyTo === undefined ? current.replyTo : replyTo,
      disabledEmails: disabledEmails ?? current.disabledEmails,
      renewalReminderDays: days ?? current.renewalReminderDays,
      renewalReminders: (cycles as RenewalReminderCycles | undefined) ?? current.renewalReminders,
      updatedAt: toTimestamp(context.clock.now()),
    };
    await tx.emailSettings.save(context.scope, next);
    return next;
  });
}

/** Who an account environment's emails come from. */
export interface EmailSender {
  readonly settings: EmailSettings;
  /** The seller details' legal name, else the account's name. */
  readonly sellerName: string;
  readonly logo: SellerLogo | null;
  /** Now on the account environment's clock: what signed links' expiry counts on. */
  readonly environmentNow: number;
}

export async function emailSenderOf(context: Context<EmailSlice>): Promise<EmailSender> {
  const details = await context.store.sellerDetails.findById(context.scope, 'seller');
  return {
    settings: await getEmailSettings(context),
    sellerName: details?.legalName ?? context.account.name,
    logo: details?.logo ?? null,
    environmentNow: context.clock.now(),
  };
}
