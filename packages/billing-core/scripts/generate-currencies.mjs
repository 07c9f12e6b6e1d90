/**
 * Regenerates `src/money/iso-4217.ts` from the `currency-codes` package (the ISO 4217 list
 * maintained by its publisher), for the currencies Drawdown bills in. Run after upgrading the
 * package: `node packages/billing-core/scripts/generate-currencies.mjs`. The test
 * `iso-4217.test.ts` fails when the checked-in file and the package disagree.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const currencyCodes = require('currency-codes');
const { version } = require('currency-codes/package.json');

/** The currencies of the public billing API (reference section 9). */
const BILLED =
  'USD EUR GBP JPY AUD CAD CHF CLP HKD SGD SEK ARS BRL CNY COP CZK DKK HUF ILS INR KRW MXN NOK NZD PEN PLN RUB THB TRY TWD UAH VND ZAR'.split(
    ' ',
  );

const regions = new Intl.DisplayNames('en', { type: 'region' });
const normalise = (name) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\(the\)/g, '')
    .replace(/\bsaint\b/g, 'st')
    .replace(/[^a-z]/g, '');
// Region codes that are not countries (ISO 4217 lists the European Union for EUR).
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);
const byName = new Map();
for (let first = 65; first <= 90; first += 1) {
  for (let second = 65; second <= 90; second += 1) {
    const code = String.fromCharCode(first, second);
    const name = regions.of(code);
    // Deprecated codes (DD, FX, TP) share their names with current ones: keep the canonical code.
    const canonical = new Intl.Locale(`und-${code}`).region ?? code;
    if (name && name !== code && !NOT_COUNTRIES.has(canonical)) byName.set(normalise(name), canonical);
  }
}
// ISO 4217 names that Intl's English region names spell differently.
const ALIASES = {
  bonairesinteustatiusandsaba: 'BQ',
  heardislandandmcdonaldislands: 'HM',
  holysee: 'VA',
  hongkong: 'HK',
  koreatherepublicof: 'KR',
  micronesiafederatedstatesof: 'FM',
  pitcairn: 'PN',
  russianfederation: 'RU',
  stmartinfrenchpart: 'MF',
  stpierreandmiquelon: 'PM',
  svalbardandjanmayen: 'SJ',
  taiwanprovinceofchina: 'TW',
  turksandcaicosislands: 'TC',
  unitedkingdomofgreatbritainandnorthernireland: 'GB',
  unitedstatesminoroutlyingislands: 'UM',
  unitedstatesofamerica: 'US',
  virginislandsbritish: 'VG',
  virginislandsus: 'VI',
};

const missing = [];
function countryCode(name) {
  const key = normalise(name);
  if (key === 'europeanunion') return undefined;
  const code = ALIASES[key] ?? byName.get(key);
  if (!code) missing.push(name);
  return code;
}

const lines = [];
for (const code of [...BILLED].sort()) {
  const entry = currencyCodes.code(code);
  if (!entry) throw new Error(`currency-codes has no ${code}`);
  const countries = [...new Set(entry.countries.map(countryCode).filter((country) => country !== undefined))].sort();
  lines.push(
    `  ${code}: { name: '${entry.currency.replace(/'/g, "\\'")}', minorUnits: ${entry.digits}, countries: [${countries.map((country) => `'${country}'`).join(', ')}] },`,
  );
}

if (missing.length > 0) throw new Error(`No ISO 3166 code for: ${missing.join('; ')}`);

const text = `/**
 * @module
 * ISO 4217 data for the currencies Drawdown bills in. GENERATED from currency-codes@${version}
 * by scripts/generate-currencies.mjs; do not edit by hand (iso-4217.test.ts checks it against
 * the package). Minor units are ISO 4217's, not Intl's: ICU says 0 for HUF where ISO says 2.
 * Countries are ISO 3166-1 alpha-2 codes of the places ISO lists for the currency.
 */

export const ISO_4217 = {
${lines.join('\n')}
} as const satisfies Record<string, { readonly name: string; readonly minorUnits: number; readonly countries: readonly string[] }>;
`;
writeFileSync(join(import.meta.dirname, '..', 'src', 'money', 'iso-4217.ts'), text);
