/**
 * @module
 * The email worker (ADR 1500): fans outbox events out into email jobs, claims due jobs with a
 * lease, renders each in the customer's language with freshly signed links, and sends it: over
 * SMTP in live, into the sandbox's capture in the sandbox (never to anyone). Each attempt's
 * result is recorded only while the claim holds, so two processes never both record a job, and
 * a job whose process died is taken again when its lease runs out.
 */
import { randomBytes } from 'node:crypto';
import {
  composeEmail,
  type EmailClaim,
  type EmailLinks,
  type EmailOutcome,
  type EmailSender,
  type Environment,
  headerSafe,
  type IdGenerator,
  type RenderedEmail,
  type UseCases,
} from '@drawdown/billing-core';
import { LOGO_CID, renderEmailHtml, renderEmailText } from '../../email/render-email.js';
import type { Spans } from '../../operations/spans.js';
import type { InvoiceLinkSigner } from '../../rendering/invoice-links.js';
import {
  type PortalSessionSigner,
  portalSessionToken,
  portalSessionUrls,
} from '../../rendering/portal-session-links.js';
import { createPollingWorker, type Worker } from '../polling-worker.js';
import type { MailTransport, OutgoingEmail } from './smtp-transport.js';

export interface EmailDeliveryOptions {
  /** Waits after the first, second, … failed attempt; after the last the job fails. */
  readonly retryDelaysMs: readonly number[];
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  /** Jobs claimed (and sent concurrently) per batch: what bounds memory however many fall due. */
  readonly batchSize: number;
  readonly fanOutBatchSize: number;
  /** How long document links in an email stay valid, on the environment's clock. */
  readonly linkLifetimeMs: number;
  /** How long an email's portal link (update the payment method) stays valid, on the environment's clock. */
  readonly portalLinkLifetimeMs: number;
  readonly smtpTimeoutMs: number;
}

const MINUTE = 60_000;
export const DEFAULT_EMAIL_DELIVERY: EmailDeliveryOptions = {
  // About two days of tries, wider apart each time: a mail server's outage outlasts minutes.
  retryDelaysMs: [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 360 * MINUTE, 720 * MINUTE, 1440 * MINUTE],
  leaseMs: 2 * MINUTE,
  pollIntervalMs: 500,
  batchSize: 20,
  fanOutBatchSize: 200,
  linkLifetimeMs: 30 * 24 * 60 * MINUTE,
  // A portal session can change the subscription, so its link lives shorter than a document's (ADR 1503).
  portalLinkLifetimeMs: 7 * 24 * 60 * MINUTE,
  smtpTimeoutMs: 20_000,
};

/** Where the sandbox's email address is taken from when the settings and seller details name none. */
const SANDBOX_SENDER = 'sandbox@drawdown.email';

export interface EmailWorkerInput {
  readonly useCases: Pick<UseCases, 'fanOutEmails' | 'claimDueEmails' | 'recordEmailAttempt' | 'emailSenderOf'>;
  /** Live's SMTP server; absent, live jobs wait. */
  readonly transport: MailTransport | undefined;
  readonly invoiceLinks: InvoiceLinkSigner;
  publicBaseUrlFor(environment: Environment): string;
  /** Signs the customer portal sessions of update-payment links (ADR 1503); absent, the checkout link is used. */
  readonly portal?:
    | {
        readonly sessions: PortalSessionSigner;
        readonly ids: IdGenerator;
        /** The environment's portal address; null when none is configured (ADR 1472): the checkout link is used. */
        urlFor(environment: Environment): string | null;
      }
    | undefined;
  readonly options: EmailDeliveryOptions;
  readonly onError: (message: string, error: unknown) => void;
  readonly spans?: Spans | undefined;
}

async function linksOf(input: EmailWorkerInput, claim: EmailClaim, sender: EmailSender): Promise<EmailLinks> {
  const { job } = claim;
  const base = input.publicBaseUrlFor(claim.scope.environment);
  const expiresAt = sender.environmentNow + input.options.linkLifetimeMs;
  const claims = {
    accountId: claim.scope.accountId,
    environment: claim.scope.environment,
    disposition: 'inline' as const,
    expiresAt,
  };
  let document: string | null = null;
  if (job.facts.adjustmentId) {
    document = await input.invoiceLinks.creditNoteUrl(base, { ...claims, adjustmentId: job.facts.adjustmentId });
  } else if (job.facts.transactionId && (job.kind === 'receipt' || job.kind === 'invoice_issued')) {
    document = await input.invoiceLinks.url(base, { ...claims, transactionId: job.facts.transactionId });
  }
  return { document, pay: (await updatePaymentLink(input, claim, sender)) ?? job.facts.payUrl };
}

/** Kinds whose action is updating the subscription's payment method. */
const UPDATES_PAYMENT = new Set(['payment_failed', 'subscription_past_due', 'card_expiring']);

