/**
 * The documentation stays navigable (ADR 0012):
 * - docs/decisions/README.md, the ADR index, is what scripts/adr-index.mjs writes from the ADR files,
 *   lists every ADR with its title, and every ADR number falls in a numbering block of its legend;
 * - every repository path that README.md and docs/ quote exists, and no document sends its reader to
 *   a file outside the repository.
 *
 * What counts as a quoted repository path (the rule of ADR 0012):
 * - a relative Markdown link target (`[text](target)`, not a URL, not an anchor), resolved from the
 *   document's folder;
 * - an inline code span that is one path-like token (letters, digits, `.`, `_`, `-`, `/`, `*`; not
 *   starting with `/`, `-` or a digit) and either has a slash and starts at a top-level entry of the
 *   repository (`apps/…`, `docs/…`), or has a slash and only lower-case segments (a path inside a
 *   package, such as `payments/authorised-changes.ts` or `http/routes`; MIME types excluded), or
 *   ends in a source or document file extension (`use-cases.ts`, `compose.yaml`);
 * - a bare `name.md` in the prose (`DESIGN.md`).
 * A link must exist from the document's folder. A code span or a prose mention must exist beside
 * the document or be the end of some file's or folder's path, segment by segment (`test/x.test.ts`
 * quoted in a price-search ADR is `apps/price-search/test/x.test.ts`); `*` matches within one segment. Build outputs that .gitignore keeps out of the repository (`dist/`, `build/`) are not
 * checked. Absolute paths (`/usage-events`, `/proc/…`) are API routes or system files, not ours.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADR_DIR, ADR_INDEX, adrIndex, blockOf, readAdrs } from '../scripts/adr-index.mjs';

const root = join(import.meta.dirname, '..');
const FIX_INDEX = 'run `node scripts/adr-index.mjs` (or `npm run docs`) and commit docs/decisions/README.md';

describe('docs/decisions/README.md, the ADR index', () => {
  it('is what scripts/adr-index.mjs writes from the ADR files', () => {
    expect(readFileSync(ADR_INDEX, 'utf8'), `the ADR index is stale: ${FIX_INDEX}`).toBe(adrIndex(ADR_DIR));
  });

  it('lists every ADR file with its title, and lists no ADR that is not there', () => {
    const files = readdirSync(ADR_DIR).filter((f) => f.endsWith('.md') && f !== 'README.md');
    const titles = new Map(
      files.map((f) => [f, (/^# \d{4} (.+)$/m.exec(readFileSync(join(ADR_DIR, f), 'utf8'))?.[1] ?? '').trim()]),
    );
    const listed = new Map<string, string>();
    for (const row of readFileSync(ADR_INDEX, 'utf8').matchAll(/^\| \[(\d{4})\]\(([^)]+)\) \| (.+) \| .+ \|$/gm)) {
      listed.set(row[2] ?? '', (row[3] ?? '').replaceAll('\\|', '|'));
    }
    expect(files.length).toBeGreaterThan(150);
    const unlisted = files.filter((f) => listed.get(f) !== titles.get(f));
    expect(unlisted, `ADRs missing from the index or listed with another title: ${FIX_INDEX}`).toEqual([]);
    const gone = [...listed.keys()].filter((f) => !titles.has(f));
    expect(gone, `the index lists ADR files that do not exist: ${FIX_INDEX}`).toEqual([]);
  });

  it('has a numbering block in its legend for every ADR, and one file per number', () => {
    const adrs = readAdrs(ADR_DIR);
    const outside = adrs.filter((a) => blockOf(Number(a.number)) === undefined).map((a) => a.file);
    expect(outside, 'add a block for these ADRs to BLOCKS in scripts/adr-index.mjs').toEqual([]);
    const numbers = adrs.map((a) => a.number);
    expect(
      numbers.filter((n, i) => numbers.indexOf(n) !== i),
      'two ADR files share a number',
    ).toEqual([]);
  });

  it('reads a status from the "Amended by" and "Superseded … by" notes, and catches a new ADR left out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'adr-index-'));
    try {
      writeFileSync(join(dir, '0001-first.md'), '# 0001 First\n\n**Amended by ADR 0002:** a note.\n');
      writeFileSync(join(dir, '0002-second.md'), '# 0002 Second\n\n(Superseded in part by ADR 0003: a note.)\n');
      writeFileSync(join(dir, '0003-third.md'), '# 0003 Third\n\nSuperseded by ADR 0004.\n');
      const index = adrIndex(dir);
      expect(index).toContain('| [0001](0001-first.md) | First | Accepted; amended by [0002](0002-second.md) |');
      expect(index).toContain(
        '| [0002](0002-second.md) | Second | Accepted; superseded in part by [0003](0003-third.md) |',
      );
      expect(index).toContain('| [0003](0003-third.md) | Third | Superseded by 0004 |');
      writeFileSync(join(dir, '0004-fourth.md'), '# 0004 Fourth\n');
      expect(adrIndex(dir)).not.toBe(index);
      writeFileSync(join(dir, '0300-outside.md'), '# 0300 Outside every block\n');
      expect(() => adrIndex(dir)).toThrow(/no numbering block .* holds 0300-outside\.md/);
      writeFileSync(join(dir, '0005-bad.md'), '# 0006 Wrong number\n');
      expect(() => adrIndex(dir)).toThrow(/0005-bad\.md: the first line must be "# 0005 Title"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The .gitignore entries, as predicates on a repository-relative path. */
