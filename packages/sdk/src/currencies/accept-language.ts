/**
 * @module
 * Picks the locale to format for from an `Accept-Language` header: the first well-formed tag, by
 * descending q-value (ties keep header order), that the runtime's Intl can format; `en-US` when
 * the header is missing, malformed, or names nothing usable (ADR 0607).
 */

export const FALLBACK_LOCALE = 'en-US';

/** Longer headers are cut: they come from users and must not cost unbounded work. */
const MAX_HEADER_LENGTH = 4_096;
const MAX_ENTRIES = 32;
/** Resolving a tag asks Intl which locales it supports, which costs more than formatting; headers repeat. */
const MAX_CACHED_HEADERS = 512;
const resolved = new Map<string, string>();

interface Candidate {
  readonly tag: string;
  readonly q: number;
  readonly order: number;
}

function parseQuality(parameters: readonly string[]): number | null {
  let q = 1;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=').map((part) => part.trim());
    if (name?.toLowerCase() !== 'q') continue;
    if (value === undefined || !/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) return null;
    q = Number(value);
  }
  return q;
}

function canonical(tag: string): string | null {
  if (tag === '*' || !/^[A-Za-z]{1,8}(?:-[A-Za-z\d]{1,8})*$/.test(tag)) return null;
  try {
    const [locale] = Intl.getCanonicalLocales(tag);
    if (locale === undefined) return null;
    return Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 ? locale : null;
  } catch {
    return null;
  }
}

/**
 * The locale for an `Accept-Language` value.
 *
 * @example
 * localeFromAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8') // 'fr-CH'
 * localeFromAcceptLanguage('not a tag!') // 'en-US'
 */
export function localeFromAcceptLanguage(header: string | null | undefined): string {
  if (!header) return FALLBACK_LOCALE;
  const key = header.slice(0, MAX_HEADER_LENGTH);
  const cached = resolved.get(key);
  if (cached !== undefined) return cached;
  const locale = resolveLocale(key);
  resolved.set(key, locale);
  // Oldest first out: the header comes from users, so the cache must stay bounded.
  if (resolved.size > MAX_CACHED_HEADERS) {
    const oldest = resolved.keys().next().value;
    if (oldest !== undefined) resolved.delete(oldest);
  }
  return locale;
}

function resolveLocale(header: string): string {
  const candidates: Candidate[] = [];
  const entries = header.split(',').slice(0, MAX_ENTRIES);
  entries.forEach((entry, order) => {
    const [rawTag, ...parameters] = entry.split(';');
    const tag = rawTag?.trim() ?? '';
    const q = parseQuality(parameters);
    // q=0 means "not acceptable"; a malformed q makes the whole entry malformed.
    if (tag === '' || q === null || q === 0) return;
    candidates.push({ tag, q, order });
  });
  candidates.sort((left, right) => right.q - left.q || left.order - right.order);
  for (const candidate of candidates) {
    const locale = canonical(candidate.tag);
    if (locale !== null) return locale;
  }
  return FALLBACK_LOCALE;
}
