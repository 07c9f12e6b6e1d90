/**
 * @module
 * Reads the text of a PDF with PDF.js, a real reader: a file it cannot open is not a valid PDF.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const parts: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  const pages = document.numPages;
  await document.destroy();
  return { pages, text: parts.join(' ') };
}

/** A node of a page's structure tree as PDF.js reads it: a role with children, or marked content. */
export interface StructNode {
  readonly role?: string;
  readonly alt?: string;
  readonly lang?: string;
  readonly children?: readonly StructNode[];
  readonly type?: string;
}

/** What a screen reader gets: each page's structure tree, the document's marking, language and title. */
export async function pdfStructure(bytes: Uint8Array): Promise<{
  readonly trees: readonly (StructNode | null)[];
  readonly marked: boolean;
  readonly info: Record<string, unknown>;
  readonly metadataXml: string;
}> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const trees: (StructNode | null)[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    trees.push((await page.getStructTree()) as StructNode | null);
  }
  const markInfo = (await document.getMarkInfo()) as { Marked?: boolean } | null;
  const metadata = await document.getMetadata();
  const metadataXml = (metadata.metadata as { getRaw?: () => string } | null)?.getRaw?.() ?? '';
  await document.destroy();
  return { trees, marked: markInfo?.Marked === true, info: metadata.info as Record<string, unknown>, metadataXml };
}

/** Every role in a tree, depth first, in reading order. */
export function rolesOf(node: StructNode | null): string[] {
  if (!node) return [];
  return [...(node.role ? [node.role] : []), ...(node.children ?? []).flatMap((child) => rolesOf(child))];
}
