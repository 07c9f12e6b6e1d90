/**
 * The container image cannot be built here (no Docker engine, no registry), so this test holds
 * the Dockerfile, deploy/compose.yaml and deploy/Caddyfile to the commands the tests run: it
 * reads the image's entrypoint, default command, environment and health check, and the compose
 * services' commands and environment, and runs exactly those against PostgreSQL and Redis:
 * `migrate`, then `serve`, whose health check passes on the operations port Caddy probes, and
 * which exits 0 on SIGTERM.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestStorage, findOrStartRedis, type RedisServer, type TestStorage } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildService, REPO_ROOT } from '../support/cli-process.js';

const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
const compose = readFileSync(join(REPO_ROOT, 'deploy/compose.yaml'), 'utf8');
const caddyfile = readFileSync(join(REPO_ROOT, 'deploy/Caddyfile'), 'utf8');

/** A JSON-array instruction of the final stage (`ENTRYPOINT ["node", …]`). */
function instruction(name: string): string[] {
  const lines = dockerfile.split('\n').filter((line) => line.startsWith(`${name} `) || line.startsWith(`  ${name} `));
  const last = lines.at(-1) ?? '';
  return JSON.parse(last.slice(last.indexOf('['))) as string[];
}

function imageEnvironment(): Record<string, string> {
  const block = /ENV ([\s\S]*?)\nWORKDIR/.exec(dockerfile.slice(dockerfile.lastIndexOf('FROM ')))?.[1] ?? '';
  return Object.fromEntries([...block.matchAll(/(\w+)=(\S+)/g)].map(([, name, value]) => [name ?? '', value ?? '']));
}

function composeCommands(): Record<string, string[]> {
  const commands: Record<string, string[]> = {};
  let service = '';
  for (const line of compose.split('\n')) {
    const named = /^ {2}([\w-]+):$/.exec(line);
    if (named) service = named[1] ?? '';
    const command = /^ {4}command: (\[.*\])$/.exec(line);
    if (command) commands[service] = JSON.parse(command[1] ?? '[]') as string[];
  }
  return commands;
}

