/**
 * @module
 * `drawdown accounts seller-details show|set|clear --account ID [--env live|sandbox]` (ADR 1106):
 * the seller an account's invoices and credit notes name, set by the operator beside the API's
 * `PATCH /seller-details`. Without `--env` a command acts on both environments, so one command
 * sets the seller of live and sandbox documents alike. `set` changes only the fields given; an
 * address flag replaces the whole address (`--country` is then required); `--logo FILE` takes a
 * PNG or JPEG file, checked by decoding it, and `--remove-logo` removes it.
 */
import { readFileSync, statSync } from 'node:fs';
import {
  BillingError,
  type Caller,
  ENVIRONMENTS,
  type Environment,
  LOGO_LIMITS,
  SELLER_DETAILS_CLEARED,
  type SellerDetailsView,
  type UpdateSellerDetailsInput,
  type UseCases,
} from '@drawdown/billing-core';
import { printResult } from './output.js';

export const SELLER_DETAILS_ACTIONS: readonly string[] = ['show', 'set', 'clear'];

export interface SellerDetailsOptions {
  readonly account: string;
  readonly env: string | undefined;
  readonly legalName: string | undefined;
  readonly firstLine: string | undefined;
  readonly secondLine: string | undefined;
  readonly city: string | undefined;
  readonly postalCode: string | undefined;
  readonly region: string | undefined;
  readonly country: string | undefined;
  readonly taxId: string | undefined;
  readonly companyNumber: string | undefined;
  readonly email: string | undefined;
  readonly logo: string | undefined;
  readonly removeLogo: boolean;
  readonly iban: string | undefined;
  readonly bic: string | undefined;
  readonly accountName: string | undefined;
  readonly accountNumber: string | undefined;
  readonly sortCode: string | undefined;
  readonly paymentText: string | undefined;
  readonly removePaymentInstructions: boolean;
  /** A currency code, or `none` to clear it. */
  readonly taxCurrency: string | undefined;
  /** The checkout's links to the seller's pages (ADR 1113): an http(s) address, or `none` to clear one. */
  readonly termsUrl?: string | undefined;
  readonly privacyUrl?: string | undefined;
  readonly refundPolicyUrl?: string | undefined;
  readonly contactUrl?: string | undefined;
  readonly json: boolean;
}

function environmentsOf(env: string | undefined): readonly Environment[] {
  if (env === undefined) return ENVIRONMENTS;
  if (!ENVIRONMENTS.includes(env as Environment)) {
    throw new BillingError('invalid_field', `--env must be live or sandbox; got ${env}`);
  }
  return [env as Environment];
}

function logoData(file: string): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new BillingError('invalid_field', `--logo: cannot read ${file}`);
  }
  // Refused before reading, so a huge file is never loaded.
  if (size > LOGO_LIMITS.maxBytes) {
    throw new BillingError(
      'invalid_logo',
      `The logo must be at most ${LOGO_LIMITS.maxBytes} bytes; ${file} is ${size}.`,
    );
  }
  return readFileSync(file).toString('base64');
}

/** The link flags given (ADR 1113): `none` clears a link. */
function linkChanges(options: SellerDetailsOptions): UpdateSellerDetailsInput {
  const value = (flag: string | undefined) => (flag === 'none' ? null : flag);
  return {
    ...(options.termsUrl === undefined ? {} : { termsUrl: value(options.termsUrl) }),
    ...(options.privacyUrl === undefined ? {} : { privacyUrl: value(options.privacyUrl) }),
    ...(options.refundPolicyUrl === undefined ? {} : { refundPolicyUrl: value(options.refundPolicyUrl) }),
    ...(options.contactUrl === undefined ? {} : { contactUrl: value(options.contactUrl) }),
  };
}

