/**
 * @module
 * The catalogue's words and how many listings use each, for typo tolerance. A query word the index does not
 * know is replaced by the most common catalogue word within a small edit distance (transpositions count as
 * one edit: "iphnoe" is one edit from "iphone"), split into two catalogue words ("airfryer"), or joined with
 * the next word ("quiet comfort"). Words with digits are model codes and are never corrected: "iphone 15"
 * must not become "iphone 16".
 */

// Shorter words have too many neighbours ("sofa" is one edit from "soda"): they are left alone.
const MIN_CORRECTABLE_LENGTH = 5;
const LONG_WORD_LENGTH = 8;
// "microsd" → "microsdxc": a completion adds a few letters, never a second word.
const MAX_COMPLETION_LETTERS = 3;
// "xm4" → "wh1000xm4": the pieces a shopper leaves off the front of a code, bounded so the scan stays short.
const MAX_CODE_PREFIX = 8;

/** Words of the catalogue with their listing counts. */
export class Vocabulary {
  readonly #counts: ReadonlyMap<string, number>;
  readonly #byLength = new Map<number, string[]>();

  constructor(counts: ReadonlyMap<string, number>) {
    this.#counts = counts;
    for (const word of counts.keys()) {
      const list = this.#byLength.get(word.length) ?? [];
      list.push(word);
      this.#byLength.set(word.length, list);
    }
  }

