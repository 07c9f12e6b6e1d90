/**
 * @module
 * Query understanding: from "cheapest used thinkpad t480 under £300" to search terms ["thinkpad", "t480"],
 * a ceiling of 30000 pence, condition "used" and a price-ascending sort. Pure: no I/O, no clock.
 */
import type { Condition } from '../listing/listing.js';
import type { NetworkId } from '../listing/networks.js';
import type { Pence } from '../money/pence.js';
import { type Budget, extractBudget } from './extract-budget.js';
import { normaliseQuery, type QueryToken, tokenise } from './query-tokens.js';

/** How results should be ordered: by relevance, or cheapest first when the user asks for it. */
export type SortIntent = 'relevance' | 'price_asc';

/** What a natural-language query asks for. */
export interface ParsedQuery {
  /** Search terms, lower case, without budget, condition, sort and filler words. */
  readonly terms: readonly string[];
  /** The terms joined by spaces: what is sent to a marketplace's keyword search. */
  readonly text: string;
  readonly budget: Budget;
  /** Undefined when the query names no condition, or names several ("new or used"). */
  readonly condition: Condition | undefined;
  readonly sort: SortIntent;
  /** Retailers named in the text ("at currys", "argos air fryer"); undefined when none is named. */
  readonly networks: readonly NetworkId[] | undefined;
  /**
   * For a comparison ("iphone 15 vs pixel 9", "xbox series x or ps5"): each product's terms, searched apart and
   * answered together; undefined otherwise. `terms` then holds every side's terms.
   */
  readonly compared?: readonly (readonly string[])[];
}

type Phrase = readonly string[];
const phrases = (...list: string[]): readonly Phrase[] =>
  list.map((phrase) => phrase.split(' ')).sort((a, b) => b.length - a.length);

// Checked in this order, so "certified pre owned" is refurbished before "pre owned" is used, and "like new"
// (eBay's 2750, a used grade) is used before "new" is new.
const CONDITION_PHRASES: ReadonlyArray<readonly [Condition, readonly Phrase[]]> = [
  [
    'refurbished',
    phrases(
      'refurbished',
      'refurb',
      'refurbed',
      'refurbs',
      'renewed',
      'reconditioned',
      'remanufactured',
      'certified pre owned',
      'certified preowned',
    ),
  ],
  [
    'used',
    phrases(
      'used',
      'second hand',
      'secondhand',
      'pre owned',
      'preowned',
      'pre loved',
      'preloved',
      'like new',
      'ex display',
    ),
  ],
  ['new', phrases('brand new', 'new', 'sealed', 'unopened', 'bnib', 'bnwt', 'factory sealed', 'boxed new')],
];

// "new" is part of these names, not a condition: "new balance trainers", "new look dress".
const NEW_IN_NAMES = new Set(['balance', 'look', 'era', 'york', 'yorker', 'zealand', 'forest', 'world', 'rock']);

// How shoppers name the marketplaces. A name counts as a retailer after "at", "on", "from"... or at either end
// of the query; "amazon" before one of Amazon's own products ("amazon echo dot") is the brand.
const RETAILER_PHRASES: ReadonlyArray<readonly [NetworkId, readonly Phrase[]]> = [
  ['amazon_uk', phrases('amazon', 'amazon uk', 'amazon.co.uk', 'amzn')],
  ['argos_uk', phrases('argos', 'argos uk', 'argos.co.uk')],
  ['currys_uk', phrases('currys', "curry's", 'currys pc world', 'pc world', 'currys.co.uk')],
  ['ebay_uk', phrases('ebay', 'ebay uk', 'ebay.co.uk')],
];
const RETAILER_PREPOSITIONS = new Set(['at', 'on', 'from', 'in', 'via', 'through', 'using', 'or', 'and']);
const AMAZON_PRODUCTS = new Set(['echo', 'kindle', 'fire', 'alexa', 'basics', 'eero', 'luna']);

