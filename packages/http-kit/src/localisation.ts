/**
 * @module
 * The one home of localisation for everything people read: the billing portal, the hosted
 * checkout, and any new surface (an email, another page). It holds the five languages, the
 * mechanics of a message catalogue (plain templates with `{name}` placeholders, no plural or
 * select forms: counts stand as figures beside a noun that does not change), the rule that picks
 * the reader's language and the locale amounts and dates are formatted in, and the exact money and
 * date formatters (ADR 1441, ADR 1433, ADR 0924). Each surface keeps only its own words.
 *
 * How a new surface adds its catalogue:
 * 1. Write its English messages as one object, `const en = { greeting: 'Hello {name}' }`, and the
 *    other four as `Messages<keyof typeof en>` (the compiler then refuses a missing key).
 * 2. `const catalogue = messageCatalogue({ en, de, fr, es, ja })`; `catalogue.translator(language)`
 *    fills placeholders, `catalogue.keys` lists the keys for a test that every language has every
 *    message with the same placeholders as English (copy the portal's `messages.test.ts`).
 * 3. Pick the language and format locale with `negotiateLocale` (a request: query override,
 *    stored customer locale, Accept-Language) or, where there is no browser (an email),
 *    `negotiateLocale({ customerLocale })`, which falls back to the language's usual locale.
 * 4. Format amounts with `formatMoney` (lowest units, exact, the currency's decimal places passed
 *    in) and dates with `formatDate`, both in that locale, and give the results to the messages as
 *    placeholder values: messages never format anything themselves.
 */
import { formatAmount } from '@drawdown/sdk';
import { firstAcceptedLanguage, languageOfTag } from './accept-language.js';

/** The languages every surface is written in. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** One language's messages. */
export type Messages<Key extends string> = Readonly<Record<Key, string>>;

/** Fills a message's `{name}` placeholders; a missing value leaves the placeholder visible (a bug to see). */
export type Translate<Key extends string> = (key: Key, values?: Readonly<Record<string, string | number>>) => string;

/** A surface's messages in every language. */
export interface MessageCatalogue<Key extends string> {
  /** Every key, in the English catalogue's order. */
  readonly keys: readonly Key[];
  /** The messages of one language. */
  messages(language: Language): Messages<Key>;
  translator(language: Language): Translate<Key>;
}

/** Builds a surface's catalogue from its messages in the five languages (English names the keys). */
export function messageCatalogue<Key extends string>(
  catalogues: Readonly<Record<Language, Messages<Key>>>,
): MessageCatalogue<Key> {
  const keys = Object.keys(catalogues.en) as Key[];
  return {
    keys,
    messages: (language) => catalogues[language],
    translator(language) {
      const messages = catalogues[language];
      return (key, values) => {
        const template = messages[key] ?? catalogues.en[key];
        if (!values) return template;
        return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
          values[name] === undefined ? whole : String(values[name]),
        );
      };
    },
  };
}

/** Each language's usual format locale, for a reader who gave no regional tag of it. */
const USUAL_LOCALE: Readonly<Record<Language, string>> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  ja: 'ja-JP',
};

/** The one of our languages a tag's primary subtag names (`de-CH` → `de`, `ja_JP` → `ja`), or null. */
export function languageOf(tag: string | null | undefined): Language | null {
  return languageOfTag(LANGUAGES, tag);
}

/**
 * A tag's language, script and region as `Intl` canonicalizes them, or null for a bad tag (which
 * falls back to the language's usual locale). Extensions (`-u-nu-arab`, `-u-ca-…`) are dropped:
 * the formats are the locale's defaults.
 */
function canonicalLocale(tag: string): string | null {
  try {
    return new Intl.Locale(tag).baseName;
  } catch {
    return null;
  }
}

/** Where a reader's language can come from, strongest first. */
export interface LocaleRequest {
  /** An explicit override (the checkout's `locale` query parameter); ignored when it names none of ours. */
  readonly query?: string | null | undefined;
  /** The customer's stored `locale`; `en` is the public API's default, which cannot be told from "never chosen". */
  readonly customerLocale?: string | null | undefined;
  /** The browser's `Accept-Language` header. */
  readonly acceptLanguage?: string | null | undefined;
}

/** The reader's language and the BCP 47 locale amounts, dates and names are formatted in. */
export interface NegotiatedLocale {
  readonly language: Language;
  /** Of `language`: the most specific regional tag the reader gave (de-CH keeps its separators), else the usual one. */
  readonly locale: string;
  /** The language the override named, or null when the language came from elsewhere. */
  readonly fromQuery: Language | null;
}

/**
 * The reader's language: the override when it names one of ours, then the customer's stored
 * locale unless it is the API's default `en`, then the first Accept-Language entry we have, then
 * English. The format locale is the first regional tag of that language among the override, the
 * stored locale and the Accept-Language entries, else the language's usual locale.
 */
export function negotiateLocale(request: LocaleRequest): NegotiatedLocale {
  const { query, customerLocale, acceptLanguage } = request;
  const fromQuery = query && query.length <= 35 ? languageOf(query) : null;
  const stored = customerLocale && customerLocale.toLowerCase() !== 'en' ? languageOf(customerLocale) : null;
  const language = fromQuery ?? stored ?? firstAcceptedLanguage(LANGUAGES, acceptLanguage) ?? 'en';
  const candidates = [
    fromQuery ? query : null,
    stored ? customerLocale : null,
    ...(acceptLanguage ?? '').split(',').map((part) => part.split(';')[0]?.trim() ?? ''),
  ];
  let locale = USUAL_LOCALE[language];
  for (const candidate of candidates) {
    if (!candidate || languageOf(candidate) !== language) continue;
    const canonical = canonicalLocale(candidate.replace(/_/g, '-'));
    if (canonical?.includes('-')) {
      locale = canonical;
      break;
    }
  }
  return { language, locale, fromQuery };
}

/**
 * A lowest-unit amount (an integer string of any size) in `locale`, exactly: never a float.
 * `decimalPlaces` is the currency's (ISO 4217, or `GET /currencies` for a client of the API).
 */
export function formatMoney(amount: string, currencyCode: string, decimalPlaces: number, locale: string): string {
  return formatAmount(amount, currencyCode, locale, decimalPlaces);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An RFC 3339 instant as a calendar date in `locale`: its UTC day, as the API's dates are UTC.
 * Text that is not a date is returned as it is (a render never fails on it).
 */
export function formatDate(iso: string, locale: string, style: 'medium' | 'long'): string {
  const parsed = new Date(iso);
  if (Number.isNaN(parsed.getTime())) return iso;
  const key = `${locale}\u0000${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' });
    // The locale comes from readers: the cache stays bounded.
    if (dateFormats.size > 256) dateFormats.clear();
    dateFormats.set(key, format);
  }
  return format.format(parsed);
}
