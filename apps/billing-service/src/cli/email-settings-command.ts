/**
 * @module
 * `drawdown accounts email-settings show|set --account ID [--env live|sandbox]` (ADR 1502): who
 * an account's customer emails come from and which are sent, beside the API's
 * `PATCH /email-settings`. Without `--env` a command acts on both environments. `set` changes
 * only the flags given; `--enabled-emails` takes a comma-separated list of kinds (`all` for every
 * kind, `none` for none); `--renewal-reminder-days` and `--renewal-reminders` set the reminders'
 * lead time and which plans get renewal reminders (ADR 1503).
 */
import {
  BillingError,
  type Caller,
  EMAIL_KINDS,
  type EmailSettings,
  ENVIRONMENTS,
  type Environment,
  emailKindsOn,
  type UpdateEmailSettingsInput,
  type UseCases,
} from '@drawdown/billing-core';
import { printResult } from './output.js';

export const EMAIL_SETTINGS_ACTIONS: readonly string[] = ['show', 'set'];

export interface EmailSettingsOptions {
  readonly account: string;
  readonly env: string | undefined;
  readonly senderName: string | undefined;
  readonly senderAddress: string | undefined;
  readonly replyTo: string | undefined;
  readonly enabledEmails: string | undefined;
  readonly renewalReminderDays: string | undefined;
  readonly renewalReminders: string | undefined;
  readonly json: boolean;
}

/** A whole number of days as typed; anything else is refused by the settings as out of range. */
function days(text: string): number {
  return /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
}

function changesOf(options: EmailSettingsOptions): UpdateEmailSettingsInput {
  const kinds = options.enabledEmails?.trim();
  const enabledEmails =
    kinds === undefined
      ? undefined
      : kinds === 'all'
        ? [...EMAIL_KINDS]
        : kinds === 'none'
          ? []
          : kinds.split(',').map((kind) => kind.trim());
  const changes: UpdateEmailSettingsInput = {
    ...(options.senderName === undefined ? {} : { senderName: options.senderName === '' ? null : options.senderName }),
    ...(options.senderAddress === undefined
      ? {}
      : { senderAddress: options.senderAddress === '' ? null : options.senderAddress }),
    ...(options.replyTo === undefined ? {} : { replyTo: options.replyTo === '' ? null : options.replyTo }),
    ...(enabledEmails === undefined ? {} : { enabledEmails }),
    ...(options.renewalReminderDays === undefined ? {} : { renewalReminderDays: days(options.renewalReminderDays) }),
    ...(options.renewalReminders === undefined ? {} : { renewalReminders: options.renewalReminders }),
  };
  if (Object.keys(changes).length === 0) {
    throw new BillingError(
      'invalid_field',
      'email-settings set needs at least one of --sender-name, --sender-address, --reply-to, --enabled-emails, --renewal-reminder-days, --renewal-reminders',
    );
  }
  return changes;
}

function lines(environment: Environment, settings: EmailSettings): [string, string][] {
  return [
    ['Environment', environment],
    ['Sender name', settings.senderName ?? 'not set (the seller details’ legal name, else the account name)'],
    ['Sender address', settings.senderAddress ?? 'not set (live email is skipped until set)'],
    ['Reply-to', settings.replyTo ?? 'not set'],
    ['Emails sent', emailKindsOn(settings).length === 0 ? 'none' : emailKindsOn(settings).join(', ')],
    [
      'Reminders',
      `${settings.renewalReminderDays} days before a charge; renewals of ${settings.renewalReminders === 'all' ? 'every plan' : 'yearly plans'}`,
    ],
    ['Updated', settings.updatedAt ?? 'never'],
  ];
}

export async function runEmailSettingsCommand(
  useCases: UseCases,
  action: string | undefined,
  options: EmailSettingsOptions,
): Promise<number> {
  if (options.env !== undefined && !ENVIRONMENTS.includes(options.env as Environment)) {
    throw new BillingError('invalid_field', `--env must be live or sandbox; got ${options.env}`);
  }
  const environments = options.env === undefined ? ENVIRONMENTS : [options.env as Environment];
  const account = await useCases.requireAccount(options.account);
  const changes = action === 'set' ? changesOf(options) : undefined;
  const shown: [Environment, EmailSettings][] = [];
  for (const environment of environments) {
    const caller: Caller = { account, scope: { accountId: account.id, environment } };
    shown.push([
      environment,
      changes ? await useCases.updateEmailSettings(caller, changes) : await useCases.getEmailSettings(caller),
    ]);
  }
  if (options.json) {
    printResult(true, { account: account.id, email_settings: Object.fromEntries(shown) }, []);
  } else {
    printResult(false, {}, [
      ['Account', account.id],
      ...shown.flatMap(([environment, view]) => lines(environment, view)),
    ]);
  }
  return 0;
}
