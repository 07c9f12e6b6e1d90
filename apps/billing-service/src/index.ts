/**
 * @module
 * The billing service as a library: start it in process (tests, the all-in-one launcher).
 */

export { createApp } from './app.js';
export { type CoreServices, composeServices, type StorageSettings } from './compose-services.js';
export { resolveServiceConfig, type ServiceConfig } from './config.js';
export { type DemoAccount, ensureDemoAccount } from './demo-account.js';
export { type RunningService, startService } from './server.js';
