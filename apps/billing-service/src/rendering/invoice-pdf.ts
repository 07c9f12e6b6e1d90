/**
 * @module
 * Draws an invoice or credit note document (the core's pure model) as a PDF with pdfkit. Fonts
 * are embedded and subset per document: DejaVu Sans for Latin, Greek and Cyrillic text and every
 * billed currency's symbol (₹, ₩, ₫, ₴, ₺, ₽, …), and Noto Sans JP for text DejaVu cannot draw
 * (Japanese names and labels, ￥); each string takes the first font that has all its glyphs
 * (ADR 1104). pdfkit's built-in fonts cover only Latin-1.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { InvoiceDocument, InvoiceParty } from '@drawdown/billing-core';
import PDFDocument from 'pdfkit';

const require = createRequire(import.meta.url);
interface ParsedFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

// pdfkit's own font engine; pdfkit accepts its parsed fonts as font sources.
const fontkit = require('fontkit') as { create(bytes: Uint8Array): ParsedFont };

/**
 * Parsed once per process: parsing the TrueType tables is most of a render's cost, and pdfkit
 * takes a parsed font and embeds a fresh subset of it in each document.
 */
function parsedFont(modulePath: string): ParsedFont {
  return fontkit.create(readFileSync(require.resolve(modulePath)));
}