const CHEAPEST_PHRASES = phrases(
  'cheapest',
  'cheap',
  'cheaper',
  'cheapo',
  'lowest price',
  'lowest prices',
  'lowest priced',
  'lowest cost',
  'least expensive',
  'inexpensive',
  'low cost',
  'low price',
  'budget',
  'bargain',
  'bargains',
  'best price',
  'best prices',
  'best deal',
  'best deals',
  'affordable',
  'price low to high',
  'sorted by price',
  'sort by price',
);

// Words that say who a product is for or what the occasion is, and the words of a question: no product meaning
// (issue 38). Not "fan", "baby", "boy" or "girl" (a fan heater, a baby monitor, Game Boy, Barbie's "girl").
const CONTEXT_WORDS = `how much many does do sells sell sold selling stock stocks stocked anywhere anyone somewhere
  have has got gift gifts present presents pressie prezzie birthday christmas xmas anniversary retirement wedding
  graduation fathers father's mothers mother's valentines valentine's day stocking stuffer filler secret santa idea
  ideas mum mom mam dad father mother wife husband son daughter girlfriend boyfriend partner nephew niece grandad
  grandpa grandma granny nan nana grandson granddaughter sister brother friend friends mate colleague boss teenager
  teenagers teen teens teenage toddler aged age who who's whos likes like loves love enjoys
  into someone somebody person people simple isn't there's
  uncle aunt auntie cousin grandparents grandparent granddad grandfather grandmother grandchild grandchildren
  grandkids parents parent family hubby fiance fiancé fiancee fiancée stepson stepdaughter godson goddaughter
  godchild flatmate housemate roommate neighbour neighbor teacher coworker workmate bestie bff him her his hers she
  he they them their theirs
  housewarming engagement christening leaving thank thanks thankyou congratulations congrats easter eid diwali
  hanukkah chanukah mothersday fathersday
  summer winter autumn holiday holidays weekend weekends
  keen avid budding aspiring
  tell know wondering wonder worth still currently anyone's going better worse way ways`.split(/\s+/);

// Words that carry no product meaning in a shopping query. "one", "under", "max" and "look" are not here:
// they are parts of names ("xbox one", "under armour", "pro max", "new look").
const FILLER = new Set(
  `a an the for with without and or in on of to at by from into me my i im i'm i'd id we us our want wanted
  need needs needed looking find finding found show showing get getting buy buying purchase search searching some
  any please pls what whats what's which who is are was be where can could would should will do does did you your
  uk online shop shops shopping store stores price prices priced pricing deal deals sale sales stock available
  availability good best top great decent nice newest latest it its that this those these there here than less
  more pounds pound quid gbp £ something thing things item items product products listing listings cost costs
  costing spend spending hi hello hey help recommend recommendation suggest suggestions compare comparison
  around about roughly approx approximately ideally preferably really very just also now today currently right
  delivery delivered shipping free fast quick uk's britain british england`
    .split(/\s+/)
    .concat(CONTEXT_WORDS),
);