function ignoredByGit(): (path: string) => boolean {
  const rules = readFileSync(join(root, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const anchored = line.startsWith('/');
      const body = line.replace(/^\//, '').replace(/\/$/, '');
      const pattern = new RegExp(
        `${anchored ? '^' : '(^|/)'}${body.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}(/|$)`,
      );
      return (path: string) => pattern.test(path);
    });
  return (path) => path === '.git' || path.startsWith('.git/') || rules.some((rule) => rule(path));
}

const ignored = ignoredByGit();

/** Every file and folder of the repository (what a clean checkout holds), repository-relative. */
function repositoryEntries(): Set<string> {
  const entries = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (ignored(path)) continue;
      entries.add(path);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk('');
  return entries;
}

const FILE_EXTENSIONS = /\.(ts|mts|cts|mjs|cjs|js|json|md|yaml|yml|sql|sh|c|h|so|png|svg|html|css|csv|toml|txt)$/;
const MIME_TYPE = /^(application|text|image|audio|video|multipart|font)\//;

interface QuotedPath {
  readonly path: string;
  readonly line: number;
  readonly kind: 'link' | 'code' | 'prose';
}

/** The repository paths a Markdown document quotes, by the rule at the top of this file. */
function quotedPaths(markdown: string, topLevel: ReadonlySet<string>): QuotedPath[] {
  const found: QuotedPath[] = [];
  const lineOf = (index: number): number => markdown.slice(0, index).split('\n').length;
  const withoutFences = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ' '));
  for (const link of withoutFences.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (link[1] ?? '').replace(/#.*$/, '');
    if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    found.push({ path: target, line: lineOf(link.index), kind: 'link' });
  }
  for (const code of withoutFences.matchAll(/`([^`\n]+)`/g)) {
    const span = code[1] ?? '';
    if (!/^[A-Za-z0-9._/*-]+$/.test(span) || /^[/\d-]/.test(span) || span.includes('//')) continue;
    const first = span.split('/')[0] ?? '';
    const rooted = span.includes('/') && topLevel.has(first);
    const inner = span.includes('/') && /^[a-z0-9._*-]+(\/[a-z0-9._*-]*)*$/.test(span) && !MIME_TYPE.test(span);
    if (rooted || inner || FILE_EXTENSIONS.test(span))
      found.push({ path: span, line: lineOf(code.index), kind: 'code' });
  }
  const prose = withoutFences
    .replace(/`[^`\n]*`/g, (span) => ' '.repeat(span.length))
    .replace(/\]\([^)]*\)/g, (link) => ' '.repeat(link.length));
  for (const mention of prose.matchAll(/(?<![\w./-])([\w./-]*[\w-]\.md)\b/g)) {
    found.push({ path: mention[1] ?? '', line: lineOf(mention.index), kind: 'prose' });
  }
  return found;
}

