/**
 * @module
 * `billing-portal serve`: the portal deployed on its own, signing customers in through customer
 * portal session links (ADR 1523); settings in `PORTAL_SERVE_SETTINGS`, from flags or the
 * environment (a flag wins). `billing-portal demo`: the demo against a billing service's sandbox:
 * `--billing-sandbox-url` / `DRAWDOWN_SANDBOX_URL`, `--sandbox-key` / `DRAWDOWN_SANDBOX_KEY`,
 * `--port` / `PORTAL_PORT` (default 3000), `--host`, `--public-url`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startPortalDemo } from './demo/start-portal-demo.js';
import { keyEnvironment, startPortalServer } from './standalone/start-portal-server.js';

/** One setting of `billing-portal serve`: its flag, its variable, its default and what it does. */
export interface PortalServeSetting {
  readonly flag: string;
  readonly variable: string;
  readonly placeholder: string | null;
  readonly fallback: string;
  readonly description: string;
}

/** The settings of `billing-portal serve`, documented in docs/configuration.md (a test keeps them in step). */
export const PORTAL_SERVE_SETTINGS: readonly PortalServeSetting[] = [
  {
    flag: 'billing-url',
    variable: 'DRAWDOWN_BILLING_URL',
    placeholder: 'URL',
    fallback: '(required)',
    description: "The billing service's API address for the key's environment (live or sandbox).",
  },
  {
    flag: 'api-key',
    variable: 'DRAWDOWN_PORTAL_KEY',
    placeholder: 'KEY',
    fallback: '(required, or the file)',
    description:
      "The portal's API key, with the permissions the portal's README lists (`customer_portal_session.read` among them); its environment is the portal's.",
  },
  {
    flag: 'api-key-file',
    variable: 'DRAWDOWN_PORTAL_KEY_FILE',
    placeholder: 'FILE',
    fallback: '(unset)',
    description: 'A file holding the API key (surrounding whitespace ignored), instead of the key itself.',
  },
  {
    flag: 'port',
    variable: 'PORTAL_PORT',
    placeholder: 'PORT',
    fallback: '`3000`',
    description: 'The port to listen on; `0` picks a free one.',
  },
  {
    flag: 'host',
    variable: 'PORTAL_HOST',
    placeholder: 'HOST',
    fallback: '`127.0.0.1`',
    description: 'The address to listen on (`0.0.0.0` in a container).',
  },
  {
    flag: 'public-url',
    variable: 'PORTAL_PUBLIC_URL',
    placeholder: 'URL',
    fallback: '`http://HOST:PORT`',
    description:
      "The address customers use. Over https cookies are Secure with the `__Host-` prefix, and forms are accepted only from this origin. The billing service's `--live-portal-url` (or `--sandbox-portal-url`) is this plus `/billing`.",
  },
  {
    flag: 'sign-in-url',
    variable: 'PORTAL_SIGN_IN_URL',
    placeholder: 'URL',
    fallback: '(unset)',
    description:
      "Where `/` sends a visitor without a session: the seller's page that hands out portal links. Unset, `/` says to open the link from the seller's application.",
  },
  {
    flag: 'allow-pause',
    variable: 'PORTAL_ALLOW_PAUSE',
    placeholder: null,
    fallback: 'off',
    description:
      'Customers may pause and resume their subscriptions (ADR 1441); cancel, plan changes and billing details are always on.',
  },
];

/**
 * The standalone portal's section of docs/configuration.md, rendered from `PORTAL_SERVE_SETTINGS`
 * (`npm run docs` appends it to the service's settings; a test compares the file's end with it).
 */
export function portalConfigurationSection(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = PORTAL_SERVE_SETTINGS.map(
    (setting) =>
      `| \`--${setting.flag}${setting.placeholder ? ` ${setting.placeholder}` : ''}\` | \`${setting.variable}\` | ${cell(setting.fallback)} | ${cell(setting.description)} |`,
  );
  return `## The standalone billing portal

<!-- Generated from apps/billing-portal/src/cli.ts by \`npm run docs\`. -->

\`billing-portal serve\` (\`node apps/billing-portal/bin/billing-portal.js serve\`) runs the portal on
its own, for one environment, signing customers in through customer portal session links (ADR
1523). A flag wins over the variable; an empty variable counts as unset.

| Flag | Variable | Default | What it does |
| --- | --- | --- | --- |
${rows.join('\n')}
`;
}

