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
import type { InvoiceDocument } from '@drawdown/billing-core';
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
const COLUMNS = [
  { key: 'description', width: 165, align: 'left' },
  { key: 'quantity', width: 40, align: 'right' },
  { key: 'unitPrice', width: 80, align: 'right' },
  { key: 'taxRate', width: 45, align: 'right' },
  { key: 'tax', width: 75, align: 'right' },
  { key: 'amount', width: 90, align: 'right' },
] as const;
const TABLE_FONT_SIZE = 9;
const SMALLEST_FONT_SIZE = 4;

export interface RenderOptions {
  /** Uncompressed content streams, so the text can be searched in the raw file (tests, debugging). */
  readonly compress?: boolean;
}

/** Renders the invoice and resolves with the PDF bytes. */
export function renderInvoicePdf(invoice: InvoiceDocument, options: RenderOptions = {}): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress: options.compress ?? true,
    info: { Title: `${invoice.title} ${invoice.invoiceNumber}`, Subject: invoice.transactionId, Creator: 'Drawdown' },
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

  pdf.font(fontFor(invoice.title, 'bold')).fontSize(22).text(invoice.title, MARGIN, MARGIN);
  const status = invoice.status.toUpperCase();
  pdf.font(fontFor(status, 'regular')).fontSize(10).fillColor('#555555').text(status, { align: 'right' });
  pdf.fillColor('#000000').moveDown(0.5);
  const number = `${invoice.numberLabel} ${invoice.invoiceNumber}`;
  pdf.font(fontFor(number, 'bold')).fontSize(11).text(number);
  const reference = `${invoice.labels.transaction} ${invoice.transactionId}`;
  pdf.font(fontFor(reference, 'regular')).fontSize(9).fillColor('#555555').text(reference);
  pdf.fillColor('#000000').moveDown(0.5);
  for (const [label, value] of invoice.facts) {
    pdf
      .font(fontFor(label, 'bold'))
      .fontSize(10)
      .text(`${label}: `, { continued: true })
      .font(fontFor(value, 'regular'))
      .text(value);
  }

  pdf.moveDown(1);
  const partiesTop = pdf.y;
  const half = CONTENT_WIDTH / 2 - 10;
  drawParty(pdf, invoice.labels.from, invoice.seller.name, invoice.seller.lines, MARGIN, partiesTop, half);
  const sellerBottom = pdf.y;
  drawParty(
    pdf,
    invoice.labels.billTo,
    invoice.customer.name,
    invoice.customer.lines,
    MARGIN + half + 20,
    partiesTop,
    half,
  );
  pdf.y = Math.max(sellerBottom, pdf.y) + 20;

  drawRow(
    pdf,
    COLUMNS.map((column) => invoice.labels[column.key]),
    'bold',
  );
  pdf
    .moveTo(MARGIN, pdf.y)
    .lineTo(MARGIN + CONTENT_WIDTH, pdf.y)
    .strokeColor('#999999')
    .stroke();
  pdf.moveDown(0.3);
  for (const line of invoice.lines) {
    drawRow(
      pdf,
      COLUMNS.map((column) => line[column.key]),
      'regular',
    );
  }
  pdf
    .moveTo(MARGIN, pdf.y)
    .lineTo(MARGIN + CONTENT_WIDTH, pdf.y)
    .stroke();
  pdf.moveDown(0.5);

  const labelX = MARGIN + CONTENT_WIDTH - 260;
  for (const row of invoice.summary) {
    const y = pdf.y;
    const weight = row.emphasis ? 'bold' : 'regular';
    pdf.font(fontFor(row.label, weight)).fontSize(10).text(row.label, labelX, y, { width: 140 });
    pdf.font(fontFor(row.amount, weight));
    fitOnOneLine(pdf, row.amount, labelX + 140, y, 120, 10);
  }
  if (invoice.notes.length > 0) {
    pdf.moveDown(1);
    for (const note of invoice.notes) {
      pdf.font(fontFor(note, 'regular')).fontSize(9).text(note, MARGIN, pdf.y, { width: CONTENT_WIDTH });
    }
  }
  pdf.end();
  return done;
}

function drawParty(
  pdf: PDFKit.PDFDocument,
  heading: string,
  name: string,
  lines: readonly string[],
  x: number,
  y: number,
  width: number,
): void {
  const title = heading.toUpperCase();
  pdf.font(fontFor(title, 'bold')).fontSize(9).fillColor('#555555').text(title, x, y, { width });
  pdf.fillColor('#000000').font(fontFor(name, 'bold')).fontSize(11).text(name, x, pdf.y, { width });
  for (const line of lines) pdf.font(fontFor(line, 'regular')).fontSize(10).text(line, x, pdf.y, { width });
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

function drawRow(pdf: PDFKit.PDFDocument, cells: readonly string[], weight: Weight): void {
  if (pdf.y > 760) pdf.addPage();
  const y = pdf.y;
  let x = MARGIN;
  let bottom = y + pdf.font(fontFor('0', weight)).fontSize(TABLE_FONT_SIZE).currentLineHeight(true);
  cells.forEach((cell, index) => {
    const column = COLUMNS[index];
    if (!column) return;
    pdf.font(fontFor(cell, weight));
    if (column.align === 'left') {
      pdf.fontSize(TABLE_FONT_SIZE).text(cell, x, y, { width: column.width - 4 });
      bottom = Math.max(bottom, pdf.y);
    } else {
      fitOnOneLine(pdf, cell, x, y, column.width - 4, TABLE_FONT_SIZE);
    }
    x += column.width;
  });
  pdf.x = MARGIN;
  pdf.y = bottom + 4;
}
