/**
 * @module
 * The HTTP edge rules the billing service, the billing portal and price search share, so each
 * rule has one home: which client a request counts against behind trusted proxies, and request
 * bodies refused on the stream as soon as they pass their limit.
 */

export { acceptedLanguageTags, firstAcceptedLanguage, languageOfTag } from './accept-language.js';
export { readBodyWithin, readTextWithin } from './bounded-body.js';
export { clientAddress, forwardedClientAddress, socketAddress } from './client-address.js';
export {
  bodyLeftUnread,
  incomingHeader,
  limitBody,
  readIncomingText,
  readRequestText,
  requestHeader,
} from './request-body.js';
