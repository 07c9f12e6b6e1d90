/**
 * @module
 * Signed invoice links (ADR 0406). A link carries the transaction id, the account, the
 * disposition and an expiry, and an HMAC-SHA256 signature over those and the environment with a
 * service secret. The secret is generated on first use and stored in the database, so every
 * service process on the database signs and verifies alike. Changing any parameter breaks the
 * signature; signatures are compared in constant time.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type Environment,
  INVOICE_DISPOSITIONS,
  type InvoiceDisposition,
  type InvoiceLinkClaims,
  invoiceLinkPayload,
  isIdOf,
  type Store,
} from '@drawdown/billing-core';

export const INVOICE_LINK_SECRET_NAME = 'invoice_link_signing_key';
const SIGNATURE_PATTERN = /^[A-Za-z\d_-]{43}$/;
const EXPIRES_PATTERN = /^[1-9]\d{0,15}$/;

const secrets = new WeakMap<Store, Promise<Buffer>>();

/** The signing key of the store's deployment, read (or created) once per process. */
function signingKey(store: Store): Promise<Buffer> {
  let key = secrets.get(store);
  if (!key) {
    key = store.billingSettings
      .obtainServiceSecret(INVOICE_LINK_SECRET_NAME, randomBytes(32).toString('base64url'))
      .then((value) => Buffer.from(value, 'base64url'));
    key.catch(() => secrets.delete(store));
    secrets.set(store, key);
  }
  return key;
}

function sign(key: Buffer, claims: InvoiceLinkClaims): Buffer {
  return signText(key, invoiceLinkPayload(claims));
}

function signText(key: Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

/** Signs another kind of link (report downloads) with the same deployment key, base64url. */
export async function signLinkPayload(store: Store, payload: string): Promise<string> {
  return signText(await signingKey(store), payload).toString('base64url');
}

/** Whether `signature` is this deployment's signature of `payload`, compared in constant time. */
export async function matchesLinkSignature(store: Store, payload: string, signature: string): Promise<boolean> {
  if (!SIGNATURE_PATTERN.test(signature)) return false;
  const expected = signText(await signingKey(store), payload);
  const actual = Buffer.from(signature, 'base64url');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The absolute URL of a signed link, on the environment's advertised base URL. */
export async function signedInvoiceUrl(store: Store, baseUrl: string, claims: InvoiceLinkClaims): Promise<string> {
  const signature = sign(await signingKey(store), claims).toString('base64url');
  const query = new URLSearchParams({
    account: claims.accountId,
    disposition: claims.disposition,
    expires: String(claims.expiresAt),
    signature,
  });
  return `${baseUrl}/invoices/${claims.transactionId}/pdf?${query.toString()}`;
}

/**
 * The claims of a link whose signature is this deployment's for `environment`, else null.
 * Expiry is not checked here: it needs the account environment's clock.
 */
export async function verifyInvoiceLink(
  store: Store,
  environment: Environment,
  transactionId: string,
  params: URLSearchParams,
): Promise<InvoiceLinkClaims | null> {
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
  const expected = sign(await signingKey(store), claims);
  const actual = Buffer.from(signature, 'base64url');
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? claims : null;
}
