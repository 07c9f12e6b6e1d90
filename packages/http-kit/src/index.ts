/**
 * @module
 * The HTTP edge rules the billing service, the billing portal and price search share, so each
 * rule has one home: which client a request counts against behind trusted proxies, request
 * bodies refused on the stream as soon as they pass their limit, and server-rendered HTML's
 * escaping and document shell.
 */

export { acceptedLanguageTags, firstAcceptedLanguage, languageOfTag } from './accept-language.js';
export { readBodyWithin, readTextWithin } from './bounded-body.js';
export { clientAddress, forwardedClientAddress, proxyHops, socketAddress } from './client-address.js';
export { escapeHtml, type HtmlDocument, htmlDocument } from './html.js';
export {
  bodyLeftUnread,
  incomingHeader,
  limitBody,
  readIncomingText,
  readRequestText,
  requestHeader,
} from './request-body.js';
