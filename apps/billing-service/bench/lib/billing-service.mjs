/**
 * @module
 * Starts the built billing service (`drawdown serve`) as a child process pinned to the server
 * core, on ports the system picks, with rate limits off, and reads the demo account's keys
 * from its first-start banner.
 */
import { fileURLToPath } from 'node:url';
import { SERVER_CORE, startProcess } from './processes.mjs';

const BIN = fileURLToPath(new URL('../../bin/drawdown.js', import.meta.url));

/**
 * @param {{ dataDir: string, databaseUrl?: string, profileDir?: string, profileName?: string }} options
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
    BIN,
    'serve',
    '--rate-limit',
    'off',
    '--live-port',
    '0',
    '--sandbox-port',
    '0',
    '--data-dir',
    options.dataDir,
    ...(options.databaseUrl ? ['--database-url', options.databaseUrl] : []),
  ];
  const handle = startProcess({ core: SERVER_CORE, command: process.execPath, args });
  const [, liveUrl] = await handle.waitFor(/live:\s+(http:\/\/\S+)/);
  const [, accountId] = await handle.waitFor(/Created demo account (acc_\w+)/);
  const [, liveKey] = await handle.waitFor(/live:\s+(pdl_live_\S+)/);
  return { handle, pid: handle.child.pid, liveUrl, accountId, liveKey };
}
