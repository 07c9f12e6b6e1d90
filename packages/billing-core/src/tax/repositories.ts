/**
 * @module
 * Storage port of tax: VIES verdicts on VAT ids (ADR 1437).
 */
import type { Collection } from '../shared/collection.js';
import type { TaxIdCheck } from './entities.js';

/** The repositories tax owns. */
export interface TaxRepositories {
  /** VIES verdicts on VAT ids, keyed by the prefixed id (ADR 1437). */
  readonly taxIdChecks: Collection<TaxIdCheck, 'id'>;
}

/** What tax uses: its VIES verdicts alone. */
export interface TaxSlice extends TaxRepositories {}