  /** Builds the vocabulary from the words of each listing (each word counted once per listing). */
  static fromDocuments(documents: Iterable<readonly string[]>): Vocabulary {
    const counts = new Map<string, number>();
    for (const words of documents) {
      for (const word of new Set(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    return new Vocabulary(counts);
  }

  has(word: string): boolean {
    return this.#counts.has(word);
  }

  /** The best correction of a misspelt word, or undefined (digits, too short, nothing close). */
  correct(word: string): string | undefined {
    if (word.length < MIN_CORRECTABLE_LENGTH || /\P{L}/u.test(word)) return undefined;
    const maxDistance = word.length >= LONG_WORD_LENGTH ? 2 : 1;
    let best: { word: string; distance: number; count: number } | undefined;
    for (let length = word.length - maxDistance; length <= word.length + maxDistance; length += 1) {
      for (const candidate of this.#byLength.get(length) ?? []) {
        const distance = boundedEditDistance(word, candidate, maxDistance);
        if (distance > maxDistance) continue;
        const count = this.#counts.get(candidate) ?? 0;
        if (best === undefined || distance < best.distance || (distance === best.distance && count > best.count)) {
          best = { word: candidate, distance, count };
        }
      }
    }
    return best?.word;
  }

  /**
   * The most common catalogue word that begins with `word` and is at most three letters longer, for a shopper's
   * shortening of a catalogue word ("microsd" for "microSDXC"); undefined for short words, words with digits
   * (model codes) and words the catalogue already has.
   */
  complete(word: string): string | undefined {
    if (word.length < MIN_CORRECTABLE_LENGTH || /\P{L}/u.test(word) || this.#counts.has(word)) return undefined;
    let best: { word: string; count: number } | undefined;
    for (let length = word.length + 1; length <= word.length + MAX_COMPLETION_LETTERS; length += 1) {
      for (const candidate of this.#byLength.get(length) ?? []) {
        if (!candidate.startsWith(word)) continue;
        const count = this.#counts.get(candidate) ?? 0;
        if (best === undefined || count > best.count) best = { word: candidate, count };
      }
    }
    return best?.word;
  }

  /**
   * The catalogue's model code that a code written without its last letters begins ("af400" → "af400uk", the
   * retailer's suffix; "dcd796" → "dcd796p2", the kit): a code of letters and digits, at least five long, that
   * the catalogue does not have, completed by at most three characters. The most common wins.
   */
  completeCode(code: string): string | undefined {
    if (code.length < MIN_CORRECTABLE_LENGTH || !/^(?=.*\p{L})(?=.*\p{N})[\p{L}\p{N}]+$/u.test(code)) return undefined;
    if (this.#counts.has(code)) return undefined;
    let best: { word: string; count: number } | undefined;
    for (let length = code.length + 1; length <= code.length + MAX_COMPLETION_LETTERS; length += 1) {
      for (const candidate of this.#byLength.get(length) ?? []) {
        if (!candidate.startsWith(code)) continue;
        const count = this.#counts.get(candidate) ?? 0;
        if (best === undefined || count > best.count) best = { word: candidate, count };
      }
    }
    return best?.word;
  }

  /**
   * The catalogue's model code that ends with a code written without its first pieces ("xm4" of "WH-1000XM4",
   * ADR 0239): a code of letters and digits, at least three long, that the catalogue does not have, and whose
   * catalogue codes ending with it are all spellings of one code (each a suffix of the longest: "1000xm4",
   * "wh1000xm4"). The shortest such spelling; undefined when two different codes end with it ("xm5" of the
   * WH-1000XM5 and the WF-1000XM5): which one is meant is not known, and answering one would be a guess.
   */
  codeEnding(code: string): string | undefined {
    if (code.length < 3 || !/^(?=.*\p{L})(?=.*\p{N})[\p{L}\p{N}]+$/u.test(code) || this.#counts.has(code)) {
      return undefined;
    }
    const endings: string[] = [];
    for (const [length, words] of this.#byLength) {
      if (length < code.length + 2 || length > code.length + MAX_CODE_PREFIX) continue;
      for (const word of words) if (word.endsWith(code) && /\p{N}/u.test(word)) endings.push(word);
    }
    if (endings.length === 0) return undefined;
    endings.sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    const longest = endings[0] as string;
    if (!endings.every((word) => longest.endsWith(word))) return undefined;
    return endings[endings.length - 1];
  }

  /**
   * Catalogue words one edit from a short word (3 or 4 letters), most common first. Too many for a blind
   * choice: the caller keeps the first that fits the rest of the query.
   */
  nearShortWords(word: string): string[] {
    if (word.length < 3 || word.length >= MIN_CORRECTABLE_LENGTH || /\P{L}/u.test(word)) return [];
    const found: string[] = [];
    for (let length = word.length - 1; length <= word.length + 1; length += 1) {
      for (const candidate of this.#byLength.get(length) ?? []) {
        if (candidate !== word && boundedEditDistance(word, candidate, 1) <= 1) found.push(candidate);
      }
    }
    return found.sort((a, b) => (this.#counts.get(b) ?? 0) - (this.#counts.get(a) ?? 0));
  }

  /** Two catalogue words that make up `word` ("airfryer" → ["air", "fryer"]), the most common split first. */
  split(word: string): [string, string] | undefined {
    if (/\P{L}/u.test(word)) return undefined;
    let best: { parts: [string, string]; count: number } | undefined;
    for (let index = 3; index <= word.length - 3; index += 1) {
      const left = word.slice(0, index);
      const right = word.slice(index);
      const count = Math.min(this.#counts.get(left) ?? 0, this.#counts.get(right) ?? 0);
      if (count > 0 && (best === undefined || count > best.count)) best = { parts: [left, right], count };
    }
    return best?.parts;
  }
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Every string one edit (deletion, transposition, substitution, insertion) from `word`. */
export function oneEditAway(word: string): string[] {
  const found = new Set<string>();
  for (let index = 0; index <= word.length; index += 1) {
    const head = word.slice(0, index);
    const tail = word.slice(index);
    if (tail !== '') found.add(head + tail.slice(1));
    if (tail.length > 1) found.add(head + (tail[1] ?? '') + (tail[0] ?? '') + tail.slice(2));
    for (const letter of ALPHABET) {
      if (tail !== '') found.add(head + letter + tail.slice(1));
      found.add(head + letter + tail);
    }
  }
  found.delete(word);
  return [...found];
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), giving up as soon as every
 * path exceeds `max` (then any value above `max` is returned).
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = new Array<number>(b.length + 1).fill(0);
    current[0] = i;
    let rowMin = current[0];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}
