/**
 * @module
 * The `drawdown` command: `serve`, `init`, `migrate`, `backup`, `accounts …`, `keys …` and
 * `clock …`. Commands other than `serve` open the same data folder or database as the running
 * server and work beside it; all of them refuse a schema that is not this build's unless
 * --migrate is given (`migrate` itself excepted).
 */
import { parseArgs } from 'node:util';
import { BillingError, ENVIRONMENTS, type Environment } from '@drawdown/billing-core';
import { composeServices, SchemaMismatch } from '../compose-services.js';
import { resolveServiceConfig, settingOptions, settingUsage } from '../config.js';
import { serviceVersion } from '../operations/version.js';
import { runClockCommand } from './clock-command.js';
import { checkKeysFile, type DemoOptions, makeDemoAccount } from './demo-command.js';
import { EMAIL_SETTINGS_ACTIONS, runEmailSettingsCommand } from './email-settings-command.js';
import { BackupUsage, runBackup, runMigrate, runMigrateStatus } from './operations-commands.js';
import { type CliIo, cliIo, printResult, withCliIo } from './output.js';
import { PAYMENT_PROVIDER_ACTIONS, runPaymentProviderCommand } from './payment-provider-command.js';
import { runSellerDetailsCommand, SELLER_DETAILS_ACTIONS } from './seller-details-command.js';
import { runTaxSettingsCommand, TAX_SETTINGS_ACTIONS } from './tax-settings-command.js';

const USAGE = `Usage: drawdown <command> [options]

Commands:
  serve [--demo [--demo-live-key] [--keys-file FILE]]
                                Start the billing API (live and sandbox), the workers and the
                                operations endpoints; --demo makes the demo account first (see init)
  init [--demo-live-key [--live-tax location|none]] [--keys-file FILE]
                                Make the demo account (early access) with an all-permission sandbox
                                key, once per installation; a live key only with --demo-live-key;
                                --live-tax records its live tax choice (live charges wait for one)
  migrate                       Apply pending migrations
  migrate status                Show applied and pending migrations (exit 3 unless current)
  backup FILE                   Copy the SQLite database online (PostgreSQL: pg_dump, docs/deployment.md)
  accounts create [--name NAME] [--early-access]
  accounts list
  accounts payment-provider show --account ID
  accounts payment-provider set --account ID --provider stripe [--stripe-secret-key KEY]
                                [--stripe-webhook-secret SECRET] [--stripe-publishable-key KEY]
                                [--stripe-api-base URL]
                                The account's live payments go through Stripe (the key and the secret
                                default to STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET; prefer those
                                to flags, which other users of the machine can read); secrets are
                                never shown again in full; the publishable key (pk_…) lets the
                                checkout page take cards with Stripe.js
  accounts payment-provider remove --account ID [--force]
                                Live goes back to recording reported payments; refused while a
                                payment or refund waits for the provider's answer, unless --force
  accounts seller-details show --account ID [--env live|sandbox]
  accounts seller-details set --account ID [--env live|sandbox] [--legal-name NAME] [--first-line TEXT]
                                [--second-line TEXT] [--city CITY] [--postal-code CODE] [--region REGION]
                                [--country CC] [--tax-id ID] [--company-number NUMBER] [--email EMAIL]
                                [--logo FILE.png|FILE.jpg | --remove-logo] [--tax-currency CODE|none]
                                [--iban IBAN] [--bic BIC] [--account-name NAME] [--account-number NUMBER]
                                [--sort-code CODE] [--payment-text TEXT] [--remove-payment-instructions]
                                [--terms-url URL|none] [--privacy-url URL|none]
                                [--refund-policy-url URL|none] [--contact-url URL|none]
                                The seller invoices and credit notes name (both environments unless
                                --env); only the fields given change, address flags replace the address,
                                payment flags replace the bank details (ADR 1110); the checkout links to
                                the http(s) pages (ADR 1113)
  accounts seller-details clear --account ID [--env live|sandbox]
                                Documents name the account alone again
  accounts tax-settings show --account ID --env live|sandbox
  accounts tax-settings set --account ID --env live|sandbox (--no-tax | [--rate-source location|account]
                                [--default-rate RATE]) [--tax-mode external|internal|location]
                                How tax is computed (ADR 1439): live charges are refused until the live
                                settings are chosen once; --no-tax records the choice of charging none
  accounts email-settings show --account ID [--env live|sandbox]
  accounts email-settings set --account ID [--env live|sandbox] [--sender-name NAME] [--sender-address EMAIL]
                                [--reply-to EMAIL] [--enabled-emails KIND,KIND… | all | none]
                                [--renewal-reminder-days DAYS] [--renewal-reminders yearly|all]
                                Who customer emails come from and which are sent (both environments
                                unless --env; an empty value clears a field)
  keys create --account ID --env live|sandbox --permission NAME [--permission NAME …] [--name NAME] [--expires-at TIME]
  keys revoke KEY_ID
  keys list --account ID
  clock show --account ID       Read the account's sandbox clock
  clock advance --account ID (--by 30d | --to TIME)
                                Move the sandbox clock forward, running every renewal and change that falls due
  version                       Print the version (also --version)

Settings (every command; docs/configuration.md):
${settingUsage()}

Add --json for machine-readable output. Permission names: product.read, product.write, … or all.`;

