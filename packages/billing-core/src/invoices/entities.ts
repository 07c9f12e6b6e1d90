/**
 * @module
 * What invoices store: the seller each account environment's documents name (ADR 1106).
 */

export const LOGO_FORMATS = ['image/png', 'image/jpeg'] as const;

export type LogoFormat = (typeof LOGO_FORMATS)[number];

export interface SellerAddress {
  readonly firstLine: string | null;
  readonly secondLine: string | null;
  readonly city: string | null;
  readonly postalCode: string | null;
  readonly region: string | null;
  readonly countryCode: string;
}

export interface SellerLogo {
  readonly contentType: LogoFormat;
  readonly width: number;
  readonly height: number;
  readonly sizeBytes: number;
  /** The image file, base64. */
  readonly data: string;
}

/**
 * How a customer pays a manual invoice by bank transfer (ADR 1110): the account to pay into, in
 * whichever form the seller's bank uses (IBAN and BIC, or a UK account number and sort code), and
 * free text for anything else (another scheme, a reference rule). Printed on manual invoices.
 */
export interface PaymentInstructions {
  readonly accountName: string | null;
  /** Electronic format: no spaces, upper case; checked by its country's length and checksum. */
  readonly iban: string | null;
  readonly bic: string | null;
  readonly accountNumber: string | null;
  /** Six digits, stored as `12-34-56`. */
  readonly sortCode: string | null;
  readonly text: string | null;
}

/**
 * A reference rate the seller keeps for stating tax in its tax currency (ADR 1110): one unit of
 * `currencyCode` is `rate` units of the tax currency on `date`, as published by `source`. Set by
 * the operator, never fetched: a document shows the same figure every time it is made.
 */
export interface ReferenceRate {
  readonly currencyCode: string;
  /** A plain positive decimal, e.g. `0.7931`. */
  readonly rate: string;
  /** `YYYY-MM-DD`. */
  readonly date: string;
  readonly source: string;
}

/** Stored once per account environment, as document `seller`. */
export interface SellerDetails {
  readonly id: 'seller';
  readonly legalName: string | null;
  readonly address: SellerAddress | null;
  readonly taxIdentifier: string | null;
  readonly companyNumber: string | null;
  readonly email: string | null;
  readonly logo: SellerLogo | null;
  /** Details stored before ADR 1110 lack the next three: `findSellerDetails` reads them as none. */
  readonly paymentInstructions: PaymentInstructions | null;
  /** The currency of the seller's tax registration (GBP for UK VAT); null: none stated. */
  readonly taxCurrency: string | null;
  readonly referenceRates: readonly ReferenceRate[];
  /**
   * The seller's pages the hosted checkout links to (ADR 1113): http(s) addresses, null when
   * not set. Details stored before ADR 1113 lack them: `findSellerDetails` reads them as none.
   */
  readonly termsUrl: string | null;
  readonly privacyUrl: string | null;
  readonly refundPolicyUrl: string | null;
  readonly contactUrl: string | null;
  readonly updatedAt: string;
}
