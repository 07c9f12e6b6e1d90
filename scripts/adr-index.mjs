#!/usr/bin/env node
// The index of the architecture decision records, docs/decisions/README.md, generated from the ADR
// files themselves: `node scripts/adr-index.mjs` (or `npm run docs`) rewrites it, and
// test/docs.test.ts fails while the checked-in copy differs from what this script writes.
//
// - An ADR is a file `docs/decisions/NNNN-slug.md` whose first line is `# NNNN Title`.
// - Its status is "Accepted", followed by what later ADRs did to it, read from the markers the ADRs
//   already carry: a sentence that starts "Amended by ADR NNNN" or "Superseded [in part | for …] by
//   ADR NNNN" (bold or not). A decision that a later ADR changes gets such a marker in its own text,
//   so a reader of the old ADR sees it and the index shows it.
// - Each ADR falls in one numbering block of BLOCKS below; a new block (or a number outside every
//   block) needs an entry there, and the test says so.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The numbering blocks, in order: `from`-`to` inclusive, what the ADRs in it decide. Ranges named
 * here with no ADR yet are numbers already given out to work in flight.
 * @type {ReadonlyArray<{ from: number; to: number; subject: string }>}
 */
export const BLOCKS = [
  {
    from: 1,
    to: 99,
    subject:
      'Foundations: workspace and tooling, entity storage, SQLite durability, decimal shapes, API keys, sandbox time, rate limits, error codes and balances where the brief is silent, test workers',
  },
  {
    from: 100,
    to: 149,
    subject: 'The request and CLI contract: validation errors, body nesting, unread bodies, CLI exit codes',
  },
  {
    from: 150,
    to: 199,
    subject:
      'Usage correctness: counted exactly once under SIGKILL, one spelling per instant, refills on item changes, sandbox advances',
  },
  {
    from: 200,
    to: 299,
    subject:
      'Price search (`apps/price-search`): HTTP contract, plans and metering by Drawdown, query understanding, catalogue and ranking, connectors and feeds, both engines’ lookups and their measured costs',
  },
  {
    from: 400,
    to: 499,
    subject:
      'Transactions: arithmetic and tax rounding, lifecycle, currencies, tax settings, invoice numbers, adjustments, PDF links, listing',
  },
  { from: 500, to: 599, subject: 'Events and webhooks: outbox fan-out, event types, notification settings, delivery' },
  { from: 600, to: 699, subject: 'The TypeScript SDK (`packages/sdk`)' },
  { from: 700, to: 709, subject: 'Usage ingestion: how it is benchmarked, the hot path' },
  {
    from: 710,
    to: 799,
    subject: 'Usage ingestion and drawdown performance on both engines: what was measured, adopted and not adopted',
  },
  { from: 800, to: 899, subject: 'The billing portal demo (`apps/billing-portal`)' },
  {
    from: 900,
    to: 919,
    subject:
      'Hardening across the service: sandbox jumps, unstorable text, ids in bodies, the HTTP edge kit, portal sessions, lost PostgreSQL connections',
  },
  {
    from: 920,
    to: 999,
    subject: 'Architecture: one composition root, architecture checks, the core’s port slices (0922-0929)',
  },
  {
    from: 1000,
    to: 1099,
    subject:
      'Subscriptions: proration, billing modes, credit balances, trials, one-time charges, changes of date, parties, cycle and currency, discounts',
  },
  {
    from: 1100,
    to: 1199,
    subject:
      'Discounts, `include` and list parameters, revising transactions, credit notes, invoice documents and seller details',
  },
  { from: 1300, to: 1399, subject: 'Event types, webhook simulations, metrics and reports' },
  {
    from: 1400,
    to: 1409,
    subject:
      'Operations: logs, graceful shutdown, operations endpoints, first start, migrations, backups, the OpenAPI document, request tracing, keep-alive',
  },
  { from: 1410, to: 1419, subject: 'Payments: the provider port, hosted checkout and sandbox cards, payment links' },
  {
    from: 1420,
    to: 1429,
    subject:
      'Live payments with Stripe: provider per account, intents, provider webhooks, off-session charges, authorise before commit',
  },
  {
    from: 1430,
    to: 1439,
    subject:
      'Tax by location (rates, categories, VIES, IP location) and the tokens and languages of the hosted checkout',
  },
  { from: 1440, to: 1449, subject: 'Customer portal: sessions, self-service, usage per billing period' },
  {
    from: 1450,
    to: 1459,
    subject: 'Response schemas and the OpenAPI walk; tracing beyond requests',
  },
  {
    from: 1460,
    to: 1469,
    subject:
      'Payment recovery, refunds and disputes at the provider, provider settings while work waits; 1467 is tax (location rate overrides)',
  },
  {
    from: 1470,
    to: 1474,
    subject: 'Answers the official SDKs read: tax by default, checkout links, discounts, ordering',
  },
  {
    from: 1475,
    to: 1479,
    subject: 'Webhook source addresses, currency conversion, portal addresses that answer, the first ten minutes',
  },
  { from: 1480, to: 1484, subject: 'Service operations' },
  { from: 1485, to: 1489, subject: 'Sandbox limits' },
  { from: 1490, to: 1494, subject: 'Images and documents' },
  {
    from: 1500,
    to: 1519,
    subject: 'Customer email: the email outbox, SMTP delivery, sandbox capture, the emails and their settings',
  },
  {
    from: 1520,
    to: 1539,
    subject:
      'High availability and deployment: database failover, balanced processes, the shipped deployment, capacity',
  },
];

