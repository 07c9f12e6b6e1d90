/**
 * @module
 * The local name of the tax a country levies, for the lines that show it ("VAT 20%", "GST 10%",
 * "Sales tax 8.875%"): read from the location dataset's kind of tax for the country, the United
 * States' state sales taxes by name. `tax` where the dataset names none.
 */
import { TAX_RATE_DATASET } from './tax-rate-dataset.js';

export type TaxName = 'vat' | 'gst' | 'sales_tax' | 'tax';

export function taxNameOf(countryCode: string | null | undefined): TaxName {
  if (!countryCode) return 'tax';
  const code = countryCode.toUpperCase();
  if (code === 'US') return 'sales_tax';
  const kind = TAX_RATE_DATASET.countries[code]?.kind;
  return kind === 'vat' || kind === 'gst' ? kind : 'tax';
}
