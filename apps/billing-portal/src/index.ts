/**
 * @module
 * `@drawdown/billing-portal`: the customer-facing billing history and usage view (seed 001's
 * billing-history rules), as a fetch handler to mount behind a host's sign-in, a standalone server
 * that signs customers in through customer portal session links (ADR 1523), and a demo with its
 * own sign-in and a seeded sandbox.
 */

export { PORTAL_SERVE_SETTINGS, type PortalServeSetting, portalConfigurationSection, runCli } from './cli.js';
export {
  DEMO_ACTIONS,
  type DemoCustomer,
  type DemoSeed,
  type SeedOptions,
  seedSandbox,
  waitForBalances,
} from './demo/seed-sandbox.js';
export {
  type DemoUser,
  PORTAL_BASE_PATH,
  type PortalDemo,
  type PortalDemoOptions,
  startPortalDemo,
} from './demo/start-portal-demo.js';
export {
  type BillingPortalHandler,
  type BillingPortalOptions,
  createBillingPortal,
  type PortalSessionGrant,
  type ResolveCustomerId,
} from './http/create-billing-portal.js';
export { HISTORY_PAGE_SIZE, type HistoryPage, type HistoryRow, STATUS_LABELS } from './portal/billing-history.js';
export { hasInvoice } from './portal/invoice-availability.js';
export { LANGUAGES, type Language, pickLanguage } from './portal/messages.js';
export type { PortalClient } from './portal/portal-client.js';
export { FORBIDDEN, NO_CUSTOMER, NOT_AUTHENTICATED, type PortalRefusal } from './portal/portal-error.js';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './portal/security-headers.js';
export type { SelfServiceOptions } from './portal/self-service.js';
export type { UsageMeterView, UsagePeriodView } from './portal/usage-view.js';
export type { LoginRateLimitOptions } from './site/login-rate-limit.js';
export { hashPassword, verifyPassword } from './site/passwords.js';
export {
  keyEnvironment,
  type PortalServer,
  type PortalServerOptions,
  startPortalServer,
} from './standalone/start-portal-server.js';
