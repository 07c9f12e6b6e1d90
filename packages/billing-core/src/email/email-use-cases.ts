/**
 * @module
 * The use cases of customer email, bound once: the settings, the jobs, and the delivery
 * worker's steps (ADR 1500).
 */
import type { Context } from '../shared/context.js';
import type { UseCaseBase } from '../shared/use-case-base.js';
import {
  type ClaimEmailsInput,
  claimDueEmails,
  type EmailOutcome,
  fanOutEmails,
  recordEmailAttempt,
} from './email-delivery.js';
import { getEmail, listEmails } from './email-jobs.js';
import { type EmailSender, emailSenderOf, getEmailSettings, updateEmailSettings } from './email-settings.js';
import type { EmailClaim, EmailSlice } from './repositories.js';

export function emailUseCases(base: UseCaseBase<Context<EmailSlice>>) {
  const { bind, store, ids, wallClock } = base;
  const delivery = { store, ids, wallClock };
  return {
    getEmailSettings: bind(getEmailSettings),
    updateEmailSettings: bind(updateEmailSettings),
    listEmails: bind(listEmails),
    getEmail: bind(getEmail),
    fanOutEmails: (limit: number) => fanOutEmails(delivery, limit),
    claimDueEmails: (input: ClaimEmailsInput) => claimDueEmails(delivery, input),
    recordEmailAttempt: (claim: EmailClaim, outcome: EmailOutcome, retryDelaysMs: readonly number[]) =>
      recordEmailAttempt(delivery, claim, outcome, retryDelaysMs),
    /** What a claimed job is sent with: its scope's settings and seller; undefined when the account is gone. */
    emailSenderOf: async (claim: EmailClaim): Promise<EmailSender | undefined> => {
      const context = await base.contextOf(claim.scope);
      return context && emailSenderOf(context);
    },
  };
}
