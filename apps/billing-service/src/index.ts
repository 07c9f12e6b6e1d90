/**
 * @module
 * The billing service as a library: start it in process (tests, the all-in-one launcher).
 */
export { type CoreServices, composeServices, type StorageSettings } from './compose-services.js';
export { resolveServiceConfig, SETTINGS, type ServiceConfig } from './config.js';
export { type DemoAccount, type DemoAccountRequest, ensureDemoAccount } from './demo-account.js';
export { configurationDocument } from './docs/configuration-doc.js';
export { openApiDocument } from './docs/openapi.js';
export { createApp } from './http/app.js';
export { createFailureReporter, createLogger, type Logger, silentLogger } from './operations/logger.js';
export { createOperationsApp } from './operations/operations-app.js';
export { startOperationsServer } from './operations/operations-server.js';
export { type RunningService, type ServiceOperations, type ServiceRuntime, startService } from './server.js';