const OPTIONS = {
  ...settingOptions(),
  demo: { type: 'boolean' },
  'demo-live-key': { type: 'boolean' },
  'keys-file': { type: 'string' },
  'live-tax': { type: 'string' },
  version: { type: 'boolean' },
  name: { type: 'string' },
  'early-access': { type: 'boolean' },
  account: { type: 'string' },
  env: { type: 'string' },
  permission: { type: 'string', multiple: true },
  'expires-at': { type: 'string' },
  by: { type: 'string' },
  to: { type: 'string' },
  provider: { type: 'string' },
  'stripe-secret-key': { type: 'string' },
  'stripe-webhook-secret': { type: 'string' },
  'stripe-publishable-key': { type: 'string' },
  'stripe-api-base': { type: 'string' },
  'legal-name': { type: 'string' },
  'first-line': { type: 'string' },
  'second-line': { type: 'string' },
  city: { type: 'string' },
  'postal-code': { type: 'string' },
  region: { type: 'string' },
  country: { type: 'string' },
  'tax-id': { type: 'string' },
  'company-number': { type: 'string' },
  email: { type: 'string' },
  logo: { type: 'string' },
  'remove-logo': { type: 'boolean' },
  iban: { type: 'string' },
  bic: { type: 'string' },
  'account-name': { type: 'string' },
  'account-number': { type: 'string' },
  'sort-code': { type: 'string' },
  'payment-text': { type: 'string' },
  'remove-payment-instructions': { type: 'boolean' },
  'tax-currency': { type: 'string' },
  'terms-url': { type: 'string' },
  'privacy-url': { type: 'string' },
  'refund-policy-url': { type: 'string' },
  'contact-url': { type: 'string' },
  'no-tax': { type: 'boolean' },
  'tax-mode': { type: 'string' },
  'rate-source': { type: 'string' },
  'default-rate': { type: 'string' },
  'sender-name': { type: 'string' },
  'sender-address': { type: 'string' },
  'reply-to': { type: 'string' },
  'enabled-emails': { type: 'string' },
  'renewal-reminder-days': { type: 'string' },
  'renewal-reminders': { type: 'string' },
  force: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

/**
 * Runs one command and answers its exit code. `io` replaces the process's output and environment
 * (the tests run most commands in their own process this way; `bin/drawdown.js` gives none).
 */
export function main(argv: readonly string[], io?: CliIo): Promise<number> {
  return withCliIo(io, () => run(argv));
}

async function run(argv: readonly string[]): Promise<number> {
  let json = false;
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
    json = values.json === true;
    const [command, subcommand, ...rest] = positionals;
    if (values.version || command === 'version') {
      cliIo().stdout(json ? `${JSON.stringify({ version: serviceVersion() })}\n` : `drawdown ${serviceVersion()}\n`);
      return 0;
    }
    if (values.help || command === undefined || command === 'help') {
      cliIo().stdout(`${USAGE}\n`);
      return command === undefined && !values.help ? 1 : 0;
    }
    const config = resolveServiceConfig(values, cliIo().env);
    const liveTax = values['live-tax'];
    if (liveTax !== undefined && liveTax !== 'location' && liveTax !== 'none')
      throw new UsageError('--live-tax must be location or none');
    if (liveTax !== undefined && values['demo-live-key'] !== true)
      throw new UsageError('--live-tax goes with --demo-live-key');
    const demo: DemoOptions = {
      liveKey: values['demo-live-key'] === true,
      keysFile: values['keys-file'],
      json,
      liveTax,
    };
    if ((values['demo-live-key'] || values['keys-file'] !== undefined) && !(command === 'init' || values.demo))
      throw new UsageError('--demo-live-key and --keys-file go with init or serve --demo');
    if (command === 'serve') {
      if (values.demo) checkKeysFile(demo);
      // Loaded only for serve: the HTTP apps, workers and operations server are most of the module
      // graph, and every other command is a short process that should start quickly.
      const { runServe } = await import('./serve-command.js');
      return await runServe(config, values.demo ? demo : null);
    }
    if (values.demo) throw new UsageError('--demo goes with serve; use drawdown init to make the demo account');
    if (command === 'migrate' && subcommand === undefined) return await runMigrate(config, json);
    if (command === 'migrate' && subcommand === 'status') return await runMigrateStatus(config, json);
    if (command === 'backup') return await runBackup(config, subcommand, json);
    if (command === 'init') checkKeysFile(demo);
    checkUsage(positionals, values);
    const services = await composeServices(config, { schema: config.migrateOnStart ? 'migrate' : 'require' });
    try {
      switch (`${command} ${subcommand ?? ''}`) {
        case 'init ':
          await makeDemoAccount(services, demo);
          return 0;
        case 'accounts create': {
          // The issue's form is `accounts create [--early-access]`: a name is optional.
          const account = await services.useCases.createAccount({
            name: values.name ?? 'Unnamed account',
            earlyAccess: values['early-access'] === true,
          });
          printResult(json, { account }, [
            ['Account', account.id],
            ['Name', account.name],
            ['Early access', String(account.earlyAccess)],
          ]);
          return 0;
        }
        case 'accounts list': {
          const accounts = await services.useCases.listAccounts();
          if (json) printResult(true, { accounts }, []);
          else
            for (const account of accounts)
              cliIo().stdout(
                `${account.id}  ${account.earlyAccess ? 'early-access' : '            '}  ${account.name}\n`,
              );
          return 0;
        }
        case 'accounts payment-provider':
          return await runPaymentProviderCommand(services.useCases, rest[0], {
            account: values.account as string,
            provider: values.provider,
            secretKey: values['stripe-secret-key'] ?? cliIo().env.STRIPE_SECRET_KEY,
            webhookSecret: values['stripe-webhook-secret'] ?? cliIo().env.STRIPE_WEBHOOK_SECRET,
            publishableKey: values['stripe-publishable-key'] ?? cliIo().env.STRIPE_PUBLISHABLE_KEY,
            apiBase: values['stripe-api-base'],
            force: values.force === true,
            json,
          });
        case 'accounts email-settings':
          return await runEmailSettingsCommand(services.useCases, rest[0], {
            account: values.account as string,
            env: values.env,
            senderName: values['sender-name'],
            senderAddress: values['sender-address'],
            replyTo: values['reply-to'],
            enabledEmails: values['enabled-emails'],
            renewalReminderDays: values['renewal-reminder-days'],
            renewalReminders: values['renewal-reminders'],
            json,
          });
        case 'accounts seller-details':
          return await runSellerDetailsCommand(services.useCases, rest[0], {
            account: values.account as string,
            env: values.env,
            legalName: values['legal-name'],
            firstLine: values['first-line'],
            secondLine: values['second-line'],
            city: values.city,
            postalCode: values['postal-code'],
            region: values.region,
            country: values.country,
            taxId: values['tax-id'],
            companyNumber: values['company-number'],
            email: values.email,
            logo: values.logo,
            removeLogo: values['remove-logo'] === true,
            iban: values.iban,
            bic: values.bic,
            accountName: values['account-name'],
            accountNumber: values['account-number'],
            sortCode: values['sort-code'],
            paymentText: values['payment-text'],
            removePaymentInstructions: values['remove-payment-instructions'] === true,
            taxCurrency: values['tax-currency'],
            termsUrl: values['terms-url'],
            privacyUrl: values['privacy-url'],
            refundPolicyUrl: values['refund-policy-url'],
            contactUrl: values['contact-url'],
            json,
          });
        case 'accounts tax-settings':
          return await runTaxSettingsCommand(services.useCases, rest[0], {
            account: values.account as string,
            env: values.env,
            taxMode: values['tax-mode'],
            rateSource: values['rate-source'],
            defaultRate: values['default-rate'],
            noTax: values['no-tax'] === true,
            json,
          });
        case 'keys create': {
          if (!values.account) throw new UsageError('keys create needs --account');
          const environment = values.env;
          if (!ENVIRONMENTS.includes(environment as Environment))
            throw new UsageError('keys create needs --env live or --env sandbox');
          const permissions = (values.permission ?? []).flatMap((item) => item.split(',')).map((item) => item.trim());
          const { key, token } = await services.useCases.createApiKey({
            accountId: values.account,
            environment: environment as Environment,
            name: values.name ?? `${environment} key`,
            permissions,
            expiresAt: values['expires-at'] ?? null,
          });
          const { secretHash: _hidden, ...shown } = key;
          printResult(json, { key: shown, token }, [
            ['Key', key.id],
            ['Environment', key.environment],
            ['Permissions', key.permissions.join(', ')],
            ['Expires', key.expiresAt ?? 'never'],
            ['Token', `${token}  (shown once; store it now)`],
          ]);
          return 0;
        }
        case 'keys revoke': {
          const keyId = rest[0] ?? values.name;
          if (!keyId) throw new UsageError('keys revoke needs the key id (apikey_…)');
          await services.useCases.revokeApiKey(keyId);
          printResult(json, { revoked: keyId }, [['Revoked', keyId]]);
          return 0;
        }
        case 'clock show':
        case 'clock advance':
          return await runClockCommand(services.useCases, subcommand, {
            account: values.account,
            by: values.by,
            to: values.to,
            json,
          });
        case 'keys list': {
          if (!values.account) throw new UsageError('keys list needs --account');
          const keys = (await services.useCases.listApiKeys(values.account)).map(
            ({ secretHash: _hidden, ...key }) => key,
          );
          if (json) printResult(true, { keys }, []);
          else
            for (const key of keys)
              cliIo().stdout(
                `${key.id}  ${key.environment.padEnd(7)}  ${key.revokedAt ? 'revoked' : 'active '}  ${key.name}\n`,
              );
          return 0;
        }
        default:
          throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
      }
    } finally {
      // A logo set from the CLI is decoded on a document thread (ADR 1491).
      await services.documents.close();
      await services.store.close();
    }
  } catch (error) {
    return reportFailure(error, json);
  }
}

