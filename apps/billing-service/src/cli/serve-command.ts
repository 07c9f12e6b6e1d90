/**
 * @module
 * `drawdown serve`: opens the store (refusing a schema that is not this build's unless
 * --migrate), starts the APIs, the workers and the operations endpoints, makes the demo
 * account when asked (--demo) and shows its keys only once they are stored and the server
 * listens, then runs until SIGTERM or SIGINT and shuts down gracefully. A second signal exits
 * at once.
 */
import { composeServices } from '../compose-services.js';
import type { ServiceConfig } from '../config.js';
import { createLogger } from '../operations/logger.js';
import { type OperationsServer, startOperationsServer } from '../operations/operations-server.js';
import { serviceVersion } from '../operations/version.js';
import { startService } from '../server.js';
import { type DemoOptions, makeDemoAccount } from './demo-command.js';

export async function runServe(config: ServiceConfig, demo: DemoOptions | null): Promise<number> {
  const logger = createLogger({ level: config.logLevel });
  // Requests, worker batches, webhook attempts and database transactions (ADRs 1407, 1452). The
  // OpenTelemetry SDK is loaded only when traces are exported (ADR 0715).
  const tracing = config.otelTracesEndpoint
    ? (await import('../operations/tracing.js')).createTracing({ endpoint: config.otelTracesEndpoint })
    : undefined;
  const services = await composeServices(config, {
    schema: config.migrateOnStart ? 'migrate' : 'require',
    logger,
    tracing,
  });
  const service = await startService(services, config, { logger }).catch(async (error: unknown) => {
    await services.documents.close();
    await services.store.close();
    await tracing?.shutdown().catch(() => {});
    throw error;
  });
  let operations: OperationsServer | null = null;
  try {
    if (config.opsAddress) operations = await startOperationsServer(service.operations, config.opsAddress);
  } catch (error) {
    await service.close({ deadlineMs: 1_000 });
    throw error;
  }
  const engine = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  process.stdout.write(
    `Drawdown billing service ${serviceVersion()} (${engine})\n` +
      `  live:    ${service.liveUrl}\n  sandbox: ${service.sandboxUrl}\n` +
      (operations ? `  operations: ${operations.url} (/livez /readyz /metrics /version)\n` : ''),
  );
  logger.info(
    { live: service.liveUrl, sandbox: service.sandboxUrl, operations: operations?.url ?? null, engine },
    'listening',
  );
  if (demo) await makeDemoAccount(services, demo);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const force = () => {
    logger.warn('second signal: exiting without waiting');
    process.exit(1);
  };
  process.once('SIGINT', force);
  process.once('SIGTERM', force);
  logger.info({ signal }, 'signal received');
  await service.close();
  await operations?.close();
  return 0;
}
