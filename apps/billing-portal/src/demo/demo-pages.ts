/**
 * @module
 * The demo's own pages: the sign-in form and short messages, in the document shell and with the
 * escaping every Drawdown page uses (`@drawdown/http-kit`).
 */
import { escapeHtml, htmlDocument } from '@drawdown/http-kit';

export const DEMO_STYLE_PATH = '/assets/demo.css';

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

/** A short message page (refusals of the demo's own routes). */
export function renderDemoMessage(title: string, message: string): string {
  return layout(
    title,
    `<main class="message"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a class="button" href="/login">Go to sign-in</a></p></main>`,
  );
}