/**
 * A subscription's update-payment-method page in the customer portal, through a portal session
 * signed for this customer and this subscription only, expiring on the environment's clock
 * (ADR 1503); null when the job has no subscription or the service signs no portal sessions.
 */
async function updatePaymentLink(
  input: EmailWorkerInput,
  claim: EmailClaim,
  sender: EmailSender,
): Promise<string | null> {
  const { job } = claim;
  if (!input.portal || !UPDATES_PAYMENT.has(job.kind) || job.facts.subscriptionId === null) return null;
  const portalUrl = input.portal.urlFor(claim.scope.environment);
  if (portalUrl === null) return null;
  const claims = {
    sessionId: input.portal.ids.newId('cpls'),
    accountId: claim.scope.accountId,
    environment: claim.scope.environment,
    customerId: job.customerId,
    subscriptionIds: [job.facts.subscriptionId],
    issuedAt: sender.environmentNow,
    expiresAt: sender.environmentNow + input.options.portalLinkLifetimeMs,
  };
  const token = await portalSessionToken(input.portal.sessions, claims);
  const urls = portalSessionUrls(portalUrl, token, claims.subscriptionIds);
  return urls.subscriptions[0]?.updateSubscriptionPaymentMethod ?? null;
}

/** The email a claimed job sends, or why it cannot be sent. */
async function prepare(
  input: EmailWorkerInput,
  claim: EmailClaim,
): Promise<{ outgoing: OutgoingEmail; rendered: RenderedEmail } | { skipped: 'no_sender_address' } | undefined> {
  const sender = await input.useCases.emailSenderOf(claim);
  if (!sender || claim.job.recipient === null) return undefined;
  const { settings } = sender;
  const live = claim.scope.environment === 'live';
  const address = settings.senderAddress ?? (live ? null : SANDBOX_SENDER);
  if (address === null) return { skipped: 'no_sender_address' };
  const content = composeEmail(claim.job, sender.sellerName, await linksOf(input, claim, sender));
  const name = headerSafe(settings.senderName ?? sender.sellerName);
  const html = renderEmailHtml(content, { hasLogo: sender.logo !== null });
  const text = renderEmailText(content);
  const outgoing: OutgoingEmail = {
    from: { name, address },
    replyTo: settings.replyTo,
    to: claim.job.recipient,
    subject: content.subject,
    text,
    html,
    messageId: claim.job.messageId,
    language: content.language,
    logo: sender.logo
      ? { content: Buffer.from(sender.logo.data, 'base64'), contentType: sender.logo.contentType, cid: LOGO_CID }
      : null,
  };
  const rendered: RenderedEmail = {
    from: `${name} <${address}>`,
    replyTo: settings.replyTo,
    to: claim.job.recipient,
    subject: content.subject,
    language: content.language,
    text,
    html,
  };
  return { outgoing, rendered };
}

async function attempt(input: EmailWorkerInput, claim: EmailClaim): Promise<EmailOutcome> {
  const prepared = await prepare(input, claim);
  if (prepared === undefined) return { kind: 'refused', error: 'the account or the recipient is gone' };
  if ('skipped' in prepared) return { kind: 'skipped', reason: prepared.skipped };
  // The sandbox never mails anyone: what it would send is kept on the job.
  if (claim.scope.environment === 'sandbox') return { kind: 'captured', message: prepared.rendered };
  if (!input.transport) return { kind: 'deferred', error: 'no SMTP server is configured (--smtp-url)' };
  const result = await input.transport.send(prepared.outgoing);
  if (result.kind === 'accepted') return { kind: 'sent', message: prepared.rendered };
  return result;
}

export function createEmailWorker(input: EmailWorkerInput): Worker {
  const environments: Environment[] = input.transport ? ['sandbox', 'live'] : ['sandbox'];
  const worker = createPollingWorker({
    name: 'email',
    idleMs: input.options.pollIntervalMs,
    onError: input.onError,
    spans: input.spans,
    runBatch: async (batch) => {
      const fannedOut = await input.useCases.fanOutEmails(input.options.fanOutBatchSize);
      batch.count('events_fanned_out', fannedOut);
      const claims = await input.useCases.claimDueEmails({
        limit: input.options.batchSize,
        leaseMs: input.options.leaseMs,
        claimToken: randomBytes(16).toString('hex'),
        environments,
      });
      batch.count('emails_claimed', claims.length);
      await Promise.all(
        claims.map(async (claim) => {
          let outcome: EmailOutcome;
          try {
            outcome = await attempt(input, claim);
          } catch (error) {
            input.onError(`preparing email ${claim.job.id} failed`, error);
            outcome = { kind: 'deferred', error: 'the email could not be prepared' };
          }
          await input.useCases.recordEmailAttempt(claim, outcome, input.options.retryDelaysMs);
        }),
      );
      return fannedOut > 0 || claims.length > 0;
    },
  });
  return {
    ...worker,
    async stop() {
      await worker.stop();
      input.transport?.close();
    },
  };
}