// What shoppers say they want to do, read as the product that does it (issue 38): "something to make coffee"
// is a coffee machine. Applied to the normalised text before it is split into words; each maps to words the
// catalogue's titles use (the synonyms in match-expression.ts widen some of them).
const INTENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /\b(?:make|making|brew|brewing) (?:a |my |the |some )?coffees?\b|\bcoffee (?:lovers?|makers?|drinkers?)\b/g,
    'coffee machine',
  ],
  [/\b(?:make|making) (?:a |some )?(?:smoothies?|shakes?|soups?)\b/g, 'blender'],
  [/\bclean(?:ing)? (?:my |the |our )?carpets?\b/g, 'carpet cleaner'],
  [/\bclean(?:ing)? (?:my |the |our )?windows?\b/g, 'window vacuum'],
  [/\bclean(?:ing)? (?:my |the |our )?(?:floors?|house|home|flat)\b/g, 'vacuum'],
  [/\b(?:cut|cutting|mow|mowing) (?:my |the |our )?(?:grass|lawn)\b/g, 'lawn mower'],
  [/\bdry(?:ing)? (?:my |your |her |his )?hair\b/g, 'hair dryer'],
  [/\bstraighten(?:ing)? (?:my |your |her |his )?hair\b/g, 'hair straightener'],
  [
    /\bkeep(?:ing)? (?:my |the |our |a )?(?:house|home|room|bedroom|flat|office)? ?cool\b|\bcool (?:my |the )?(?:room|bedroom|house)\b/g,
    'air conditioner',
  ],
  [
    /\bwatch(?:ing)? (?:netflix|youtube|iplayer|films|movies|streaming)\b(?: on (?:my |the |a |our )?(?:tv|telly))?/g,
    'streaming stick',
  ],
  [/\btrack(?:ing)? (?:my |your |her |his )?(?:steps|fitness|sleep|workouts?)\b/g, 'fitness tracker'],
  [/\b(?:start(?:ing)? )?vlogging\b|\bvloggers?\b/g, 'vlog camera'],
  [/\b(?:make|making|cook|cooking) (?:a |some )?pizzas?\b/g, 'pizza oven'],
  [/\b(?:loves?|likes?|enjoys?|for|into) baking\b|\bbakers?\b/g, 'stand mixer'],
  [
    /\bcook(?:ing)? (?:rice|stews?|curr(?:y|ies)|chilli)(?: and (?:rice|stews?|curr(?:y|ies)|chilli))?\b|\bslow cook(?:ing)?\b/g,
    'pressure cooker',
  ],
  [/\b(?:boil|boiling) (?:the )?water\b|\bmake (?:a )?(?:cup of )?tea\b/g, 'kettle'],
  [/\bmake (?:some )?toast\b/g, 'toaster'],
  [/\biron(?:ing)? (?:my |the )?(?:clothes|shirts)\b/g, 'steam iron'],
  [/\b(?:a |for a )?runners?\b|\bfor running\b/g, 'running'],
  [
    /\b(?:listen(?:ing)? to|play(?:ing)?) (?:some |my )?music\b|\bmusic lovers?\b|\b(?:likes?|loves?|into) music\b/g,
    'speaker',
  ],
  // One or two per kind of product the demo catalogue sells that a shopper names by what it does (ADR 0239).
  [/\bread(?:ing)? (?:my |some )?(?:e-?)?(?:books?|novels?)\b|\bbook ?worms?\b|\bavid readers?\b/g, 'ereader'],
  [
    /\b(?:make|making) (?:my own |our own |some )?(?:fizzy|sparkling|carbonated) water\b|\bfizzy water\b/g,
    'sparkling water',
  ],
  [
    /\bsee(?:ing)? who(?:'s| is)? (?:at|is at) (?:the |my |our )?(?:front )?door\b|\banswer(?:ing)? the door\b/g,
    'video doorbell',
  ],
  [/\b(?:brush|brushing|clean|cleaning) (?:my |your |his |her |the kids' )?teeth\b/g, 'electric toothbrush'],
  [/\bshav(?:e|ing)(?: with)?\b|\btrim(?:ming)? (?:my |his )?beard\b/g, 'shaver'],
  [
    /\b(?:get|getting|keep|keeping|stay|staying) (?:fit|in shape)\b|\bwork(?:ing)? ?out at home\b|\bhome gym\b|\bexercise at home\b/g,
    'home gym',
  ],
  [
    /\bclean(?:ing)? (?:my |the |our )?(?:patio|driveway|decking|deck|car|path|paving|garden furniture)\b/g,
    'pressure washer',
  ],
  [/\b(?:get(?:ting)? rid of |stop(?:ping)? )?(?:the )?(?:damp|condensation|mould|mold)\b/g, 'dehumidifier'],
  [/\b(?:allerg(?:y|ies)|hay ?fever|pollen|clean(?:er)? air|purify (?:the )?air)\b/g, 'air purifier'],
  [
    /\b(?:grill(?:ing)?|barbecu(?:e|ing)|bbq) (?:some )?(?:burgers?|sausages?|steaks?|food|meat|outside|outdoors)\b|\bcook(?:ing)? (?:outside|outdoors)\b/g,
    'barbecue',
  ],
  [/\bprint(?:ing)? (?:my |some |the )?(?:documents?|photos?|homework|tickets?|labels?)\b/g, 'printer'],
  [/\bphotography\b|\bphotographers?\b|\btak(?:e|ing) (?:better |good |nice )?(?:photos|pictures|pics)\b/g, 'camera'],
  [/\baerial (?:photos|footage|videos?|shots)\b/g, 'drone'],
  [/\bcyclists?\b|\b(?:road |mountain )?bik(?:er|ers)\b/g, 'cycling'],
  [/\bgamers?\b/g, 'gaming'],
  [/\b(?:curl|curling|style|styling) (?:my |your |her |his )?hair\b/g, 'hair styler'],
  [/\b(?:sore|aching|tight) muscles\b|\bmuscle (?:recovery|massage)\b/g, 'massage gun'],
  [/\b(?:cook|make|making) (?:healthy |healthier )?(?:chips|fries)\b|\bcook(?:ing)? without oil\b/g, 'air fryer'],
  [/\bcontrol (?:my |the |our )?heating\b/g, 'smart thermostat'],
  [/\b(?:better|faster|stronger) (?:wi-?fi|wifi|internet)\b|\bwi-?fi (?:dead spots?|signal)\b/g, 'wi-fi'],
  [/\bkeep an eye on (?:the |my |our )?(?:house|home|pets?|dog|cat)\b/g, 'security camera'],
];

// Phrases of a question whose words are product words elsewhere ("set", "back", "check", "stock", "rate"):
// removed whole before the words are split (issue 38).
const QUESTION_PHRASES =
  /\b(?:(?:would|will|might|does|do) (?:it |that |one )?)?set (?:me|you|us|him|her|them) back\b|\bgoing rate\b|\bprice check(?:s|ing)?\b|\bin stock\b|\b(?:out of|back in) stock\b|\b(?:can|could) (?:you|u) (?:find|get|show|tell) (?:me|us)\b|\b(?:is|are) (?:it|they|there) (?:any )?good\b|\bwhat (?:do|would) you (?:recommend|suggest)\b/g;

// Words that put two products side by side: "iphone 15 vs pixel 9", "xbox series x or ps5".
const COMPARISON_WORDS = new Set(['vs', 'vs.', 'versus', 'or', 'against']);

/**
 * Reads a natural-language product query.
 * @example parseQuery('cheapest used thinkpad t480 under £300')
 * // { terms: ['thinkpad', 't480'], text: 'thinkpad t480', budget: { minPence: undefined, maxPence: 30000 },
 * //   condition: 'used', sort: 'price_asc' }
 */
export function parseQuery(raw: string): ParsedQuery {
  const tokens = tokenise(readShoppersText(normaliseQuery(raw)));
  const { budget, consumed } = extractBudget(tokens);
  const used = [...consumed];

  const conditions = new Set<Condition>();
  for (const [condition, list] of CONDITION_PHRASES) {
    consumePhrases(tokens, used, list, (start, end) => {
      if (condition === 'new' && end - start === 1 && NEW_IN_NAMES.has(nextUnused(tokens, used, end) ?? '')) {
        return false;
      }
      conditions.add(condition);
      return true;
    });
  }

  let sort: SortIntent = 'relevance';
  consumePhrases(tokens, used, CHEAPEST_PHRASES, () => {
    sort = 'price_asc';
    return true;
  });

  const networks = new Set<NetworkId>();
  for (const [network, list] of RETAILER_PHRASES) {
    consumePhrases(tokens, used, list, (start, end) => {
      const before = previousUnused(tokens, used, start);
      const after = nextUnused(tokens, used, end);
      if (network === 'amazon_uk' && AMAZON_PRODUCTS.has(after ?? '')) return false;
      const prepositioned = before !== undefined && RETAILER_PREPOSITIONS.has(tokens[before]?.text ?? '');
      if (!prepositioned && before !== undefined && after !== undefined) return false;
      if (prepositioned && before !== undefined) used[before] = true;
      networks.add(network);
      return true;
    });
  }

  const compared = comparedTerms(tokens, used);
  const terms = compared === undefined ? buildTerms(tokens, used) : [...new Set(compared.flat())];
  const [onlyCondition] = conditions;
  return {
    terms,
    text: terms.join(' '),
    budget,
    condition: conditions.size === 1 ? onlyCondition : undefined,
    sort,
    networks: networks.size === 0 ? undefined : [...networks],
    ...(compared === undefined ? {} : { compared }),
  };
}

/**
 * The shopper's wording read before the words are split (issue 38): units glued to numbers ("48in", `65"`,
 * "9.5 litre") as the titles write them ("48 inch", "9.5l"), an age ("for a 6 year old") removed so that its
 * number is not read as a model, and intents ("something to make coffee") as the product that does it.
 */
function readShoppersText(text: string): string {
  let read = text
    .replace(/(\d+(?:\.\d+)?)(?:in\b|\s*"|\s*-\s*inch(?:es)?\b|\s*inches\b)/g, '$1 inch ')
    .replace(/(\d+(?:\.\d+)?)\s*(?:litres?|liters?|ltrs?)\b/g, '$1l')
    .replace(/\b\d+\s*-?\s*(?:years?|yrs?)\s*-?\s*olds?\b|\b(?:aged?|ages)\s+\d+(?:\s*(?:-|to)\s*\d+)?\b/g, ' ')
    .replace(/\b\d+(?:st|nd|rd|th)\s+(?:birthday|anniversary)\b/g, ' ')
    .replace(QUESTION_PHRASES, ' ');
  for (const [pattern, product] of INTENTS) read = read.replace(pattern, ` ${product} `);
  return read.replace(/\s+/g, ' ').trim();
}

/**
 * The terms of each side of a comparison ("A vs B", "A or B"), or undefined when the query compares nothing.
 * A one-word side borrows what the other side names: a brand before the other's product words ("ninja or cosori
 * air fryer": ninja air fryer), or a model of the same shape after the other's line ("galaxy s22 vs s21":
 * galaxy s21).
 */
function comparedTerms(tokens: readonly QueryToken[], used: readonly boolean[]): string[][] | undefined {
  const separators = tokens
    .map((token, index) => (!used[index] && COMPARISON_WORDS.has(token.text) ? index : -1))
    .filter((index) => index >= 0);
  if (separators.length === 0) return undefined;
  const sides: string[][] = [];
  let from = 0;
  for (const separator of [...separators, tokens.length]) {
    const mask = tokens.map((_, index) => used[index] === true || index < from || index >= separator);
    sides.push(buildTerms(tokens, mask));
    from = separator + 1;
  }
  const named = sides.filter((side) => side.length > 0);
  if (named.length < 2) return undefined;
  const shape = (term: string): string => term.replace(/\p{N}/gu, '9').replace(/\p{L}/gu, 'a');
  return named.map((side, index) => {
    if (side.length !== 1) return side;
    const [only] = side as [string];
    const next = named[index + 1];
    const previous = named[index - 1];
    if (next !== undefined && next.length > 1 && !/\p{N}/u.test(only)) return [only, ...next.slice(1)];
    const last = previous?.[previous.length - 1];
    if (previous !== undefined && previous.length > 1 && last !== undefined && shape(last) === shape(only)) {
      return [...previous.slice(0, -1), only];
    }
    return side;
  });
}

/**
 * Applies the request's `min_price` and `max_price`: each wins over the same bound found in the text; a bound
 * from the text is kept only while the window stays non-empty.
 */
export function withPriceRange(
  parsed: ParsedQuery,
  minPence: Pence | undefined,
  maxPence: Pence | undefined,
): ParsedQuery {
  const capped = withMaxPrice(parsed, maxPence);
  if (minPence === undefined) return capped;
  const ceiling = capped.budget.maxPence;
  return {
    ...capped,
    budget: { minPence, maxPence: ceiling !== undefined && ceiling >= minPence ? ceiling : undefined },
  };
}

/**
 * Applies the request's `max_price`, which wins over a ceiling found in the text. A floor from the text is kept
 * only while it stays below the new ceiling.
 */
export function withMaxPrice(parsed: ParsedQuery, maxPence: Pence | undefined): ParsedQuery {
  if (maxPence === undefined) return parsed;
  const { minPence } = parsed.budget;
  return {
    ...parsed,
    budget: { maxPence, minPence: minPence !== undefined && minPence <= maxPence ? minPence : undefined },
  };
}

function consumePhrases(
  tokens: readonly QueryToken[],
  used: boolean[],
  list: readonly Phrase[],
  accept: (start: number, end: number) => boolean,
): void {
  for (let index = 0; index < tokens.length; index += 1) {
    if (used[index]) continue;
    for (const phrase of list) {
      const end = matchPhrase(tokens, used, index, phrase);
      if (end === undefined || !accept(index, end)) continue;
      for (let position = index; position < end; position += 1) used[position] = true;
      break;
    }
  }
}

function matchPhrase(
  tokens: readonly QueryToken[],
  used: readonly boolean[],
  start: number,
  phrase: Phrase,
): number | undefined {
  let position = start;
  for (const word of phrase) {
    if (used[position] || tokens[position]?.text !== word) return undefined;
    position += 1;
  }
  return position;
}

function previousUnused(tokens: readonly QueryToken[], used: readonly boolean[], before: number): number | undefined {
  for (let index = before - 1; index >= 0; index -= 1) if (!used[index] && tokens[index]?.kind === 'word') return index;
  return undefined;
}

function nextUnused(tokens: readonly QueryToken[], used: readonly boolean[], from: number): string | undefined {
  for (let index = from; index < tokens.length; index += 1) if (!used[index]) return tokens[index]?.text;
  return undefined;
}

/** A filler word, or the possessive of one ("husband's birthday", "my sons' xmas"). */
function isFiller(word: string): boolean {
  if (FILLER.has(word)) return true;
  const owner = word.endsWith("'s") ? word.slice(0, -2) : word.endsWith("s'") ? word.slice(0, -1) : undefined;
  return owner !== undefined && FILLER.has(owner);
}

/**
 * A single letter written apart after a number ends a model name ("pixel 8 a" is the Pixel 8a, "galaxy s 24 a"):
 * it is kept, not read as the article, when nothing but a number or the query's end follows it.
 */
function keptAfterNumber(tokens: readonly QueryToken[], used: readonly boolean[], index: number): boolean {
  const token = tokens[index];
  const previous = tokens[index - 1];
  const next = tokens[index + 1];
  return (
    token !== undefined &&
    /^\p{L}$/u.test(token.text) &&
    previous !== undefined &&
    !used[index - 1] &&
    /^\p{N}+$/u.test(previous.text) &&
    (next === undefined || used[index + 1] === true || /^\p{N}/u.test(next.text))
  );
}

// Keeps the words that are left, re-joining hyphenated names ("wh-1000xm5", "on-ear") that the lexer split; a
// filler word inside such a name is kept.
function buildTerms(tokens: readonly QueryToken[], used: readonly boolean[]): string[] {
  const terms: string[] = [];
  let lastEnd = -1;
  let glue = false;
  tokens.forEach((token, index) => {
    if (used[index]) {
      glue = false;
      return;
    }
    if (token.kind === 'symbol') {
      const next = tokens[index + 1];
      glue = token.text === '-' && token.start === lastEnd && next !== undefined && next.start === token.end;
      return;
    }
    const next = tokens[index + 1];
    const startsCompound =
      next?.text === '-' && next.start === token.end && tokens[index + 2]?.start === next.end && !used[index + 2];
    if (glue && terms.length > 0) {
      terms[terms.length - 1] = `${terms[terms.length - 1]}-${token.text}`;
    } else if (startsCompound || !isFiller(token.text) || keptAfterNumber(tokens, used, index)) {
      terms.push(token.text);
    } else {
      lastEnd = -1;
      glue = false;
      return;
    }
    lastEnd = token.end;
    glue = false;
  });
  return [...new Set(terms)];
}
