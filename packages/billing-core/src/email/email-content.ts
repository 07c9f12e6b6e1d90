/**
 * @module
 * What an email says, as a pure document model (ADR 1501): the service renders it to HTML
 * (escaped) and plain text, as the invoice PDF renders its document model. Amounts are the
 * job's lowest-unit strings formatted exactly for the customer's locale; dates are UTC days.
 */

import { isSupportedCurrency } from '../money/currencies.js';
import { formatMinorUnits, resolveLocale } from '../money/money-format.js';
import { EMAIL_WORDS, type EmailLanguage, emailLanguageOf } from './email-words.js';
import type { EmailJob, EmailKind } from './entities.js';

/** Signed links the service made for this job; null where the email has none. */
export interface EmailLinks {
  /** The invoice or credit note PDF. */
  readonly document: string | null;
  /** Where the customer pays the invoice or updates the payment method. */
  readonly pay: string | null;
}

export interface EmailContent {
  readonly language: EmailLanguage;
  readonly subject: string;
  readonly greeting: string;
  readonly intro: string;
  readonly rows: readonly { readonly label: string; readonly value: string }[];
  readonly actions: readonly { readonly label: string; readonly url: string }[];
  readonly sellerName: string;
  readonly logoAlt: string;
  readonly linkNotice: string | null;
  readonly footer: string;
}

/** Text that may reach a header: line breaks and other control characters become spaces. */
export function headerSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

function formatMinor(amount: string | null, currencyCode: string | null, locale: string): string {
  if (amount === null || currencyCode === null || !isSupportedCurrency(currencyCode)) return '';
  return formatMinorUnits(BigInt(amount), currencyCode, locale);
}

function formatDate(instant: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(instant));
}

const DOCUMENT_ACTION: Partial<Record<EmailKind, 'viewInvoice' | 'viewCreditNote'>> = {
  receipt: 'viewInvoice',
  invoice_issued: 'viewInvoice',
  refund_issued: 'viewCreditNote',
  credit_note_issued: 'viewCreditNote',
};
const PAY_ACTION: Partial<Record<EmailKind, 'payInvoice' | 'updatePayment'>> = {
  invoice_issued: 'payInvoice',
  payment_failed: 'updatePayment',
  subscription_past_due: 'updatePayment',
  card_expiring: 'updatePayment',
};

/** The email a job sends, in the customer's language, from `sellerName`. */
export function composeEmail(job: EmailJob, sellerName: string, links: EmailLinks): EmailContent {
  const language = emailLanguageOf(job.locale);
  const words = EMAIL_WORDS[language];
  const locale = resolveLocale(job.locale);
  const amount = formatMinor(job.facts.amount, job.facts.currencyCode, locale);
  const seller = headerSafe(sellerName);
  const values = { seller, amount, number: job.facts.invoiceNumber ?? job.facts.transactionId ?? '' };
  const planChange = job.kind === 'subscription_plan_changed';
  const rows: { label: string; value: string }[] = [];
  if (amount !== '') rows.push({ label: planChange ? words.chargedNow : words.amount, value: amount });
  const credit = formatMinor(job.facts.credit ?? null, job.facts.currencyCode, locale);
  if (credit !== '' && BigInt(job.facts.credit ?? '0') > 0n) rows.push({ label: words.credited, value: credit });
  if (job.facts.invoiceNumber) rows.push({ label: words.invoiceNumber, value: job.facts.invoiceNumber });
  const date = job.facts.date ? formatDate(job.facts.date, locale) : '';
  if (date !== '') rows.push({ label: words.date[job.kind], value: date });
  const nextTry = job.facts.nextTryAt ? formatDate(job.facts.nextTryAt, locale) : '';
  if (nextTry !== '') rows.push({ label: words.nextTry, value: nextTry });
  if (job.facts.productNames.length > 0) {
    rows.push({ label: planChange ? words.newPlan : words.products, value: job.facts.productNames.join(', ') });
  }
  const sentences = [fill(words.intros[job.kind], values)];
  if (nextTry !== '') sentences.push(fill(words.retryOn, { next: nextTry }));
  if (planChange && date !== '') sentences.push(fill(words.planBilling[job.facts.billing ?? 'none'], { date }));
  const actions: { label: string; url: string }[] = [];
  const payAction = PAY_ACTION[job.kind];
  if (payAction && links.pay) actions.push({ label: words[payAction], url: links.pay });
  const documentAction = DOCUMENT_ACTION[job.kind];
  if (documentAction && links.document) actions.push({ label: words[documentAction], url: links.document });
  const name = job.facts.customerName === null ? '' : headerSafe(job.facts.customerName);
  return {
    language,
    subject: headerSafe(fill(words.subjects[job.kind], values)),
    greeting: name === '' ? words.greetingWithoutName : fill(words.greeting, { name }),
    intro: sentences.join(' '),
    rows,
    actions,
    sellerName: seller,
    logoAlt: fill(words.logoAlt, { seller }),
    linkNotice: actions.length > 0 ? words.linkExpiry : null,
    footer: fill(words.sentBy, { seller }),
  };
}