/** The fields `set` was given, as the use case's input. */
function changesOf(options: SellerDetailsOptions): UpdateSellerDetailsInput {
  if (options.logo !== undefined && options.removeLogo) {
    throw new BillingError('invalid_field', 'Give --logo FILE or --remove-logo, not both.');
  }
  const payment = [
    options.iban,
    options.bic,
    options.accountName,
    options.accountNumber,
    options.sortCode,
    options.paymentText,
  ];
  const paying = payment.some((value) => value !== undefined);
  if (paying && options.removePaymentInstructions) {
    throw new BillingError('invalid_field', 'Give payment flags or --remove-payment-instructions, not both.');
  }
  const addressParts = [
    options.firstLine,
    options.secondLine,
    options.city,
    options.postalCode,
    options.region,
    options.country,
  ];
  const address = addressParts.some((part) => part !== undefined)
    ? {
        firstLine: options.firstLine ?? null,
        secondLine: options.secondLine ?? null,
        city: options.city ?? null,
        postalCode: options.postalCode ?? null,
        region: options.region ?? null,
        countryCode: options.country ?? '',
      }
    : undefined;
  const changes: UpdateSellerDetailsInput = {
    ...(options.legalName === undefined ? {} : { legalName: options.legalName }),
    ...(address === undefined ? {} : { address }),
    ...(options.taxId === undefined ? {} : { taxIdentifier: options.taxId }),
    ...(options.companyNumber === undefined ? {} : { companyNumber: options.companyNumber }),
    ...(options.email === undefined ? {} : { email: options.email }),
    ...(options.logo === undefined ? {} : { logo: { data: logoData(options.logo) } }),
    ...(options.removeLogo ? { logo: null } : {}),
    // The bank details are replaced as a whole, as PATCH /seller-details replaces them (ADR 1110).
    ...(paying
      ? {
          paymentInstructions: {
            iban: options.iban ?? null,
            bic: options.bic ?? null,
            accountName: options.accountName ?? null,
            accountNumber: options.accountNumber ?? null,
            sortCode: options.sortCode ?? null,
            text: options.paymentText ?? null,
          },
        }
      : {}),
    ...(options.removePaymentInstructions ? { paymentInstructions: null } : {}),
    ...(options.taxCurrency === undefined
      ? {}
      : { taxCurrency: options.taxCurrency === 'none' ? null : options.taxCurrency.toUpperCase() }),
    ...linkChanges(options),
  };
  if (Object.keys(changes).length === 0) {
    throw new BillingError(
      'invalid_field',
      'seller-details set needs at least one of --legal-name, --first-line, --second-line, --city, --postal-code, --region, --country, --tax-id, --company-number, --email, --logo, --remove-logo, --tax-currency, --iban, --bic, --account-name, --account-number, --sort-code, --payment-text, --remove-payment-instructions, --terms-url, --privacy-url, --refund-policy-url, --contact-url',
    );
  }
  return changes;
}

function lines(environment: Environment, view: SellerDetailsView): [string, string][] {
  const address = view.address
    ? [
        view.address.firstLine,
        view.address.secondLine,
        view.address.postalCode,
        view.address.city,
        view.address.region,
        view.address.countryCode,
      ]
        .filter((part) => part !== null)
        .join(', ')
    : 'not set';
  const logo = view.logo
    ? `${view.logo.contentType}, ${view.logo.width} × ${view.logo.height} px, ${view.logo.sizeBytes} bytes`
    : 'none';
  return [
    ['Environment', environment],
    ['Legal name', view.legalName ?? 'not set (documents show the account name)'],
    ['Address', address],
    ['Tax ID', view.taxIdentifier ?? 'not set'],
    ['Company number', view.companyNumber ?? 'not set'],
    ['Email', view.email ?? 'not set'],
    ['Logo', logo],
    ['Payment instructions', paymentInstructionsLine(view)],
    ['Tax currency', view.taxCurrency ?? 'not set'],
    [
      'Reference rates',
      view.referenceRates.length === 0
        ? 'none'
        : view.referenceRates
            .map((rate) => `1 ${rate.currencyCode} = ${rate.rate} on ${rate.date} (${rate.source})`)
            .join('; '),
    ],
    ['Terms', view.termsUrl ?? 'not set'],
    ['Privacy', view.privacyUrl ?? 'not set'],
    ['Refund policy', view.refundPolicyUrl ?? 'not set'],
    ['Contact', view.contactUrl ?? 'not set'],
    ['Updated', view.updatedAt ?? 'never'],
  ];
}

/** The bank details in one line; set through `PATCH /seller-details` (ADR 1110). */
function paymentInstructionsLine(view: SellerDetailsView): string {
  const instructions = view.paymentInstructions;
  if (!instructions) return 'not set';
  return [
    instructions.accountName,
    instructions.iban && `IBAN ${instructions.iban}`,
    instructions.bic && `BIC ${instructions.bic}`,
    instructions.accountNumber && `account ${instructions.accountNumber}`,
    instructions.sortCode && `sort code ${instructions.sortCode}`,
    instructions.text,
  ]
    .filter((part) => part)
    .join(', ');
}

export async function runSellerDetailsCommand(
  useCases: UseCases,
  action: string | undefined,
  options: SellerDetailsOptions,
): Promise<number> {
  const environments = environmentsOf(options.env);
  const account = await useCases.requireAccount(options.account);
  const callers: [Environment, Caller][] = environments.map((environment) => [
    environment,
    { account, scope: { accountId: account.id, environment } },
  ]);
  // Checked (and the logo decoded) once, before anything is written.
  const changes = action === 'set' ? changesOf(options) : action === 'clear' ? SELLER_DETAILS_CLEARED : undefined;
  const shown: [Environment, SellerDetailsView][] = [];
  for (const [environment, caller] of callers) {
    const view = changes
      ? await useCases.updateSellerDetails(caller, changes)
      : await useCases.getSellerDetails(caller);
    shown.push([environment, view]);
  }
  if (options.json) {
    printResult(true, { account: account.id, seller_details: Object.fromEntries(shown) }, []);
  } else {
    printResult(false, {}, [
      ['Account', account.id],
      ...shown.flatMap(([environment, view]) => lines(environment, view)),
    ]);
  }
  return 0;
}