const STORE_COMMANDS = new Set([
  'init ',
  'accounts create',
  'accounts list',
  'accounts payment-provider',
  'accounts seller-details',
  'accounts tax-settings',
  'accounts email-settings',
  'keys create',
  'keys revoke',
  'keys list',
  'clock show',
  'clock advance',
]);

/** Refuses bad usage before the data folder is opened, so it is reported as usage whatever the schema. */
function checkUsage(
  positionals: readonly string[],
  values: { account?: string | undefined; env?: string | undefined; force?: boolean | undefined },
): void {
  const [command, subcommand, action] = positionals;
  const name = `${command} ${subcommand ?? ''}`;
  if (!STORE_COMMANDS.has(name)) throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
  if (values.force && !(name === 'accounts payment-provider' && action === 'remove'))
    throw new UsageError('--force is only for accounts payment-provider remove');
  if ((name === 'keys create' || name === 'keys list') && !values.account)
    throw new UsageError(`${name} needs --account`);
  if (name === 'accounts payment-provider') {
    if (!PAYMENT_PROVIDER_ACTIONS.includes(action ?? ''))
      throw new UsageError('accounts payment-provider needs show, set or remove');
    if (!values.account) throw new UsageError(`accounts payment-provider ${action} needs --account`);
  }
  if (name === 'accounts seller-details') {
    if (!SELLER_DETAILS_ACTIONS.includes(action ?? ''))
      throw new UsageError('accounts seller-details needs show, set or clear');
    if (!values.account) throw new UsageError(`accounts seller-details ${action} needs --account`);
    if (values.env !== undefined && !ENVIRONMENTS.includes(values.env as Environment))
      throw new UsageError('--env must be live or sandbox');
  }
  if (name === 'accounts tax-settings') {
    if (!TAX_SETTINGS_ACTIONS.includes(action ?? '')) throw new UsageError('accounts tax-settings needs show or set');
    if (!values.account) throw new UsageError(`accounts tax-settings ${action} needs --account`);
    if (!ENVIRONMENTS.includes(values.env as Environment))
      throw new UsageError('accounts tax-settings needs --env live or --env sandbox');
  }
  if (name === 'accounts email-settings') {
    if (!EMAIL_SETTINGS_ACTIONS.includes(action ?? ''))
      throw new UsageError('accounts email-settings needs show or set');
    if (!values.account) throw new UsageError(`accounts email-settings ${action} needs --account`);
    if (values.env !== undefined && !ENVIRONMENTS.includes(values.env as Environment))
      throw new UsageError('--env must be live or sandbox');
  }
  if (name === 'keys create' && !ENVIRONMENTS.includes(values.env as Environment))
    throw new UsageError('keys create needs --env live or --env sandbox');
}

function reportFailure(error: unknown, json: boolean): number {
  // parseArgs refuses unknown options and missing values with ERR_PARSE_ARGS_* codes: bad usage too.
  const badArguments = String((error as { code?: unknown } | null)?.code ?? '').startsWith('ERR_PARSE_ARGS');
  const code =
    error instanceof BillingError
      ? error.code
      : error instanceof UsageError || error instanceof BackupUsage || badArguments
        ? 'usage'
        : error instanceof SchemaMismatch
          ? 'schema_mismatch'
          : 'error';
  const message = error instanceof Error ? error.message : String(error);
  if (json) cliIo().stdout(`${JSON.stringify({ error: { code, message } })}\n`);
  else cliIo().stderr(`drawdown: ${message}${code === 'usage' ? `\n\n${USAGE}` : ''}\n`);
  return code === 'usage' ? 2 : 1;
}
