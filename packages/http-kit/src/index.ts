/**
 * @module
 * The HTTP edge rules the billing service, the billing portal and price search share, so each
 * rule has one home: which client a request counts against behind trusted proxies, request
 * bodies refused on the stream as soon as they pass their limit, server-rendered HTML's
 * escaping and document shell, and localisation: the five languages, message catalogues, the
 * language and format-locale rule, money and dates (`localisation.ts`).
 */

export { acceptedLanguageTags, firstAcceptedLanguage, languageOfTag } from './accept-language.js';
export { readBodyWithin, readTextWithin } from './bounded-body.js';
export {
  clientAddress,
  forwardedClientAddress,
  MAX_PROXY_HOPS,
  type ProxyTrust,
  parseProxyTrust,
  parseTrustedRanges,
  proxyHops,
  socketAddress,
  type TrustedRanges,
} from './client-address.js';
export { COUNTRY_CODES, countryOptions } from './countries.js';
export { escapeHtml, type HtmlDocument, htmlDocument } from './html.js';
export {
  formatDate,
  formatMoney,
  LANGUAGES,
  type Language,
  type LocaleRequest,
  languageOf,
  type MessageCatalogue,
  type Messages,
  messageCatalogue,
  type NegotiatedLocale,
  negotiateLocale,
  type Translate,
} from './localisation.js';
export {
  bodyLeftUnread,
  incomingHeader,
  limitBody,
  readIncomingText,
  readRequestText,
  requestHeader,
} from './request-body.js';