const USAGE = `Usage:
  billing-portal serve --billing-url URL (--api-key KEY | --api-key-file FILE) [--port 3000] [--host 127.0.0.1]
                       [--public-url URL] [--sign-in-url URL] [--allow-pause]
  billing-portal demo [--billing-sandbox-url URL] [--sandbox-key KEY] [--port 3000] [--host 127.0.0.1] [--public-url URL]

serve environment: ${serveVariables()}.
demo environment: DRAWDOWN_SANDBOX_URL, DRAWDOWN_SANDBOX_KEY, PORTAL_PORT.`;

function serveVariables(): string {
  return PORTAL_SERVE_SETTINGS.map((setting) => setting.variable).join(', ');
}

class UsageError extends Error {}

function httpUrl(text: string, name: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${name} must be an http or https URL; got ${text}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    throw new UsageError(`${name} must be an http or https URL without credentials; got ${text}`);
  }
  return text.replace(/\/+$/, '');
}

function portNumber(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new UsageError(`--port must be a port number; got ${text}.`);
  return port;
}

/** `billing-portal serve`: settings from flags, then the environment; refused with a clear message (exit 2). */
async function serveCommand(rest: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...rest],
      options: Object.fromEntries(
        PORTAL_SERVE_SETTINGS.map((setting) => [setting.flag, { type: setting.placeholder ? 'string' : 'boolean' }]),
      ) as Record<string, { type: 'string' | 'boolean' }>,
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const read = (flag: string): string | undefined => {
    const setting = PORTAL_SERVE_SETTINGS.find((entry) => entry.flag === flag);
    const given = values[flag];
    if (typeof given === 'string') return given;
    if (given === true) return 'true';
    const variable = setting ? env[setting.variable] : undefined;
    return variable === '' ? undefined : variable;
  };
  try {
    const billingUrlText = read('billing-url');
    if (!billingUrlText) throw new UsageError('billing-portal serve needs --billing-url (DRAWDOWN_BILLING_URL).');
    const billingUrl = httpUrl(billingUrlText, '--billing-url');
    const keyText = read('api-key');
    const keyFile = read('api-key-file');
    if (keyText && keyFile) throw new UsageError('Give --api-key or --api-key-file, not both.');
    let apiKey = keyText;
    if (keyFile) {
      try {
        apiKey = readFileSync(keyFile, 'utf8').trim();
      } catch (error) {
        throw new UsageError(`--api-key-file ${keyFile} cannot be read: ${(error as Error).message}`);
      }
    }
    if (!apiKey) throw new UsageError('billing-portal serve needs --api-key (DRAWDOWN_PORTAL_KEY) or --api-key-file.');
    if (!keyEnvironment(apiKey)) {
      throw new UsageError('The API key is not a Drawdown API key (pdl_live_apikey_… or pdl_sdbx_apikey_…).');
    }
    const publicUrl = read('public-url');
    const signInUrl = read('sign-in-url');
    const allowPause = read('allow-pause');
    if (allowPause !== undefined && allowPause !== 'true' && allowPause !== 'false') {
      throw new UsageError(`PORTAL_ALLOW_PAUSE must be true or false; got ${allowPause}`);
    }
    const server = await startPortalServer({
      billingUrl,
      apiKey,
      port: portNumber(read('port') ?? '3000'),
      host: read('host') ?? '127.0.0.1',
      ...(publicUrl ? { publicUrl: httpUrl(publicUrl, '--public-url') } : {}),
      ...(signInUrl ? { signInUrl: httpUrl(signInUrl, '--sign-in-url') } : {}),
      allowPause: allowPause === 'true',
    });
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
}

/** Runs the command line; resolves to the exit code (the servers keep running until SIGINT/SIGTERM). */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serveCommand(rest, env);
  if (command !== 'demo') {
    process.stderr.write(`${USAGE}\n`);
    return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
  }
  const { values } = parseArgs({
    args: [...rest],
    options: {
      'billing-sandbox-url': { type: 'string' },
      'sandbox-key': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'public-url': { type: 'string' },
    },
    strict: true,
  });
  const billingSandboxUrl = values['billing-sandbox-url'] ?? env.DRAWDOWN_SANDBOX_URL;
  const sandboxKey = values['sandbox-key'] ?? env.DRAWDOWN_SANDBOX_KEY;
  if (!billingSandboxUrl || !sandboxKey) {
    process.stderr.write(`The demo needs the billing service's sandbox URL and a sandbox key.\n${USAGE}\n`);
    return 2;
  }
  const port = Number(values.port ?? env.PORTAL_PORT ?? '3000');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`--port must be a port number; got ${values.port}.\n`);
    return 2;
  }
  const demo = await startPortalDemo({
    billingSandboxUrl,
    sandboxKey,
    port,
    ...(values.host ? { host: values.host } : {}),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
  });
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await demo.close();
  return 0;
}