/** Whether `quoted`, quoted in the document `doc`, names something in the repository. */
function exists(quoted: QuotedPath, doc: string, entries: ReadonlySet<string>): boolean {
  const path = quoted.path.replace(/\/$/, '').replace(/^\.\//, '');
  const pattern = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
  const matches = (candidate: string) => pattern.test(candidate);
  const beside = relative(root, join(root, dirname(doc), path));
  if (
    [...entries].some((entry) => entry === beside || (path.includes('*') && matches(relative(dirname(doc), entry))))
  ) {
    return true;
  }
  if (quoted.kind === 'link') return false;
  return [...entries].some((entry) => entry.split('/').some((_, i, parts) => matches(parts.slice(i).join('/'))));
}

describe('paths quoted in README.md and docs/', () => {
  const entries = repositoryEntries();
  const topLevel = new Set([...entries].filter((entry) => !entry.includes('/')));
  const documents = [...entries].filter((entry) => entry === 'README.md' || /^docs\/.*\.md$/.test(entry)).sort();

  it('all exist in the repository (build outputs aside)', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const doc of documents) {
      for (const quoted of quotedPaths(readFileSync(join(root, doc), 'utf8'), topLevel)) {
        if (ignored(quoted.path.replace(/^\.\//, ''))) continue;
        checked += 1;
        if (!exists(quoted, doc, entries)) missing.push(`${doc}:${quoted.line}: ${quoted.path}`);
      }
    }
    expect(documents.length).toBeGreaterThan(150);
    expect(checked).toBeGreaterThan(300);
    expect(missing, 'these quoted paths name nothing in the repository: fix the path or the sentence').toEqual([]);
  });

  // The brief and reference files the project was started from live beside the repository, and a
  // machine's own checkouts (`/work/…`) are nobody else's: say what they hold instead.
  const OUTSIDE = /\.\.\/shared|(^|[\s`=(])\/work\/|\bDESIGN\b|reference\/paddle-wire/;

  it('never send the reader outside the repository', () => {
    const outside: string[] = [];
    for (const doc of documents) {
      readFileSync(join(root, doc), 'utf8')
        .split('\n')
        .forEach((text, i) => {
          if (OUTSIDE.test(text)) outside.push(`${doc}:${i + 1}: ${text.trim()}`);
        });
    }
    expect(outside, 'these lines cite files outside the repository: say what they hold instead').toEqual([]);
  });

  it('recognises the paths of the rule, and only those', () => {
    const markdown = [
      'See [the index](decisions/README.md), [a site](https://example.com/a.md) and [a heading](#top).',
      'Code `packages/billing-core/src/use-cases.ts`, `payments/authorised-changes.ts`, `http/routes`, `compose.yaml`,',
      'not `application/json`, `/usage-events`, `LISTEN/NOTIFY`, `1200/10s`, `--rate-limit`, `checkout.url` or `npm test`.',
      'DESIGN.md section 5, but not Stripe.js.',
      '```sh',
      'node bench/run-benchmarks.mjs `scripts/x.mjs`',
      '```',
    ].join('\n');
    const paths = quotedPaths(markdown, new Set(['packages', 'docs']));
    expect(paths.map((p) => `${p.kind} ${p.path} ${p.line}`)).toEqual([
      'link decisions/README.md 1',
      'code packages/billing-core/src/use-cases.ts 2',
      'code payments/authorised-changes.ts 2',
      'code http/routes 2',
      'code compose.yaml 2',
      'prose DESIGN.md 4',
    ]);
    const known = new Set(['docs', 'docs/decisions', 'docs/decisions/README.md', 'packages', 'packages/a/src/x.ts']);
    const at = (path: string, kind: QuotedPath['kind']) => exists({ path, kind, line: 1 }, 'docs/x.md', known);
    expect(at('decisions/README.md', 'link')).toBe(true);
    expect(at('README.md', 'link')).toBe(false);
    expect(at('src/x.ts', 'code')).toBe(true);
    expect(at('packages/src/x.ts', 'code')).toBe(false);
    expect(at('a/src/x.ts', 'code')).toBe(true);
    expect(at('b/src/x.ts', 'code')).toBe(false);
    expect(at('packages/*/src/x.ts', 'code')).toBe(true);
    expect(at('DESIGN.md', 'prose')).toBe(false);
  });
});
