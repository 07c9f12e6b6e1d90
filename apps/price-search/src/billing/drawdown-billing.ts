/**
 * @module
 * Wires Drawdown billing into the service: the SDK client, the key → customer links, the Drawdown meter in
 * front of the local one, and the webhook receiver. `composeService` calls this when billing is configured.
 */
import { Drawdown } from '@drawdown/sdk';
import type Database from 'better-sqlite3';
import { DrawdownLookupMeter, type DrawdownMeteringClient } from '../metering/drawdown-lookup-meter.js';
import type { LookupMeter } from '../metering/lookup-meter.js';
import type { Clock } from '../shared/clock.js';
import { type BillingWebhookReceiver, createBillingWebhookReceiver } from './billing-webhooks.js';
import { CustomerLinkStore } from './customer-links.js';

/** How to reach Drawdown (CLI: `--billing-url`, `DRAWDOWN_BILLING_URL`, `DRAWDOWN_BILLING_KEY`, …). */
export interface DrawdownBillingOptions {
  /** The billing API's base URL (the sandbox or live address). */
  readonly baseUrl: string;
  /** An API key of the account (`pdl_live_…` / `pdl_sdbx_…`) allowed to report usage and read balances. */
  readonly apiKey: string;
  /** The secret of the notification setting that delivers to `/billing/webhooks`. */
  readonly webhookSecret: string;
  /** The `lookups` usage balance unit (`ubu_…`), as `setupDrawdownPlans` returns it. */
  readonly lookupsUnitId: string;
  /** Replaces the SDK client (unit tests). */
  readonly client?: DrawdownMeteringClient;
}

/** The billing parts of a composed service. */
export interface DrawdownBilling {
  readonly meter: DrawdownLookupMeter;
  readonly links: CustomerLinkStore;
  readonly webhooks: BillingWebhookReceiver;
}

/** Builds the billing parts on the state database. */
export function createDrawdownBilling(
  options: DrawdownBillingOptions,
  dependencies: { readonly stateDb: Database.Database; readonly local: LookupMeter; readonly clock: Clock },
): DrawdownBilling {
  const links = new CustomerLinkStore(dependencies.stateDb);
  const meter = new DrawdownLookupMeter({
    client: options.client ?? new Drawdown(options.apiKey, { baseUrl: options.baseUrl }),
    local: dependencies.local,
    customers: links,
    lookupsUnitId: options.lookupsUnitId,
    clock: dependencies.clock,
  });
  return { meter, links, webhooks: createBillingWebhookReceiver({ secret: options.webhookSecret, meter }) };
}

/** Reads the billing options from the environment; undefined unless URL, key, secret and unit are all set. */
export function drawdownBillingFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  overrides: { readonly baseUrl?: string | undefined; readonly lookupsUnitId?: string | undefined } = {},
): DrawdownBillingOptions | undefined {
  const baseUrl = overrides.baseUrl ?? env.DRAWDOWN_BILLING_URL;
  const apiKey = env.DRAWDOWN_BILLING_KEY;
  const webhookSecret = env.DRAWDOWN_WEBHOOK_SECRET;
  const lookupsUnitId = overrides.lookupsUnitId ?? env.DRAWDOWN_LOOKUPS_UNIT_ID;
  if (!baseUrl || !apiKey || !webhookSecret || !lookupsUnitId) return undefined;
  return { baseUrl, apiKey, webhookSecret, lookupsUnitId };
}
