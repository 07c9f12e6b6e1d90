/**
 * @module
 * Server-rendered HTML, one rule for every page Drawdown serves (the billing portal and its demo,
 * the hosted checkout): text reaches markup only through `escapeHtml` (the `escape-html` package,
 * the escaping Express and its static servers use: `& < > " '` become entities), and every page is
 * the same document shell (a language, a title, one stylesheet from the page's own path, scripts
 * only as files, so a Content-Security-Policy without 'unsafe-inline' holds).
 */
import escapeHtmlText from 'escape-html';

/** Text safe in element content and in double- or single-quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return escapeHtmlText(String(value));
}

export interface HtmlDocument {
  /** The `lang` of the page. */
  readonly language: string;
  /** The `<title>`, as text (escaped here). */
  readonly title: string;
  /** The stylesheet's URL (escaped here). */
  readonly stylesheet: string;
  /** Scripts loaded from the head with `defer`, by URL (escaped here). Scripts that must run at the end of the body belong in `body`. */
  readonly deferredScripts?: readonly string[];
  /** The body's markup, already escaped where it holds text. */
  readonly body: string;
}

/** A whole page: doctype, head (charset, viewport, title, stylesheet, deferred scripts) and the body. */
export function htmlDocument(page: HtmlDocument): string {
  const scripts = (page.deferredScripts ?? []).map((src) => `<script src="${escapeHtml(src)}" defer></script>\n`);
  return `<!doctype html>
<html lang="${escapeHtml(page.language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<link rel="stylesheet" href="${escapeHtml(page.stylesheet)}">
${scripts.join('')}</head>
<body>
${page.body}
</body>
</html>`;
}
