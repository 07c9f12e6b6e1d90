/**
 * @module
 * The one normalisation shared by the catalogue index and the query side, so both sides spell a product the
 * same way: Unicode compatibility forms folded ("ＰＳ５" is "ps5"), accents removed ("pokémon" is "pokemon"),
 * lower case, and model codes split where letters meet digits ("Flip6" and "flip 6" are both "flip 6",
 * "S24Ultra" is "s 24 ultra", "WH-1000XM5" is "wh 1000xm 5"). Short letter suffixes stay on their digits
 * ("256gb", "3s", "8a"), so "quest 3" never matches a Quest 3S and "pixel 8" never a Pixel 8a.
 */

// A character other than printable ASCII (space to "~"). Text without one is left as it is by both normal forms and
// has no combining mark, so folding it only lowers its case (most titles, and every indexed title the ranking rule
// reads).
const NOT_PRINTABLE_ASCII = /[^ -~]/;

/** NFKC, accents removed, lower case. */
export function foldText(text: string): string {
  if (!NOT_PRINTABLE_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The letter-and-digit words of already folded text; every other character separates words. */
export function wordsOf(folded: string): string[] {
  return folded.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

// A digit run followed by three or more letters is split ("24ultra"); fewer letters are a unit or a variant
// suffix and stay ("256gb", "3s", "1000xm").
const LETTER_THEN_DIGIT = /(?<=\p{L})(?=\p{N})/u;
const DIGIT_THEN_WORD = /(?<=\p{N})(?=\p{L}{3,})/u;

/** Splits one folded word into the index's units. */
export function splitCode(word: string): string[] {
  return word.split(LETTER_THEN_DIGIT).flatMap((part) => part.split(DIGIT_THEN_WORD));
}

/** The indexed form of a title (or brand, category): folded words with model codes split. */
export function searchTextOf(text: string): string {
  return wordsOf(foldText(text)).flatMap(splitCode).join(' ');
}

/**
 * Other spellings of a title's words, indexed beside it: words joined across an apostrophe, hyphen or dot
 * ("De'Longhi" → "delonghi", "WH-1000XM5" → "wh1000xm5", "Oral-B" → "oralb") and codes before splitting
 * ("flip6"), so a shopper who writes them run together still matches.
 */
export function aliasesOf(text: string): string {
  const folded = foldText(text);
  const aliases = new Set<string>();
  for (const match of folded.matchAll(/[\p{L}\p{N}]+(?:['\u2019.-][\p{L}\p{N}]+)+/gu)) {
    aliases.add(match[0].replace(/['\u2019.-]/g, ''));
  }
  for (const word of wordsOf(folded)) if (splitCode(word).length > 1) aliases.add(word);
  return [...aliases].join(' ');
}

/** The FTS5 phrase for a query term, or undefined when it has no letters or digits. */
export function phraseOf(term: string): string | undefined {
  const units = wordsOf(foldText(term)).flatMap(splitCode);
  return units.length === 0 ? undefined : `"${units.join(' ')}"`;
}

/**
 * The run-together spelling of a term written with a hyphen, apostrophe or dot ("wh-1000xm5" → "wh1000xm5"), or
 * of a code the index splits ("flip6"); undefined for other terms.
 */
export function joinedOf(term: string): string | undefined {
  const folded = foldText(term);
  if (/^[\p{L}\p{N}]+(?:['\u2019.-][\p{L}\p{N}]+)+$/u.test(folded)) return folded.replace(/['\u2019.-]/g, '');
  if (/^[\p{L}\p{N}]+$/u.test(folded) && splitCode(folded).length > 1) return folded;
  return undefined;
}
