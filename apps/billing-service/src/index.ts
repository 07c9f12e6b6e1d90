/**
 * @module
 * The billing service as a library: start it in process (tests, the all-in-one launcher).
 */

export { createApp } from './app.js';
export { type ComposeOptions, type CoreServices, composeServices, type StorageSettings } from './compose-services.js';
export { resolveServiceConfig, SETTINGS, type ServiceConfig } from './config.js';
export { configurationDocument } from './configuration-doc.js';
export { openApiDocument } from './openapi/openapi-document.js';
export { createFailureReporter, createLogger, type Logger, silentLogger } from './operations/logger.js';
export { createOperationsApp } from './operations/operations-app.js';
export { startOperationsServer } from './operations/operations-server.js';
export { type RunningService, type ServiceOperations, type ServiceRuntime, startService } from './server.js';
