import { describe, expect, it } from 'vitest';
import { escapeHtml, htmlDocument } from './html.js';

describe('server-rendered HTML', () => {
  it('escapes the five characters that end text or an attribute, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
    expect(escapeHtml('Grüße · 12,345,678.90 $ — 日本')).toBe('Grüße · 12,345,678.90 $ — 日本');
    expect(escapeHtml(42)).toBe('42');
  });

  it('wraps a body in one document shell, escaping what it places', () => {
    const page = htmlDocument({
      language: 'de',
      title: 'Rechnung <1>',
      stylesheet: '/assets/a.css?v=1&x=2',
      deferredScripts: ['/assets/a.js?v="1"'],
      body: '<main>hi</main>',
    });
    expect(page).toBe(`<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rechnung &lt;1&gt;</title>
<link rel="stylesheet" href="/assets/a.css?v=1&amp;x=2">
<script src="/assets/a.js?v=&quot;1&quot;" defer></script>
</head>
<body>
<main>hi</main>
</body>
</html>`);
    expect(htmlDocument({ language: 'en', title: 't', stylesheet: '/s.css', body: '' })).toContain(
      '<link rel="stylesheet" href="/s.css">\n</head>',
    );
  });
});