/** The font families, in the order a string tries them. */
const FAMILIES = [
  {
    name: 'dejavu',
    regular: parsedFont('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: parsedFont('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  },
  {
    name: 'noto-jp',
    regular: parsedFont('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
    bold: parsedFont('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf'),
  },
] as const;

type Weight = 'regular' | 'bold';

/** The registered font name for `text`: the first family that draws every character of it. */
function fontFor(text: string, weight: Weight): string {
  const codePoints = [...text].map((character) => character.codePointAt(0) ?? 0).filter((code) => code > 0x20);
  const drawn = (family: (typeof FAMILIES)[number]) =>
    codePoints.filter((code) => family[weight].hasGlyphForCodePoint(code)).length;
  // A string no family draws whole takes the one that draws most of it.
  const family =
    FAMILIES.find((candidate) => drawn(candidate) === codePoints.length) ??
    [...FAMILIES].sort((left, right) => drawn(right) - drawn(left))[0] ??
    FAMILIES[0];
  return `${family.name}-${weight}`;
}

const MARGIN = 50;
const PAGE_WIDTH = 595.28; // A4
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
/** The line table; the description wraps, every other cell stays on one line (ADR 1104). */
interface Column {
  readonly key: 'description' | 'quantity' | 'unitPrice' | 'discount' | 'taxRate' | 'tax' | 'amount';
  readonly width: number;
  readonly align: 'left' | 'right';
}
const COLUMNS: readonly Column[] = [
  { key: 'description', width: 165, align: 'left' },
  { key: 'quantity', width: 40, align: 'right' },
  { key: 'unitPrice', width: 80, align: 'right' },
  { key: 'taxRate', width: 45, align: 'right' },
  { key: 'tax', width: 75, align: 'right' },
  { key: 'amount', width: 90, align: 'right' },
];
/** With line discounts, a discount column between unit price and tax rate (ADR 1109); same total width. */
const DISCOUNTED_COLUMNS: readonly Column[] = [
  { key: 'description', width: 125, align: 'left' },
  { key: 'quantity', width: 30, align: 'right' },
  { key: 'unitPrice', width: 75, align: 'right' },
  { key: 'discount', width: 70, align: 'right' },
  { key: 'taxRate', width: 50, align: 'right' },
  { key: 'tax', width: 65, align: 'right' },
  { key: 'amount', width: 80, align: 'right' },
];
const TABLE_FONT_SIZE = 9;
const SMALLEST_FONT_SIZE = 4;
/** Where a table row starts a new page. */
const PAGE_BOTTOM = 760;
/** The box the seller's logo is scaled into (its aspect kept), at the top left. */
const LOGO_BOX = { width: 160, height: 56 } as const;

export interface RenderOptions {
  /** Uncompressed content streams, so the text can be searched in the raw file (tests, debugging). */
  readonly compress?: boolean;
}

/** Renders the invoice and resolves with the PDF bytes. */
export function renderInvoicePdf(invoice: InvoiceDocument, options: RenderOptions = {}): Promise<Buffer> {
  const title = `${invoice.title} ${invoice.invoiceNumber}`;
  // Tagged (ADR 1107): a structure tree in reading order, the document's language and title,
  // the logo's text alternative, table headers with their scope, and rules as artifacts; the
  // PDF/UA identifier is claimed because each of its requirements pdfkit leaves to us is met.
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: options.compress ?? true,
    pdfVersion: '1.7',
    tagged: true,
    // pdfkit 0.20 writes the PDF/UA identifier; @types/pdfkit 0.17 lists only the PDF/A subsets.
    subset: 'PDF/UA' as unknown as PDFKit.Mixins.PDFSubsets,
    lang: invoice.locale,
    displayTitle: true,
    info: { Title: title, Subject: invoice.transactionId, Creator: 'Drawdown' },
  });
  // @types/pdfkit lists only paths and bytes as font sources; pdfkit also takes a fontkit font.
  for (const family of FAMILIES) {
    pdf.registerFont(`${family.name}-regular`, family.regular as unknown as Buffer);
    pdf.registerFont(`${family.name}-bold`, family.bold as unknown as Buffer);
  }
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  // Attached first, so that every element added to it draws its content at once, in order.
  const root = pdf.struct('Document');
  pdf.addStructure(root);
  const tagged = (parent: PDFKit.PDFStructureElement, role: string, draw: () => void, extra: StructureOptions = {}) => {
    const element = pdf.struct(role, structure(extra), draw);
    parent.add(element);
    element.end();
  };

  let top = MARGIN;
  const logo = invoice.seller.logo;
  if (logo) {
    const scale = Math.min(LOGO_BOX.width / logo.width, LOGO_BOX.height / logo.height);
    const width = logo.width * scale;
    const height = logo.height * scale;
    tagged(
      root,
      'Figure',
      () => {
        pdf.image(Buffer.from(logo.data, 'base64'), MARGIN, MARGIN, { width, height });
      },
      { alt: logo.alt, bbox: [MARGIN, MARGIN, MARGIN + width, MARGIN + height], placement: 'Block' },
    );
    top = MARGIN + height + 12;
  }
  tagged(root, 'H1', () => {
    pdf.font(fontFor(invoice.title, 'bold')).fontSize(22).text(invoice.title, MARGIN, top);
  });
  const status = invoice.status.toUpperCase();
  tagged(root, 'P', () => {
    pdf.font(fontFor(status, 'regular')).fontSize(10).fillColor('#555555').text(status, { align: 'right' });
  });
  pdf.fillColor('#000000').moveDown(0.5);
  const number = `${invoice.numberLabel} ${invoice.invoiceNumber}`;
  tagged(root, 'P', () => {
    pdf.font(fontFor(number, 'bold')).fontSize(11).text(number);
  });
  const reference = `${invoice.labels.transaction} ${invoice.transactionId}`;
  tagged(root, 'P', () => {
    pdf.font(fontFor(reference, 'regular')).fontSize(9).fillColor('#555555').text(reference);
  });
  pdf.fillColor('#000000').moveDown(0.5);
  for (const [label, value] of invoice.facts) {
    tagged(root, 'P', () => {
      pdf
        .font(fontFor(label, 'bold'))
        .fontSize(10)
        .text(`${label}: `, { continued: true })
        .font(fontFor(value, 'regular'))
        .text(value);
    });
  }

  pdf.moveDown(1);
  const partiesTop = pdf.y;
  const half = CONTENT_WIDTH / 2 - 10;
  drawParty(pdf, root, invoice.labels.from, invoice.seller, MARGIN, partiesTop, half);
  const sellerBottom = pdf.y;
  drawParty(pdf, root, invoice.labels.billTo, invoice.customer, MARGIN + half + 20, partiesTop, half);
  pdf.y = Math.max(sellerBottom, pdf.y) + 20;

  const table = pdf.struct('Table');
  root.add(table);
  const columns = invoice.lineDiscounts ? DISCOUNTED_COLUMNS : COLUMNS;
  drawRow(
    pdf,
    table,
    columns,
    columns.map((column) => invoice.labels[column.key]),
    'bold',
  );
  rule(pdf);
  pdf.moveDown(0.3);
  for (const line of invoice.lines) {
    drawRow(
      pdf,
      table,
      columns,
      columns.map((column) => line[column.key]),
      'regular',
    );
  }
  table.end();
  rule(pdf);
  pdf.moveDown(0.5);

  // The summary is a table of row headers (the label) and their amount.
  const summary = pdf.struct('Table');
  root.add(summary);
  const labelX = MARGIN + CONTENT_WIDTH - 260;
  for (const row of invoice.summary) {
    if (pdf.y > PAGE_BOTTOM) pdf.addPage();
    const y = pdf.y;
    const weight = row.emphasis ? 'bold' : 'regular';
    const tableRow = pdf.struct('TR');
    summary.add(tableRow);
    tagged(
      tableRow,
      'TH',
      () => {
        pdf.font(fontFor(row.label, weight)).fontSize(10).text(row.label, labelX, y, { width: 140 });
      },
      { scope: 'Row' },
    );
    const below = pdf.y;
    tagged(tableRow, 'TD', () => {
      pdf.font(fontFor(row.amount, weight));
      fitOnOneLine(pdf, row.amount, labelX + 140, y, 120, 10);
    });
    tableRow.end();
    pdf.y = Math.max(pdf.y, below);
  }
  summary.end();
  const instructions = invoice.paymentInstructions;
  if (instructions) {
    // How to pay a manual invoice (ADR 1110): a heading and the seller's bank details, kept together.
    pdf.moveDown(1);
    if (pdf.y + 16 * (instructions.lines.length + 1) > PAGE_BOTTOM) pdf.addPage();
    tagged(root, 'H2', () => {
      pdf.font(fontFor(instructions.heading, 'bold')).fontSize(11).text(instructions.heading, MARGIN, pdf.y);
    });
    for (const line of instructions.lines) {
      tagged(root, 'P', () => {
        pdf.font(fontFor(line, 'regular')).fontSize(10).text(line, MARGIN, pdf.y, { width: CONTENT_WIDTH });
      });
    }
  }
  if (invoice.notes.length > 0) {
    pdf.moveDown(1);
    for (const note of invoice.notes) {
      tagged(root, 'P', () => {
        pdf.font(fontFor(note, 'regular')).fontSize(9).text(note, MARGIN, pdf.y, { width: CONTENT_WIDTH });
      });
    }
  }
  root.end();
  pdf.end();
  return done;
}

