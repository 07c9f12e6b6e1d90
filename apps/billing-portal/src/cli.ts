/**
 * @module
 * `billing-portal demo`: starts the standalone demo against a billing service's sandbox.
 * Settings come from flags or the environment: `--billing-sandbox-url` / `DRAWDOWN_SANDBOX_URL`,
 * `--sandbox-key` / `DRAWDOWN_SANDBOX_KEY`, `--port` / `PORTAL_PORT` (default 3000), `--host`,
 * `--public-url`.
 */
import { parseArgs } from 'node:util';
import { startPortalDemo } from './demo/start-portal-demo.js';

const USAGE = `Usage: billing-portal demo [--billing-sandbox-url URL] [--sandbox-key KEY] [--port 3000] [--host 127.0.0.1] [--public-url URL]

Environment: DRAWDOWN_SANDBOX_URL, DRAWDOWN_SANDBOX_KEY, PORTAL_PORT.`;

/** Runs the command line; resolves to the exit code (the demo keeps running until SIGINT/SIGTERM). */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = argv;
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
