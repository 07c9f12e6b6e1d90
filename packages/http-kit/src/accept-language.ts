/**
 * @module
 * Which of a page's languages a request asks for: the billing portal and the hosted checkout
 * read `Accept-Language` the same way (ADR 1441, ADR 1433), so the rule has one home.
 */

/** The language tags an `Accept-Language` header asks for, best first (q=0 and malformed q dropped; at most 32 read). */
export function acceptedLanguageTags(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 4096)
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const quality = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter));
      // A q that is not a number from 0 to 1 makes the entry malformed: it is dropped (NaN).
      const q = quality === undefined ? '1' : /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(quality)?.[1];
      return { tag: tag.trim(), q: q === undefined ? Number.NaN : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0 && !Number.isNaN(entry.q))
    .sort((left, right) => right.q - left.q || left.index - right.index)
    .map((entry) => entry.tag);
}

/** The one of `languages` a tag's primary subtag names (`de-CH` → `de`), or null. */
export function languageOfTag<Language extends string>(
  languages: readonly Language[],
  tag: string | null | undefined,
): Language | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (languages as readonly string[]).includes(primary) ? (primary as Language) : null;
}

/** The first of the header's languages that is one of `languages`, or null. */
export function firstAcceptedLanguage<Language extends string>(
  languages: readonly Language[],
  header: string | null | undefined,
): Language | null {
  for (const tag of acceptedLanguageTags(header)) {
    const language = languageOfTag(languages, tag);
    if (language) return language;
  }
  return null;
}