/** The structure options pdfkit 0.20 takes beyond those @types/pdfkit 0.17 lists (layout box, header scope). */
interface StructureOptions {
  readonly alt?: string;
  readonly bbox?: readonly [number, number, number, number];
  readonly placement?: 'Block' | 'Inline';
  readonly scope?: 'Row' | 'Column';
}

function structure(options: StructureOptions): PDFKit.Mixins.StructureElementOptions {
  return options as PDFKit.Mixins.StructureElementOptions;
}

/** A horizontal rule: decoration, so an artifact that screen readers skip. */
function rule(pdf: PDFKit.PDFDocument): void {
  pdf.markContent('Artifact', { type: 'Layout' });
  pdf
    .moveTo(MARGIN, pdf.y)
    .lineTo(MARGIN + CONTENT_WIDTH, pdf.y)
    .strokeColor('#999999')
    .stroke();
  pdf.endMarkedContent();
}

function drawParty(
  pdf: PDFKit.PDFDocument,
  root: PDFKit.PDFStructureElement,
  heading: string,
  party: InvoiceParty,
  x: number,
  y: number,
  width: number,
): void {
  // Each party is a section: its heading, then the name and lines as one paragraph each.
  const section = pdf.struct('Sect');
  root.add(section);
  const add = (role: string, draw: () => void) => {
    const element = pdf.struct(role, {}, draw);
    section.add(element);
    element.end();
  };
  const title = heading.toUpperCase();
  add('H2', () => {
    pdf.font(fontFor(title, 'bold')).fontSize(9).fillColor('#555555').text(title, x, y, { width });
  });
  add('P', () => {
    pdf.fillColor('#000000').font(fontFor(party.name, 'bold')).fontSize(11).text(party.name, x, pdf.y, { width });
  });
  for (const line of party.lines) {
    add('P', () => {
      pdf.font(fontFor(line, 'regular')).fontSize(10).text(line, x, pdf.y, { width });
    });
  }
  section.end();
}

/**
 * Writes `text` right-aligned on one line of `width`, in a smaller size when it would not fit:
 * an amount is never broken across lines.
 */
function fitOnOneLine(pdf: PDFKit.PDFDocument, text: string, x: number, y: number, width: number, size: number): void {
  let fitted = size;
  pdf.fontSize(fitted);
  while (fitted > SMALLEST_FONT_SIZE && pdf.widthOfString(text) > width) {
    fitted -= 0.5;
    pdf.fontSize(fitted);
  }
  pdf.text(text, x, y + (size - fitted) / 2, { width, align: 'right', lineBreak: false });
  pdf.fontSize(size);
}

/** One table row: header cells (scope column) in bold, data cells otherwise. */
function drawRow(
  pdf: PDFKit.PDFDocument,
  table: PDFKit.PDFStructureElement,
  columns: readonly Column[],
  cells: readonly string[],
  weight: Weight,
): void {
  if (pdf.y > PAGE_BOTTOM) pdf.addPage();
  const y = pdf.y;
  let x = MARGIN;
  let bottom = y + pdf.font(fontFor('0', weight)).fontSize(TABLE_FONT_SIZE).currentLineHeight(true);
  const header = weight === 'bold';
  const row = pdf.struct('TR');
  table.add(row);
  cells.forEach((cell, index) => {
    const column = columns[index];
    if (!column) return;
    const cellX = x;
    const element = pdf.struct(header ? 'TH' : 'TD', structure(header ? { scope: 'Column' } : {}), () => {
      pdf.font(fontFor(cell, weight));
      if (column.align === 'left') {
        pdf.fontSize(TABLE_FONT_SIZE).text(cell, cellX, y, { width: column.width - 4 });
        bottom = Math.max(bottom, pdf.y);
      } else {
        fitOnOneLine(pdf, cell, cellX, y, column.width - 4, TABLE_FONT_SIZE);
      }
    });
    row.add(element);
    element.end();
    x += column.width;
  });
  row.end();
  pdf.x = MARGIN;
  pdf.y = bottom + 4;
}
