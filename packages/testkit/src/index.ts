/**
 * @module
 * Test-only helpers: a PostgreSQL server, per-test databases, both engines, a running service,
 * clocks moved by hand.
 */

export { expectEvery } from './assertions.js';
export { axeViolations, type ScriptablePage } from './axe.js';
export { type BillingHarness, type HarnessOptions, startBillingHarness } from './billing-harness.js';
export { chromiumLaunchOptions } from './chromium.js';
export { type FloodOptions, type FloodResult, floodChunked } from './chunked-flood.js';
export { type FixedClock, fixedClock, type MovableClock, movableClock } from './clock.js';
export {
  createTestStorage,
  ENGINES,
  type Engine,
  openTestStore,
  storeConfigOf,
  type TestStorage,
} from './engines.js';
export { type PrivatePostgresServer, startPrivatePostgres } from './postgres-server.js';
export { findOrStartRedis, type RedisServer } from './redis-server.js';
export { type SandboxSubscriptionInput, startSandboxSubscription } from './subscriptions.js';
export { createPostgresTestDatabase, type TestDatabase } from './test-database.js';
