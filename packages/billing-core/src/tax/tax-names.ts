/**
 * @module
 * The local name of the tax a country levies, for the lines that show it ("VAT 20%", "GST 10%",
 * "Sales tax 8.875%"): read from the location dataset's kind of tax for the country, the United
 * States' state sales taxes and Japan's consumption tax by name. `tax` where the dataset names none.
 */
import { TAX_RATE_DATASET } from './tax-rate-dataset.js';

export type TaxName = 'vat' | 'gst' | 'sales_tax' | 'consumption_tax' | 'tax';

export function taxNameOf(countryCode: string | null | undefined): TaxName {
  if (!countryCode) return 'tax';
  const code = countryCode.toUpperCase();
  if (code === 'US') return 'sales_tax';
  // Japan's is a value-added tax by kind, but it is called consumption tax (消費税), never VAT.
  if (code === 'JP') return 'consumption_tax';
  const kind = TAX_RATE_DATASET.countries[code]?.kind;
  return kind === 'vat' || kind === 'gst' ? kind : 'tax';
}
