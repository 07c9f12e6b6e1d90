/**
 * @module
 * `drawdown accounts tax-settings show|set --account ID --env live|sandbox` (ADR 1439): the
 * operator reads or records an account environment's tax settings beside the API's
 * `PATCH /tax-settings`. A live charge waits until the live settings are recorded once;
 * `--no-tax` records the explicit choice of charging no tax, `--rate-source location` tax by the
 * buyer's location. `set` changes only what it is given.
 */
import {
  BillingError,
  type Caller,
  ENVIRONMENTS,
  type Environment,
  type TaxSettings,
  type UpdateTaxSettingsInput,
  type UseCases,
} from '@drawdown/billing-core';
import { printResult } from './output.js';

export const TAX_SETTINGS_ACTIONS: readonly string[] = ['show', 'set'];

export interface TaxSettingsOptions {
  readonly account: string;
  readonly env: string | undefined;
  readonly taxMode: string | undefined;
  readonly rateSource: string | undefined;
  readonly defaultRate: string | undefined;
  readonly noTax: boolean;
  readonly json: boolean;
}

const TAX_MODES = ['external', 'internal', 'location'] as const;
const RATE_SOURCES = ['account', 'location'] as const;

function changesOf(options: TaxSettingsOptions): UpdateTaxSettingsInput {
  if (options.taxMode !== undefined && !(TAX_MODES as readonly string[]).includes(options.taxMode)) {
    throw new BillingError('invalid_field', `--tax-mode must be one of ${TAX_MODES.join(', ')}`);
  }
  if (options.rateSource !== undefined && !(RATE_SOURCES as readonly string[]).includes(options.rateSource)) {
    throw new BillingError('invalid_field', `--rate-source must be one of ${RATE_SOURCES.join(', ')}`);
  }
  if (options.noTax && (options.rateSource !== undefined || options.defaultRate !== undefined)) {
    throw new BillingError('invalid_field', 'Give --no-tax alone, or --rate-source and --default-rate, not both.');
  }
  const changes: UpdateTaxSettingsInput = options.noTax
    ? { rateSource: 'account', defaultRate: '0', countryRates: [] }
    : {
        ...(options.rateSource === undefined
          ? {}
          : { rateSource: options.rateSource as UpdateTaxSettingsInput['rateSource'] }),
        ...(options.defaultRate === undefined ? {} : { defaultRate: options.defaultRate }),
      };
  const withMode: UpdateTaxSettingsInput =
    options.taxMode === undefined
      ? changes
      : { ...changes, defaultTaxMode: options.taxMode as UpdateTaxSettingsInput['defaultTaxMode'] };
  if (Object.keys(withMode).length === 0) {
    throw new BillingError(
      'invalid_field',
      'tax-settings set needs --no-tax, or at least one of --rate-source, --default-rate, --tax-mode',
    );
  }
  return withMode;
}

function lines(environment: Environment, settings: TaxSettings): [string, string][] {
  const noTax = settings.rateSource === 'account' && settings.defaultRate === '0' && settings.countryRates.length === 0;
  return [
    ['Environment', environment],
    ['Tax mode', settings.defaultTaxMode],
    [
      'Rates',
      settings.rateSource === 'location'
        ? "the buyer's location"
        : noTax
          ? 'no tax'
          : `the account's own (default ${settings.defaultRate})`,
    ],
    [
      'Chosen',
      settings.updatedAt ??
        (environment === 'live' ? 'never (live charges are refused until tax is chosen)' : 'never (the default)'),
    ],
  ];
}

export async function runTaxSettingsCommand(
  useCases: UseCases,
  action: string | undefined,
  options: TaxSettingsOptions,
): Promise<number> {
  if (!ENVIRONMENTS.includes(options.env as Environment)) {
    throw new BillingError('invalid_field', '--env must be live or sandbox');
  }
  const environment = options.env as Environment;
  const account = await useCases.requireAccount(options.account);
  const caller: Caller = { account, scope: { accountId: account.id, environment } };
  const settings =
    action === 'set'
      ? await useCases.updateTaxSettings(caller, changesOf(options))
      : await useCases.getTaxSettings(caller);
  if (options.json) printResult(true, { account: account.id, environment, tax_settings: settings }, []);
  else printResult(false, {}, [['Account', account.id], ...lines(environment, settings)]);
  return 0;
}
