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

/** Stored once per account environment, as document `seller`. */
export interface SellerDetails {
  readonly id: 'seller';
  readonly legalName: string | null;
  readonly address: SellerAddress | null;
  readonly taxIdentifier: string | null;
  readonly companyNumber: string | null;
  readonly email: string | null;
  readonly logo: SellerLogo | null;
  readonly updatedAt: string;
}
