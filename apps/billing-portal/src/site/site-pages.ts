/**
 * @module
 * The demo's own pages: the sign-in form and short messages, in the document shell and with the
 * escaping every Drawdown page uses (`@drawdown/http-kit`).
 */
import { escapeHtml, htmlDocument } from '@drawdown/http-kit';

export const DEMO_STYLE_PATH = '/assets/demo.css';

/** The demo's own rules after the portal's: captured email wraps its long lines (links) at any width. */
export const DEMO_CSS = `#mail-text { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 100%; }
#mailbox { width: 100%; border-collapse: collapse; }
#mailbox th, #mailbox td { text-align: left; padding: 0.4rem 0.5rem 0.4rem 0; vertical-align: top; overflow-wrap: anywhere; }`;

/** The name in page titles: the demo's, or the standalone portal's. */
export type SiteName = 'Billing portal demo' | 'Billing portal';

function layout(title: string, body: string): string {
  return htmlDocument({ language: 'en', title, stylesheet: DEMO_STYLE_PATH, body });
}

export interface SignInPageInput {
  readonly csrfToken: string;
  readonly email: string;
  readonly error: string | null;
}

/** The sign-in form; the error, when there is one, is announced and linked to the fields. */
export function renderSignInPage(input: SignInPageInput): string {
  const error = input.error ? `<p class="error" id="sign-in-error" role="alert">${escapeHtml(input.error)}</p>` : '';
  const described = input.error ? ' aria-describedby="sign-in-error"' : '';
  return layout(
    'Sign in · Billing portal demo',
    `<main class="login">
<h1>Sign in</h1>
<p class="hint">Billing portal demo. The sign-in details are printed where the demo was started.</p>
${error}
<form method="post" action="/login" novalidate>
<input type="hidden" name="csrf_token" value="${escapeHtml(input.csrfToken)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email)}"${described}${input.error ? ' aria-invalid="true"' : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${described}${input.error ? ' aria-invalid="true"' : ''}>
<button type="submit">Sign in</button>
</form>
</main>`,
  );
}

/** Where a message page's one button leads: the demo's sign-in, or the standalone portal's start. */
export interface MessageLink {
  readonly href: string;
  readonly text: string;
}

export const SIGN_IN_LINK: MessageLink = { href: '/login', text: 'Go to sign-in' };

/** A short message page (refusals of the site's own routes). */
export function renderDemoMessage(title: string, message: string, link: MessageLink = SIGN_IN_LINK): string {
  return layout(
    title,
    `<main class="message"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p></main>`,
  );
}

/**
 * The standalone portal's start page for a visitor without a session (ADR 1523): customers sign in
 * through the billing link their seller's application hands them (a customer portal session).
 */
export function renderSignedOutPage(): string {
  return layout(
    'Billing portal',
    `<main class="message"><h1>Billing portal</h1>
<p id="signed-out">You are not signed in. Open the billing link from your account with the seller: it signs you in here.</p></main>`,
  );
}

/** One captured sandbox email as the demo lists it. */
export interface CapturedMail {
  readonly id: string;
  readonly kind: string;
  readonly createdAt: string;
  readonly subject: string;
  readonly to: string;
  readonly text: string;
}

const MAIL_DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/**
 * The signed-in customer's captured sandbox email (issue 34): the sandbox never mails anyone and
 * keeps each email instead; here a tester reads what the customer would have been sent.
 */
export function renderMailboxPage(mails: readonly CapturedMail[], site: SiteName = 'Billing portal demo'): string {
  const rows = mails
    .map(
      (mail) =>
        `<tr><td>${escapeHtml(MAIL_DATE.format(new Date(mail.createdAt)))} UTC</td><td><a href="/mail/${escapeHtml(mail.id)}">${escapeHtml(mail.subject)}</a></td><td>${escapeHtml(mail.kind)}</td></tr>`,
    )
    .join('\n');
  const list =
    mails.length === 0
      ? '<p id="mail-empty">No email has been captured for you yet.</p>'
      : `<table id="mailbox"><caption>Newest first</caption><thead><tr><th scope="col">Captured</th><th scope="col">Subject</th><th scope="col">Kind</th></tr></thead><tbody>
${rows}
</tbody></table>`;
  return layout(
    `Captured email · ${site}`,
    `<main class="message"><h1>Captured email</h1>
<p class="hint">The sandbox sends no email: it keeps what it would have sent to you. Live sends it over SMTP.</p>
${list}
<p><a class="button" href="/billing/">Back to billing</a></p></main>`,
  );
}

/** One captured email: who it was for, its subject and its plain text. */
export function renderMailPage(mail: CapturedMail): string {
  return layout(
    `${mail.subject} · Captured email`,
    `<main class="message"><h1>${escapeHtml(mail.subject)}</h1>
<p class="hint">To ${escapeHtml(mail.to)}, captured ${escapeHtml(MAIL_DATE.format(new Date(mail.createdAt)))} UTC (${escapeHtml(mail.kind)})</p>
<pre id="mail-text">${escapeHtml(mail.text)}</pre>
<p><a class="button" href="/mail">All captured email</a></p></main>`,
  );
}