function run(command: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  const [file = '', ...args] = command;
  return new Promise((resolve) => {
    execFile(file === 'node' ? process.execPath : file, args, { cwd: REPO_ROOT, env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

describe('the Dockerfile and compose file', () => {
  let storage: TestStorage;
  let redis: RedisServer;
  let serving: ChildProcess | undefined;

  beforeAll(async () => {
    buildService();
    storage = await createTestStorage('postgres');
    redis = await findOrStartRedis();
  }, 180_000);
  afterAll(async () => {
    serving?.kill('SIGKILL');
    await redis?.stop();
    await storage?.dispose();
  });

  it('build with the command the tests build with, and run as a non-root user with a health check', () => {
    expect(dockerfile).toContain('RUN npx tsc -b tsconfig.build.json');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(instruction('ENTRYPOINT')).toEqual(['node', 'apps/billing-service/bin/drawdown.js']);
    expect(instruction('CMD')).toEqual(['serve']);
    // Caddy probes the same operations port the image listens on.
    const opsPort = imageEnvironment().DRAWDOWN_OPS_ADDRESS?.split(':').at(-1);
    // Live, sandbox, and the live API's internal listener for the portal.
    expect(caddyfile.match(/health_port (\d+)/g)?.map((line) => line.split(' ')[1])).toEqual([
      opsPort,
      opsPort,
      opsPort,
    ]);
    expect(composeCommands()).toEqual({ migrate: ['migrate'], 'drawdown-1': ['serve'], 'drawdown-2': ['serve'] });
  });

  it('has no default database password, keeps the data folder in a named volume, and serves https on configured domains', () => {
    // No `docker compose config` here (no compose plugin on this machine): the traps are checked in the text.
    expect(compose).not.toMatch(/POSTGRES_PASSWORD:-/);
    const passwordUses = compose.match(/\$\{POSTGRES_PASSWORD[^}]*\}/g) ?? [];
    expect(passwordUses.length).toBeGreaterThanOrEqual(2);
    for (const use of passwordUses) expect(use).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    // Every Drawdown container (the anchor the services merge) mounts the named volume at /data.
    const anchor = /x-drawdown: &drawdown\n([\s\S]*?)\n\n/.exec(compose)?.[1] ?? '';
    expect(anchor).toMatch(/^ {2}volumes: \[drawdown-data:\/data\]$/m);
    expect(compose).toMatch(/^volumes:\n(?: {2}[\w-]+:\n)*? {2}drawdown-data:$/m);
    expect(imageEnvironment().DRAWDOWN_DATA_DIR).toBe('/data');
    // Caddy's sites are the configured domains (automatic HTTPS), not bare ports; its certificates persist.
    expect(caddyfile).toMatch(/^\{\$DRAWDOWN_LIVE_DOMAIN\} \{$/m);
    expect(caddyfile).toMatch(/^\{\$DRAWDOWN_SANDBOX_DOMAIN\} \{$/m);
    expect(caddyfile).not.toMatch(/^:\d+ \{$/m);
    expect(compose).toContain('caddy-data:/data');
    expect(compose).toMatch(/DRAWDOWN_LIVE_PUBLIC_URL: https:\/\/\$\{DRAWDOWN_LIVE_DOMAIN:\?/);
    // Price search runs from the same image, which carries it.
    expect(compose).toContain('apps/price-search/bin/price-search.js');
    expect(dockerfile).toContain('COPY --from=build /app/apps/price-search ./apps/price-search');
    // So does the standalone billing portal (ADR 1523), with the settings its docs list, behind Caddy.
    expect(dockerfile).toContain('COPY --from=build /app/apps/billing-portal ./apps/billing-portal');
    const portal = /^ {2}portal:\n([\s\S]*?)\n\n/m.exec(compose)?.[1] ?? '';
    expect(portal).toContain('entrypoint: ["node", "apps/billing-portal/bin/billing-portal.js", "serve"]');
    const portalDoc = readFileSync(join(REPO_ROOT, 'docs/configuration.md'), 'utf8').split(
      '## The standalone billing portal',
    )[1];
    const variables = [...portal.matchAll(/^ {6}(\w+):/gm)].map((match) => match[1]);
    expect(variables).toContain('DRAWDOWN_PORTAL_KEY');
    for (const variable of variables) expect(portalDoc, `${variable} is a portal setting`).toContain(`\`${variable}\``);
    expect(caddyfile).toMatch(/^\{\$DRAWDOWN_PORTAL_DOMAIN\} \{\n\treverse_proxy portal:3000$/m);
    expect(compose).toMatch(/DRAWDOWN_LIVE_PORTAL_URL: \$\{DRAWDOWN_LIVE_PORTAL_URL:-\}/);
  });

  it('ships a Prometheus scrape example and alert rules on metrics the service exports', () => {
    const prometheus = readFileSync(join(REPO_ROOT, 'deploy/prometheus.yml'), 'utf8');
    const alerts = readFileSync(join(REPO_ROOT, 'deploy/alerts.yml'), 'utf8');
    expect(prometheus).toContain('/etc/prometheus/alerts.yml');
    // Prometheus cannot parse /readyz's JSON: readiness is the drawdown_ready gauge of /metrics.
    expect(prometheus).not.toContain('metrics_path: /readyz');
    expect(alerts).toMatch(/expr: drawdown_ready == 0 or up\{job="drawdown"\} == 0/);
    const used = new Set([...alerts.matchAll(/\b(drawdown_[a-z_]+)\b/g)].map((match) => match[1]));
    const exported = readFileSync(join(REPO_ROOT, 'apps/billing-service/src/operations/metrics.ts'), 'utf8');
    for (const name of used) expect(exported, `${name} is a metric the service exports`).toContain(`'${name}`);
    for (const alert of [
      'DrawdownNotReady',
      'DrawdownUsageDrawdownLag',
      'DrawdownWebhookBacklog',
      'DrawdownFailedRenewals',
    ])
      expect(alerts).toContain(`alert: ${alert}`);
  });

  it('runs migrate, then serve with a passing health check, then stops cleanly on SIGTERM', async () => {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...imageEnvironment(),
      // The compose file's variables, pointed at this test's PostgreSQL and Redis, on loopback ports the
      // system picks (port 0; a port picked free beforehand can be taken before serve binds it).
      DRAWDOWN_DATABASE_URL: storage.databaseUrl,
      DRAWDOWN_REDIS_URL: redis.url,
      DRAWDOWN_TRUST_PROXY: 'true',
      DRAWDOWN_DATABASE_POOL_SIZE: '10',
      DRAWDOWN_DATA_DIR: storage.dataDir,
      DRAWDOWN_HOST: '127.0.0.1',
      DRAWDOWN_LIVE_PORT: '0',
      DRAWDOWN_SANDBOX_PORT: '0',
      DRAWDOWN_OPS_ADDRESS: '127.0.0.1:0',
    };
    const entrypoint = instruction('ENTRYPOINT');
    const commands = composeCommands();
    const migrated = await run([...entrypoint, ...(commands.migrate ?? [])], env);
    expect(migrated.code, migrated.output).toBe(0);

    const [file = '', ...args] = [...entrypoint, ...instruction('CMD')];
    const child = spawn(file === 'node' ? process.execPath : file, args, {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    serving = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const opsPort = await new Promise<string>((resolve, reject) => {
      const printed = () => /operations: http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1];
      const watch = () => {
        const port = printed();
        if (port) resolve(port);
        else if (child.exitCode !== null) reject(new Error(`serve exited before printing its addresses:\n${output}`));
        else setTimeout(watch, 50);
      };
      watch();
    });
    const check = /CMD (\[.*\])\s*$/m.exec(dockerfile.slice(dockerfile.indexOf('HEALTHCHECK')))?.[1] ?? '[]';
    const healthCommand = (JSON.parse(check) as string[]).map((part) => part.replace(':8088', `:${opsPort}`));
    let healthy = { code: 1, output: '' };
    for (let attempt = 0; attempt < 100 && healthy.code !== 0; attempt += 1) {
      healthy = await run(healthCommand, env);
      if (healthy.code !== 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(healthy.code, output).toBe(0);
    expect(await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text()).toMatch(/^drawdown_ready 1$/m);
    expect(output).toContain('Drawdown billing service');
    child.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    serving = undefined;
  }, 120_000);
});
