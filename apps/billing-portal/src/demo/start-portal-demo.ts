/**
 * @module
 * The standalone demo: the portal behind a small sign-in, on one port, with a sandbox seeded so
 * the page is populated. Users have scrypt-hashed passwords; sessions are random ids kept on the
 * server in an HttpOnly, SameSite=Lax cookie (Secure over https), created only by a sign-in
 * (ADR 0904); every state-changing request needs the session's CSRF token (the sign-in form a
 * stateless one) and, when the browser sends one, a same-origin `Origin`; failed sign-ins are
 * throttled per address and per email (ADR 0804); form bodies are limited on the stream.
 */
import { Drawdown } from '@drawdown/sdk';
import type { LoginRateLimitOptions } from '../site/login-rate-limit.js';
import { decoyHash, generatePassword, hashPassword } from '../site/passwords.js';
import { createPortalSite, listenPortalSite, type StoredUser } from '../site/portal-site.js';
import { type DemoSeed, type SeedOptions, seedSandbox } from './seed-sandbox.js';

export { PORTAL_BASE_PATH } from '../site/portal-site.js';

export interface PortalDemoOptions {
  /** The billing service's sandbox base URL, such as `http://127.0.0.1:8081`. */
  readonly billingSandboxUrl: string;
  /** A sandbox API key that may write the catalogue, transactions and usage events (for seeding). */
  readonly sandboxKey: string;
  /** Default 3000; 0 picks a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** The address people use, when it differs from `http://host:port` (an https proxy: cookies become Secure). */
  readonly publicUrl?: string;
  /** Fixed passwords by email (tests); others are generated at each start. */
  readonly passwords?: Readonly<Record<string, string>>;
  readonly seed?: SeedOptions;
  readonly loginRateLimit?: LoginRateLimitOptions;
  /** Signed-in sessions kept in memory in all, a memory backstop (anonymous visitors hold none). Default 10,000. */
  readonly maxSessions?: number;
  /**
   * Sessions kept per demo user or per customer of portal session links; past it that owner's
   * oldest ends, nobody else's (ADR 1445). Default 20.
   */
  readonly maxSessionsPerOwner?: number;
  /** How often the page refreshes usage, in milliseconds. Default 5000. */
  readonly usagePollMs?: number;
  /** Where the demo prints its address and credentials. Default console.log. */
  readonly log?: (line: string) => void;
}

export interface DemoUser {
  readonly email: string;
  readonly password: string;
  /** Null: signed in, but no customer record (the portal shows an empty history). */
  readonly customerId: string | null;
  readonly note: string;
}

export interface PortalDemo {
  /** The demo's address for people (`publicUrl` when given), without a trailing slash. */
  readonly url: string;
  /** Where the server listens, `http://host:port`. */
  readonly localUrl: string;
  readonly users: readonly DemoUser[];
  readonly seed: DemoSeed;
  close(): Promise<void>;
}

/**
 * Starts the demo: seeds the sandbox (or finds an earlier seeding), hashes the users' passwords,
 * serves the sign-in and the portal (`../site/portal-site.ts`), and prints the address and credentials.
 *
 * @example
 * const demo = await startPortalDemo({ billingSandboxUrl: 'http://127.0.0.1:8081', sandboxKey, port: 3000 });
 */
export async function startPortalDemo(options: PortalDemoOptions): Promise<PortalDemo> {
  const log = options.log ?? ((line: string) => console.log(line));
  const client = new Drawdown(options.sandboxKey, { baseUrl: options.billingSandboxUrl });
  const seed = await seedSandbox(client, { ...options.seed, log: options.seed?.log ?? log });

  const plainUsers = [
    { email: seed.ada.email, customerId: seed.ada.customerId, note: 'a long history in three currencies, and usage' },
    { email: seed.grace.email, customerId: seed.grace.customerId, note: 'past her API-call allowance' },
    { email: 'newcomer@example.com', customerId: null, note: 'no customer record yet' },
  ].map((user) => ({ ...user, password: options.passwords?.[user.email] ?? generatePassword() }));
  const users = new Map<string, StoredUser>();
  for (const user of plainUsers) {
    users.set(user.email, {
      email: user.email,
      passwordHash: await hashPassword(user.password),
      customerId: user.customerId,
    });
  }
  await decoyHash();

  const site = createPortalSite({
    client,
    passwordSignIn: { users, loginRateLimit: options.loginRateLimit },
    capturedMail: { billingUrl: options.billingSandboxUrl, key: options.sandboxKey },
    // The demo account lets its customers pause and resume (ADR 1441), and offers its monthly
    // USD plans to a customer with no plan (ADR 0812).
    selfService: { pause: true, subscribe: { priceIds: seed.offerPriceIds } },
    usagePollMs: options.usagePollMs,
    maxSessions: options.maxSessions,
    maxSessionsPerOwner: options.maxSessionsPerOwner,
    publicUrl: options.publicUrl,
    log,
  });
  const listening = await listenPortalSite(site, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 3000,
    publicUrl: options.publicUrl,
  });
  const { url } = listening;
  // Checkouts the portal sends customers to lead back to it (ADRs 1112, 0813): the sandbox's
  // checkout return address is the demo's, unless the account set its own.
  const checkout = await client.checkoutSettings.get();
  if (checkout.returnUrl === null) await client.checkoutSettings.update({ returnUrl: `${url}/billing/` });

  log(`Billing portal demo: ${url}/ (captured sandbox email: ${url}/mail)`);
  log('Sign in as:');
  for (const user of plainUsers) log(`  ${user.email.padEnd(22)} ${user.password}   (${user.note})`);

  return { url, localUrl: listening.localUrl, users: plainUsers, seed, close: listening.close };
}
