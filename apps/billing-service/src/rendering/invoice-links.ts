/**
 * @module
 * Signed invoice links (ADR 0406). A link carries the transaction id, the account, the
 * disposition and an expiry, and an HMAC-SHA256 signature over those and the environment with a
 * service secret. The secret is generated on first use and stored in the database, so every
 * service process on the database signs and verifies alike. Changing any parameter breaks the
 * signature; signatures are compared as text, in constant time. Comparing the text rather than
 * the decoded bytes refuses the non-canonical spellings of a signature too: the last of its 43
 * base64url characters carries two unused bits, so four texts decode to the same bytes.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type CreditNoteLinkClaims,
  creditNoteLinkPayload,
  type Environment,
  INVOICE_DISPOSITIONS,
  type InvoiceDisposition,
  type InvoiceLinkClaims,
  invoiceLinkPayload,
  isIdOf,
} from '@drawdown/billing-core';

export const INVOICE_LINK_SECRET_NAME = 'invoice_link_signing_key';
const SIGNATURE_PATTERN = /^[A-Za-z\d_-]{43}$/;
const EXPIRES_PATTERN = /^[1-9]\d{0,15}$/;

/** The deployment's signing secret, created on first use and shared by every process on the database. */
export type ObtainSecret = (name: string, candidate: string) => Promise<string>;

/** Signs invoice links and verifies them; the composition root gives it the store's secret source. */
export interface InvoiceLinkSigner {
  /** The absolute URL of a signed link, on the environment's advertised base URL. */
  url(baseUrl: string, claims: InvoiceLinkClaims): Promise<string>;
  /**
   * The claims of a link whose signature is this deployment's for `environment`, else null.
   * Expiry is not checked here: it needs the account environment's clock.
   */
  verify(environment: Environment, transactionId: string, params: URLSearchParams): Promise<InvoiceLinkClaims | null>;
  /** Signs another kind of link's payload (report downloads) with the same key, base64url. */
  signPayload(payload: string): Promise<string>;
  /** Whether `signature` is this deployment's signature of `payload`, compared in constant time. */
  matchesPayload(payload: string, signature: string): Promise<boolean>;
  /** The absolute URL of a signed credit note link (ADR 1103). */
  creditNoteUrl(baseUrl: string, claims: CreditNoteLinkClaims): Promise<string>;
  /** The claims of a credit note link signed here for `environment`, else null; expiry is the caller's to check. */
  verifyCreditNote(
    environment: Environment,
    adjustmentId: string,
    params: URLSearchParams,
  ): Promise<CreditNoteLinkClaims | null>;
}

function sign(key: Buffer, claims: InvoiceLinkClaims): Buffer {
  return signText(key, invoiceLinkPayload(claims));
}

function signText(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload, 'utf8').digest();
}

/** The common parameters of a signed link, if each is well formed. */
function linkParameters(params: URLSearchParams) {
  const accountId = params.get('account') ?? '';
  const disposition = params.get('disposition') ?? '';
  const expires = params.get('expires') ?? '';
  const signature = params.get('signature') ?? '';
  if (
    !isIdOf('acc', accountId) ||
    !(INVOICE_DISPOSITIONS as readonly string[]).includes(disposition) ||
    !EXPIRES_PATTERN.test(expires) ||
    !SIGNATURE_PATTERN.test(signature)
  ) {
    return null;
  }
  return { accountId, disposition: disposition as InvoiceDisposition, expiresAt: Number(expires), signature };
}

/**
 * Compares signature text, in constant time: the last base64url character of a 32-byte
 * signature carries two unused bits, so comparing decoded bytes would accept four spellings.
 */
function matches(expected: Buffer, signature: string): boolean {
  const wanted = Buffer.from(expected.toString('base64url'), 'ascii');
  const actual = Buffer.from(signature, 'ascii');
  return actual.length === wanted.length && timingSafeEqual(actual, wanted);
}

export function createInvoiceLinkSigner(obtainSecret: ObtainSecret): InvoiceLinkSigner {
  let key: Promise<Buffer> | undefined;
  /** The signing key, read (or created) once per process; a failed read is tried again next time. */
  function signingKey(): Promise<Buffer> {
    if (!key) {
      key = obtainSecret(INVOICE_LINK_SECRET_NAME, randomBytes(32).toString('base64url')).then((value) =>
        Buffer.from(value, 'base64url'),
      );
      key.catch(() => {
        key = undefined;
      });
    }
    return key;
  }

  return {
    async signPayload(payload) {
      return signText(await signingKey(), payload).toString('base64url');
    },
    async matchesPayload(payload, signature) {
      if (!SIGNATURE_PATTERN.test(signature)) return false;
      return matches(signText(await signingKey(), payload), signature);
    },
    async url(baseUrl, claims) {
      const signature = sign(await signingKey(), claims).toString('base64url');
      const query = new URLSearchParams({
        account: claims.accountId,
        disposition: claims.disposition,
        expires: String(claims.expiresAt),
        signature,
      });
      return `${baseUrl}/invoices/${claims.transactionId}/pdf?${query.toString()}`;
    },
    async verify(environment, transactionId, params) {
      const accountId = params.get('account') ?? '';
      const disposition = params.get('disposition') ?? '';
      const expires = params.get('expires') ?? '';
      const signature = params.get('signature') ?? '';
      if (
        !isIdOf('txn', transactionId) ||
        !isIdOf('acc', accountId) ||
        !(INVOICE_DISPOSITIONS as readonly string[]).includes(disposition) ||
        !EXPIRES_PATTERN.test(expires) ||
        !SIGNATURE_PATTERN.test(signature)
      ) {
        return null;
      }
      const claims: InvoiceLinkClaims = {
        accountId,
        environment,
        transactionId,
        disposition: disposition as InvoiceDisposition,
        expiresAt: Number(expires),
      };
      return matches(sign(await signingKey(), claims), signature) ? claims : null;
    },
    async creditNoteUrl(baseUrl, claims) {
      const signature = signText(await signingKey(), creditNoteLinkPayload(claims)).toString('base64url');
      const query = new URLSearchParams({
        account: claims.accountId,
        disposition: claims.disposition,
        expires: String(claims.expiresAt),
        signature,
      });
      return `${baseUrl}/credit-notes/${claims.adjustmentId}/pdf?${query.toString()}`;
    },
    async verifyCreditNote(environment, adjustmentId, params) {
      const parameters = linkParameters(params);
      if (!parameters || !isIdOf('adj', adjustmentId)) return null;
      const { signature, ...rest } = parameters;
      const claims: CreditNoteLinkClaims = { ...rest, environment, adjustmentId };
      return matches(signText(await signingKey(), creditNoteLinkPayload(claims)), signature) ? claims : null;
    },
  };
}
