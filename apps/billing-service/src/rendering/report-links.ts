/**
 * @module
 * Signed report download links: the invoice links' HMAC key and rules (ADR 0406), over the
 * account, environment, report id and expiry. One hour of the environment's clock.
 */
import { type Environment, isIdOf, type ReportLinkClaims, reportLinkPayload } from '@drawdown/billing-core';
import type { InvoiceLinkSigner } from './invoice-links.js';

const EXPIRES_PATTERN = /^[1-9]\d{0,15}$/;

type PayloadSigner = Pick<InvoiceLinkSigner, 'signPayload' | 'matchesPayload'>;

export async function signedReportUrl(
  signer: PayloadSigner,
  baseUrl: string,
  claims: ReportLinkClaims,
): Promise<string> {
  const query = new URLSearchParams({
    account: claims.accountId,
    expires: String(claims.expiresAt),
    signature: await signer.signPayload(reportLinkPayload(claims)),
  });
  return `${baseUrl}/reports/${claims.reportId}/csv?${query.toString()}`;
}

/** The claims of a link signed by this deployment for `environment`, else null (expiry unchecked). */
export async function verifyReportLink(
  signer: PayloadSigner,
  environment: Environment,
  reportId: string,
  params: URLSearchParams,
): Promise<ReportLinkClaims | null> {
  const accountId = params.get('account') ?? '';
  const expires = params.get('expires') ?? '';
  const signature = params.get('signature') ?? '';
  if (!isIdOf('rep', reportId) || !isIdOf('acc', accountId) || !EXPIRES_PATTERN.test(expires)) return null;
  const claims: ReportLinkClaims = { accountId, environment, reportId, expiresAt: Number(expires) };
  return (await signer.matchesPayload(reportLinkPayload(claims), signature)) ? claims : null;
}
