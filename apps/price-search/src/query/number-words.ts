/**
 * @module
 * Written amounts ("fifty", "two hundred and fifty", "a grand") read as numbers. Only used where the grammar
 * already expects an amount, so "xbox one" stays a product name.
 */

const SMALL: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};

const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/** A written amount found at a token position. */
export interface WordNumber {
  readonly value: number;
  /** Index just past the last token used. */
  readonly end: number;
}

/**
 * Reads the longest written number starting at `start` in `words`.
 * "and" is accepted only after "hundred"/"thousand" ("two hundred and fifty"), never between two tens,
 * so "between twenty and forty" stays a range.
 * @example readWordNumber(['two', 'hundred', 'and', 'fifty', 'quid'], 0) // { value: 250, end: 4 }
 */
export function readWordNumber(words: readonly string[], start: number): WordNumber | undefined {
  let index = start;
  let total = 0;
  let current = 0;
  let sawDigitWord = false;
  let lastWasScale = false;
  let afterAnd = false;

  if ((words[index] === 'a' || words[index] === 'an') && isScale(words[index + 1])) {
    current = 1;
    index += 1;
    sawDigitWord = true;
  }

  while (index < words.length) {
    const word = words[index] ?? '';
    if (word in TENS) {
      current += TENS[word] ?? 0;
      const next = words[index + 1];
      if (next !== undefined && next in SMALL && (SMALL[next] ?? 10) < 10 && (SMALL[next] ?? 0) > 0) {
        current += SMALL[next] ?? 0;
        index += 1;
      }
    } else if (word in SMALL) {
      current += SMALL[word] ?? 0;
    } else if (word === 'hundred' && sawDigitWord && !afterAnd) {
      current = (current === 0 ? 1 : current) * 100;
      lastWasScale = true;
      index += 1;
      continue;
    } else if ((word === 'thousand' || word === 'grand') && sawDigitWord && !afterAnd) {
      total += (current === 0 ? 1 : current) * 1000;
      current = 0;
      lastWasScale = true;
      index += 1;
      continue;
    } else if (word === 'and' && lastWasScale && !afterAnd && isSmallOrTens(words[index + 1])) {
      afterAnd = true;
      lastWasScale = false;
      index += 1;
      continue;
    } else {
      break;
    }
    sawDigitWord = true;
    lastWasScale = false;
    index += 1;
    if (afterAnd) break;
    if (!isScale(words[index])) break;
  }

  return sawDigitWord ? { value: total + current, end: index } : undefined;
}

function isScale(word: string | undefined): boolean {
  return word === 'hundred' || word === 'thousand' || word === 'grand';
}

function isSmallOrTens(word: string | undefined): boolean {
  return word !== undefined && (word in SMALL || word in TENS);
}
