/**
 * @module
 * `GET /emails` and `GET /emails/{email_id}`: the scope's email jobs, newest first, with their
 * status, why one was skipped or failed, and (once sent or captured) the message itself.
 */
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { EmailJob } from './entities.js';
import type { EmailJobColumn, EmailSlice } from './repositories.js';

export function listEmails(context: Context<EmailSlice>, query: ListQuery<EmailJobColumn>): Promise<Page<EmailJob>> {
  return context.store.emailJobs.list(context.scope, query);
}

export async function getEmail(context: Context<EmailSlice>, id: string): Promise<EmailJob> {
  const job = await context.store.emailJobs.findById(context.scope, id);
  if (!job) throw BillingError.notFound('email', id);
  return job;
}
