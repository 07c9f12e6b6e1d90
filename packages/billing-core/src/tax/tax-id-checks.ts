/**
 * @module
 * EU VAT ids checked against the EU's VIES register (ADR 1437). The check is network I/O, so
 * it never runs inside a database transaction: `verifyBusinessTaxId` runs before the work,
 * asks the register through the `TaxIdVerifier` port when the stored verdict is missing or
 * older than the configured lifetime, and stores the answer; the work then reads the stored
 * verdict (`storedTaxIdCheck`) and passes it to the tax resolver. Renewals reuse the stored
 * verdict, so they call VIES at most once per lifetime per id.
 */
import type { Business } from '../catalogue/entities.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { TaxIdCheck } from './entities.js';
import type { TaxIdCheckOutcome } from './location-tax.js';
import type { TaxSlice } from './repositories.js';
import { normalizeVatId, vatCountryOf } from './vat-id.js';

/** What a register answered about one VAT id. */
export interface TaxIdRegisterAnswer {
  /** `unavailable`: the register gave no verdict (down, busy, timed out, refused the input). */
  readonly outcome: 'valid' | 'invalid' | 'unavailable';
  /** The registered name and address, when the member state discloses them. */
  readonly name: string | null;
  readonly address: string | null;
  /** The register's own date of the check, as it wrote it. */
  readonly requestDate: string | null;
  /** For `unavailable`: the register's error code (`MS_UNAVAILABLE`, `TIMEOUT`, …) or a network error. */
  readonly reason: string | null;
}

/** The port to a VAT register (VIES). Implementations bound their own time (the configured timeout). */
export interface TaxIdVerifier {
  /** `countryPrefix` is the VIES prefix (`EL` for Greece); `vatNumber` the national part. */
  check(countryPrefix: string, vatNumber: string): Promise<TaxIdRegisterAnswer>;
}

/** How the service checks tax ids (service settings, ADR 1437). */
export interface TaxIdVerification {
  readonly verifier: TaxIdVerifier;
  /** A stored `valid` or `invalid` verdict is reused for this long. */
  readonly cacheLifetimeMs: number;
  /**
   * With no verdict (the register unavailable, nothing stored): `format` reverse charges a
   * well-formed id as before VIES existed, recording it unverified; `charge` charges VAT.
   */
  readonly unavailableFallback: 'format' | 'charge';
}

/** What VAT checks read beyond their slice: VIES, when configured (ADR 1437). */
export interface TaxIdPorts {
  /** Absent, reverse charge follows the offline format check alone. */
  readonly taxIds?: TaxIdVerification | undefined;
}

/** The EU VAT id a business's tax id is, prefixed (`FR…`, `EL…`), or null when it is none. */
export function euVatIdOf(taxIdentifier: string | null | undefined, addressCountry: string | null): string | null {
  if (!taxIdentifier) return null;
  const id = normalizeVatId(taxIdentifier);
  const country = vatCountryOf(id, addressCountry);
  if (country === null) return null;
  const prefix = country === 'GR' ? 'EL' : country;
  return id.startsWith(prefix) && vatCountryOf(id, null) === country ? id : `${prefix}${id}`;
}

function isFresh(check: TaxIdCheck, now: string, lifetimeMs: number): boolean {
  return check.status !== 'unverified' && Date.parse(now) - Date.parse(check.checkedAt) < lifetimeMs;
}

async function store(context: Context<TaxSlice>, check: TaxIdCheck, existing: TaxIdCheck | undefined): Promise<void> {
  if (existing) await context.store.taxIdChecks.update(context.scope, check);
  else {
    try {
      await context.store.taxIdChecks.insert(context.scope, check);
    } catch {
      // Another request stored it first; its verdict is as good as ours.
      await context.store.taxIdChecks.update(context.scope, check);
    }
  }
}

/**
 * Makes sure a current verdict on `business`'s VAT id is stored, asking the register when the
 * stored one is missing, unverified or older than the lifetime. Runs outside any database
 * transaction. Never throws for the register: an unavailable register leaves a stale verdict in
 * place, or records the id as unverified. Returns the verdict stored now (undefined when
 * verification is off or the business has no EU VAT id).
 */
export async function verifyBusinessTaxId(
  context: Context<TaxSlice> & TaxIdPorts,
  business: Pick<Business, 'taxIdentifier'> | null | undefined,
  addressCountry: string | null,
): Promise<TaxIdCheck | undefined> {
  const verification = context.taxIds;
  const id = euVatIdOf(business?.taxIdentifier, addressCountry);
  if (!verification || id === null) return undefined;
  const now = nowTimestamp(context);
  const existing = await context.store.taxIdChecks.findById(context.scope, id);
  if (existing && isFresh(existing, now, verification.cacheLifetimeMs)) return existing;
  let answer: TaxIdRegisterAnswer;
  try {
    answer = await verification.verifier.check(id.slice(0, 2), id.slice(2));
  } catch (error) {
    answer = {
      outcome: 'unavailable',
      name: null,
      address: null,
      requestDate: null,
      reason: error instanceof Error ? error.message : String(error),
    };
  }
  if (answer.outcome === 'unavailable') {
    // A verdict the register gave before stays in force, however old, until it answers again.
    if (existing && existing.status !== 'unverified') return existing;
    const unverified: TaxIdCheck = {
      id,
      status: 'unverified',
      name: null,
      address: null,
      requestDate: null,
      reason: answer.reason,
      checkedAt: now,
    };
    await store(context, unverified, existing);
    return unverified;
  }
  const check: TaxIdCheck = {
    id,
    status: answer.outcome,
    name: answer.name,
    address: answer.address,
    requestDate: answer.requestDate,
    reason: null,
    checkedAt: now,
  };
  await store(context, check, existing);
  return check;
}

/**
 * The verdict the tax resolver uses for `business`, read from the store (inside or outside a
 * transaction, no network): undefined when verification is off or there is no EU VAT id;
 * `unverified` when nothing was stored.
 */
export async function storedTaxIdCheck(
  context: Context<TaxSlice> & TaxIdPorts,
  repositories: TaxSlice,
  business: Pick<Business, 'taxIdentifier'> | null | undefined,
  addressCountry: string | null,
): Promise<TaxIdCheckOutcome | undefined> {
  const verification = context.taxIds;
  const id = euVatIdOf(business?.taxIdentifier, addressCountry);
  if (!verification || id === null || !business?.taxIdentifier) return undefined;
  const stored = await repositories.taxIdChecks.findById(context.scope, id);
  return {
    taxIdentifier: normalizeVatId(business.taxIdentifier),
    status: stored?.status ?? 'unverified',
    reverseChargeWhenUnverified: verification.unavailableFallback === 'format',
  };
}
