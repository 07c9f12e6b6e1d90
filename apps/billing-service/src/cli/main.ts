/**
 * @module
 * The `drawdown` command: `serve`, `accounts …` and `keys …`. Commands other than `serve` open
 * the same data folder or database as the running server and work beside it.
 */
import { parseArgs } from 'node:util';
import { BillingError, ENVIRONMENTS, type Environment } from '@drawdown/billing-core';
import { composeServices } from '../compose-services.js';
import { resolveServiceConfig } from '../config.js';
import { ensureDemoAccount } from '../demo-account.js';
import { startService } from '../server.js';
import { runClockCommand } from './clock-command.js';
import { printResult } from './output.js';

const USAGE = `Usage: drawdown <command> [options]

Commands:
  serve                         Start the billing API (live and sandbox)
  accounts create [--name NAME] [--early-access]
  accounts list
  keys create --account ID --env live|sandbox --permission NAME [--permission NAME …] [--name NAME] [--expires-at TIME]
  keys revoke KEY_ID
  keys list --account ID
  clock show --account ID       Read the account's sandbox clock
  clock advance --account ID (--by 30d | --to TIME)
                                Move the sandbox clock forward, running every renewal and change that falls due

Storage options (every command):
  --data-dir DIR                SQLite data folder (default ./data; env DRAWDOWN_DATA_DIR)
  --database-url URL            PostgreSQL instead of SQLite (env DRAWDOWN_DATABASE_URL)

serve options:
  --host HOST                   Interface to listen on (default 127.0.0.1; env DRAWDOWN_HOST)
  --live-port PORT              Live API port (default 8080; env DRAWDOWN_LIVE_PORT)
  --sandbox-port PORT           Sandbox API port (default 8081; env DRAWDOWN_SANDBOX_PORT)
  --live-public-url URL         Base URL advertised in live pagination links (env DRAWDOWN_LIVE_PUBLIC_URL)
  --sandbox-public-url URL      Base URL advertised in sandbox links (env DRAWDOWN_SANDBOX_PUBLIC_URL)
  --rate-limit N/WINDOW|off     Requests per client IP, e.g. 1200/10s (default; env DRAWDOWN_RATE_LIMIT)
  --trust-proxy                 Take the client IP from X-Forwarded-For (env DRAWDOWN_TRUST_PROXY=true)
  --redis-url URL               Share rate-limit counts between processes through Redis (env DRAWDOWN_REDIS_URL)
  --allow-private-webhooks      Deliver live webhooks to loopback/private addresses too; local development only
                                (env DRAWDOWN_ALLOW_PRIVATE_WEBHOOKS=true; the sandbox always allows them)

Add --json for machine-readable output. Permission names: product.read, product.write, … or all.`;

const OPTIONS = {
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  host: { type: 'string' },
  'live-port': { type: 'string' },
  'sandbox-port': { type: 'string' },
  'live-public-url': { type: 'string' },
  'sandbox-public-url': { type: 'string' },
  'rate-limit': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  'redis-url': { type: 'string' },
  'allow-private-webhooks': { type: 'boolean' },
  name: { type: 'string' },
  'early-access': { type: 'boolean' },
  account: { type: 'string' },
  env: { type: 'string' },
  permission: { type: 'string', multiple: true },
  'expires-at': { type: 'string' },
  by: { type: 'string' },
  to: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

class UsageError extends Error {}

export async function main(argv: readonly string[]): Promise<number> {
  let json = false;
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
    json = values.json === true;
    const [command, subcommand, ...rest] = positionals;
    if (values.help || command === undefined || command === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return command === undefined && !values.help ? 1 : 0;
    }
    const config = resolveServiceConfig(values);
    if (command === 'serve') return await serve(config);
    const services = await composeServices(config);
    try {
      switch (`${command} ${subcommand ?? ''}`) {
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
              process.stdout.write(
                `${account.id}  ${account.earlyAccess ? 'early-access' : '            '}  ${account.name}\n`,
              );
          return 0;
        }
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
              process.stdout.write(
                `${key.id}  ${key.environment.padEnd(7)}  ${key.revokedAt ? 'revoked' : 'active '}  ${key.name}\n`,
              );
          return 0;
        }
        default:
          throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
      }
    } finally {
      await services.store.close();
    }
  } catch (error) {
    return reportFailure(error, json);
  }
}

function reportFailure(error: unknown, json: boolean): number {
  // parseArgs refuses unknown options and missing values with ERR_PARSE_ARGS_* codes: bad usage too.
  const badArguments = String((error as { code?: unknown } | null)?.code ?? '').startsWith('ERR_PARSE_ARGS');
  const code =
    error instanceof BillingError ? error.code : error instanceof UsageError || badArguments ? 'usage' : 'error';
  const message = error instanceof Error ? error.message : String(error);
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  else process.stderr.write(`drawdown: ${message}${code === 'usage' ? `\n\n${USAGE}` : ''}\n`);
  return code === 'usage' ? 2 : 1;
}

async function serve(config: ReturnType<typeof resolveServiceConfig>): Promise<number> {
  const services = await composeServices(config);
  const demo = await ensureDemoAccount(services);
  const service = await startService(services, config);
  const engine = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  process.stdout.write(
    `Drawdown billing service (${engine})\n  live:    ${service.liveUrl}\n  sandbox: ${service.sandboxUrl}\n`,
  );
  if (demo) {
    process.stdout.write(
      `\nCreated demo account ${demo.accountId} (early access). Its API keys are shown once:\n` +
        `  live:    ${demo.liveKey}\n  sandbox: ${demo.sandboxKey}\n`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await service.close();
  return 0;
}
