/**
 * @module
 * An email's content (`composeEmail`, the core's document model) as HTML and plain text
 * (ADR 1501). Every text reaches the markup through `escapeHtml`; the HTML is one self-contained
 * document (inline styles only: mail clients drop stylesheets), with a language, a title, a
 * heading and a table of facts, so it reads well to screen readers and passes axe.
 */
import type { EmailContent } from '@drawdown/billing-core';
import { escapeHtml } from '@drawdown/http-kit';

/** The content id the seller's logo is attached under, referenced as `cid:` by the HTML. */
export const LOGO_CID = 'seller-logo@drawdown.email';

export function renderEmailHtml(content: EmailContent, options: { readonly hasLogo: boolean }): string {
  const rows = content.rows
    .map(
      (row) =>
        `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;font-weight:600">${escapeHtml(row.label)}</th><td style="padding:4px 0">${escapeHtml(row.value)}</td></tr>`,
    )
    .join('\n');
  const actions = content.actions
    .map(
      (action) =>
        `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#1f4fd1;color:#ffffff;text-decoration:underline;border-radius:4px">${escapeHtml(action.label)}</a></p>`,
    )
    .join('\n');
  const logo = options.hasLogo
    ? `<p><img src="cid:${LOGO_CID}" alt="${escapeHtml(content.logoAlt)}" style="max-height:64px;max-width:240px"></p>\n`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(content.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(content.subject)}</title>
</head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">
<main style="max-width:560px;margin:0 auto">
${logo}<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(content.subject)}</h1>
<p>${escapeHtml(content.greeting)}</p>
<p>${escapeHtml(content.intro)}</p>
${rows === '' ? '' : `<table role="presentation" style="border-collapse:collapse;margin:16px 0">\n${rows}\n</table>`}
${actions}
${content.linkNotice === null ? '' : `<p style="color:#4a4a4a;font-size:14px">${escapeHtml(content.linkNotice)}</p>`}
</main>
<footer style="max-width:560px;margin:24px auto 0;color:#4a4a4a;font-size:14px"><p>${escapeHtml(content.footer)}</p></footer>
</body>
</html>
`;
}

export function renderEmailText(content: EmailContent): string {
  const lines = [content.greeting, '', content.intro, ''];
  for (const row of content.rows) lines.push(`${row.label}: ${row.value}`);
  if (content.rows.length > 0) lines.push('');
  for (const action of content.actions) lines.push(`${action.label}: ${action.url}`);
  if (content.actions.length > 0) lines.push('');
  if (content.linkNotice !== null) lines.push(content.linkNotice, '');
  lines.push(content.footer);
  return `${lines.join('\n')}\n`;
}
