/**
 * @module
 * Starts the built billing service (`drawdown serve`) as a child process pinned to the server
 * core, on ports the system picks, with rate limits off, migrating the fresh database and asking
 * for the demo account (with a live key), whose keys it reads from the banner, as it reads the
 * operations address whose /metrics the bench scrapes.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVER_CORE, startProcess } from './processes.mjs';

/** This checkout's billing service; another build can be measured beside it (BENCH_BASELINE). */
export const CURRENT_SERVICE_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The core and service modules of the build in `serviceDir`, for the fixtures: a baseline build
 * is set up with its own code.
 */
export async function serviceModules(serviceDir) {
  const resolve = (name) => pathToFileURL(createRequire(join(serviceDir, 'package.json')).resolve(name)).href;
  const [core, service] = await Promise.all([
    import(resolve('@drawdown/billing-core')),
    import(pathToFileURL(join(serviceDir, 'dist/index.js')).href),
  ]);
  return { startSubscription: core.startSubscription, composeServices: service.composeServices };
}

/**
 * @param {{ serviceDir: string, dataDir: string, databaseUrl?: string, profileDir?: string, profileName?: string, extraArgs?: string[] }} options
 */
export async function startBillingService(options) {
  const nodeArgs = options.profileDir
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${options.profileDir}`,
        `--cpu-prof-name=${options.profileName ?? 'service.cpuprofile'}`,
      ]
    : [];
  const args = [
    ...nodeArgs,
    join(options.serviceDir, 'bin/drawdown.js'),
    'serve',
    '--rate-limit',
    'off',
    '--live-port',
    '0',
    '--sandbox-port',
    '0',
    '--ops-address',
    '127.0.0.1:0',
    '--migrate',
    '--demo',
    '--demo-live-key',
    '--data-dir',
    options.dataDir,
    ...(options.databaseUrl ? ['--database-url', options.databaseUrl] : []),
    ...(options.extraArgs ?? []),
  ];
  const handle = startProcess({ core: SERVER_CORE, command: process.execPath, args });
  const [, liveUrl] = await handle.waitFor(/live:\s+(http:\/\/\S+)/);
  const [, opsUrl] = await handle.waitFor(/operations: (http:\/\/\S+)/);
  const [, accountId] = await handle.waitFor(/Created demo account (acc_\w+)/);
  const [, liveKey] = await handle.waitFor(/live:\s+(pdl_live_\S+)/);
  return { handle, pid: handle.child.pid, liveUrl, opsUrl, accountId, liveKey };
}