const FILE_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const MARKER = /\b(Amended|Superseded)\b([^.:()]*?)\bby ADR (\d{4})/g;

/** @param {number} n */
const four = (n) => String(n).padStart(4, '0');

/**
 * Every ADR file of `dir`, in number order, with its title and status. Throws on a file whose name
 * or first line is not an ADR's, so a malformed ADR cannot drop out of the index.
 * @param {string} dir
 */
export function readAdrs(dir) {
  const adrs = [];
  for (const file of readdirSync(dir).sort()) {
    if (file === 'README.md' || !file.endsWith('.md')) continue;
    const name = FILE_NAME.exec(file);
    if (name === null) throw new Error(`docs/decisions/${file}: an ADR file is named NNNN-lower-case-slug.md`);
    const number = name[1] ?? '';
    const text = readFileSync(join(dir, file), 'utf8');
    const heading = /^# (\d{4}) (.+)\n/.exec(text);
    if (heading === null || heading[1] !== number) {
      throw new Error(`docs/decisions/${file}: the first line must be "# ${number} Title"`);
    }
    /** @type {string[]} */
    const amendedBy = [];
    /** @type {string[]} */
    const supersededInPartBy = [];
    /** @type {string[]} */
    const supersededBy = [];
    for (const marker of text.matchAll(MARKER)) {
      const by = marker[3] ?? '';
      const list =
        marker[1] === 'Amended' ? amendedBy : (marker[2] ?? '').trim() === '' ? supersededBy : supersededInPartBy;
      if (!list.includes(by)) list.push(by);
    }
    adrs.push({ number, file, title: (heading[2] ?? '').trim(), amendedBy, supersededInPartBy, supersededBy });
  }
  return adrs;
}

/** @param {ReadonlyArray<string>} numbers @param {ReadonlyArray<{ number: string; file: string }>} adrs */
function links(numbers, adrs) {
  return numbers
    .map((n) => {
      const target = adrs.find((a) => a.number === n);
      return target === undefined ? n : `[${n}](${target.file})`;
    })
    .join(', ');
}

/** @param {ReturnType<typeof readAdrs>[number]} adr @param {ReturnType<typeof readAdrs>} adrs */
export function statusOf(adr, adrs) {
  if (adr.supersededBy.length > 0) return `Superseded by ${links(adr.supersededBy, adrs)}`;
  const parts = ['Accepted'];
  if (adr.supersededInPartBy.length > 0) parts.push(`superseded in part by ${links(adr.supersededInPartBy, adrs)}`);
  if (adr.amendedBy.length > 0) parts.push(`amended by ${links(adr.amendedBy, adrs)}`);
  return parts.join('; ');
}

/** @param {number} n */
export function blockOf(n) {
  return BLOCKS.find((b) => b.from <= n && n <= b.to);
}

/** @param {string} text */
const cell = (text) => text.replaceAll('|', '\\|');

/**
 * The index's Markdown.
 * @param {string} dir the decisions folder
 */
export function adrIndex(dir) {
  const adrs = readAdrs(dir);
  const outside = adrs.filter((a) => blockOf(Number(a.number)) === undefined).map((a) => a.file);
  if (outside.length > 0) {
    throw new Error(
      `no numbering block in scripts/adr-index.mjs (BLOCKS) holds ${outside.join(', ')}: add the block with what its ADRs decide`,
    );
  }
  const range = (/** @type {{ from: number; to: number }} */ b) => `${four(b.from)}-${four(b.to)}`;
  const lines = [
    '# Architecture decision records',
    '',
    '<!-- Generated by scripts/adr-index.mjs from the ADR files: run `node scripts/adr-index.mjs` (or `npm run docs`) after adding an ADR; do not edit by hand. -->',
    '',
    'Each record is one decision where the issue or the public API was silent: its context, the decision and its',
    'consequences. A later decision that changes one is a record of its own, and the older record says so in a note',
    '("Amended by ADR …", "Superseded in part by ADR …") at its top or beside the paragraph concerned; the status',
    'below is read from those notes.',
    '',
    '## Numbering blocks',
    '',
    'Numbers are given out in blocks by subject; a gap is a number not used. The 09xx and 14xx blocks are split by',
    'subject, as they grew.',
    '',
    '| Numbers | Subject | ADRs |',
    '| --- | --- | --- |',
  ];
  for (const block of BLOCKS) {
    const count = adrs.filter((a) => blockOf(Number(a.number)) === block).length;
    lines.push(
      `| [${range(block)}](#${range(block)}) | ${cell(block.subject)} | ${count === 0 ? 'none yet' : count} |`,
    );
  }
  for (const block of BLOCKS) {
    const inBlock = adrs.filter((a) => blockOf(Number(a.number)) === block);
    if (inBlock.length === 0) continue;
    lines.push(
      '',
      `## ${range(block)}`,
      '',
      `${block.subject}.`,
      '',
      '| ADR | Title | Status |',
      '| --- | --- | --- |',
    );
    for (const adr of inBlock) {
      lines.push(`| [${adr.number}](${adr.file}) | ${cell(adr.title)} | ${statusOf(adr, adrs)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const root = join(import.meta.dirname, '..');
export const ADR_DIR = join(root, 'docs/decisions');
export const ADR_INDEX = join(ADR_DIR, 'README.md');

/** Rewrites docs/decisions/README.md. */
export function writeAdrIndex() {
  writeFileSync(ADR_INDEX, adrIndex(ADR_DIR));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeAdrIndex();
  console.log('wrote docs/decisions/README.md');
}
