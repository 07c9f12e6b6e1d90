/**
 * @module
 * Which product an offer is of, so offers of one product across retailers are grouped (a page shows different
 * products, each at its best price), and whether a listing is an accessory for another product (ranked after
 * the product itself unless the shopper asks for the accessory).
 */
import { foldText, searchTextOf, wordsOf } from './search-text.js';

// Sellers append the condition to titles ("- Used, Good Condition", "(Renewed)"); it does not make another product.
const CONDITION_NOTE = /\s+-\s+(?:used|brand new|new|refurbished|pre-?owned|open box)\b.*$/i;
const CONDITION_BRACKET = /\((?:renewed|refurbished|used|pre-?owned)\)/gi;

/** The title without the seller's condition note. */
export function baseTitle(title: string): string {
  return title.replace(CONDITION_NOTE, '').replace(CONDITION_BRACKET, '').replace(/\s+/g, ' ').trim();
}

/** The identity of a product: its GTIN, else brand and MPN, else its normalised base title. */
export function productKeyOf(item: {
  readonly title: string;
  readonly brand: string;
  readonly gtin?: string | undefined;
  readonly mpn?: string | undefined;
}): string {
  const gtin = item.gtin?.replace(/\D/g, '').replace(/^0+/, '');
  if (gtin !== undefined && gtin.length >= 7) return `gtin:${gtin}`;
  const mpn = item.mpn === undefined ? '' : searchTextOf(item.mpn);
  if (mpn !== '') return `mpn:${searchTextOf(item.brand)}:${mpn}`;
  return `title:${searchTextOf(baseTitle(item.title))}`;
}

/** Words that make a listing something for another product, not the product. */
export const ACCESSORY_WORDS: ReadonlySet<string> = new Set([
  'controller',
  'controllers',
  'gamepad',
  'case',
  'cases',
  'cover',
  'covers',
  'charger',
  'chargers',
  'cable',
  'cables',
  'strap',
  'straps',
  'protector',
  'protectors',
  'adapter',
  'adaptor',
  'dock',
  'mount',
  'stand',
  'skin',
  'skins',
  'sleeve',
  'bag',
  'remote',
  'replacement',
  'refill',
  'refills',
  'filter',
  'filters',
  'accessory',
  'accessories',
]);

const ACCESSORY_CATEGORIES = new Set(['accessories', 'games']);

/** True for listings that are accessories, games or parts for another product. */
export function isAccessory(title: string, category: string): boolean {
  const leaf = category.split('>').pop()?.trim().toLowerCase() ?? '';
  if (ACCESSORY_CATEGORIES.has(leaf)) return true;
  // "AirPods with Charging Case" is the product: only the words before "with" say what it is.
  const [named = ''] = foldText(baseTitle(title)).split(/\s(?:with|incl|including|\+)\s/);
  return wordsOf(named).some((word) => ACCESSORY_WORDS.has(word));
}

/** True when the shopper's own terms name an accessory ("ps5 controller"): nothing is demoted then. */
export function asksForAccessory(terms: readonly string[]): boolean {
  return terms.some((term) => wordsOf(foldText(term)).some((word) => ACCESSORY_WORDS.has(word) || word === 'games'));
}
