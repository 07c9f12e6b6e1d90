/**
 * @module
 * Environment variables, parsed once with zod. Command-line flags override them (see cli.ts).
 */
import { join } from 'node:path';
import { type ProxyTrust, parseProxyTrust } from '@drawdown/http-kit';
import { z } from 'zod';
import type { EbayOptions } from './compose-service.js';
import { DEFAULT_WARM_UP_MS } from './lookup/warm-up.js';

const Environment = z.object({
  PRICE_SEARCH_PORT: z.coerce.number().int().min(0).max(65_535).default(8090),
  PRICE_SEARCH_HOST: z.string().min(1).default('127.0.0.1'),
  // Relative to the working directory; the repository ignores /data/, so a start from the root leaves no trace.
  // Unset, it is `price-search` in Drawdown's data folder (see `readEnvironment`).
  PRICE_SEARCH_DATA_DIR: z.string().min(1),
  // A count of proxies in a row, or their addresses and CIDR ranges, as the billing service takes it (ADR 1524).
  PRICE_SEARCH_TRUSTED_PROXIES: z
    .string()
    .default('0')
    .transform((text, context): ProxyTrust => {
      try {
        return parseProxyTrust(text);
      } catch (error) {
        context.addIssue({
          code: 'custom',
          message: `a number of proxies (0 to 10) or addresses and CIDR ranges: ${(error as Error).message}`,
        });
        return z.NEVER;
      }
    }),
  // The start-up warm-up's time budget (ADR 0222); 0 disables it.
  PRICE_SEARCH_WARM_UP_MS: z.coerce.number().int().min(0).max(600_000).default(DEFAULT_WARM_UP_MS),
  PRICE_SEARCH_API_URL: z.url().default('http://127.0.0.1:8090'),
  PRICE_SEARCH_API_KEY: z.string().optional(),
  EBAY_CLIENT_ID: z.string().optional(),
  EBAY_CLIENT_SECRET: z.string().optional(),
  EBAY_BASE_URL: z.url().default('https://api.ebay.com'),
  EBAY_AFFILIATE_CAMPAIGN_ID: z.string().optional(),
});

/** The parsed environment. */
export type PriceSearchEnvironment = z.infer<typeof Environment>;

/** Raised when an environment variable has an invalid value. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses the environment. */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env): PriceSearchEnvironment {
  const result = Environment.safeParse({ ...env, PRICE_SEARCH_DATA_DIR: defaultDataDir(env) });
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigError(`invalid ${String(issue?.path[0])}: ${issue?.message}`);
  }
  return result.data;
}

/**
 * The price search's data folder: `PRICE_SEARCH_DATA_DIR`, else `price-search` in Drawdown's data folder
 * (`DRAWDOWN_DATA_DIR`, default `data`). `npm start` and the CLI both read it this way, so a key made with
 * `price-search keys create` is one the service `npm start` runs accepts (issue 38).
 */
function defaultDataDir(env: NodeJS.ProcessEnv): string {
  if (env.PRICE_SEARCH_DATA_DIR) return env.PRICE_SEARCH_DATA_DIR;
  return join(env.DRAWDOWN_DATA_DIR || 'data', 'price-search');
}

/** The files of a data folder: the catalogue (`catalogue.db`) and the state (`state.db`: keys and quotas). */
export function priceSearchFiles(dataDir: string): { readonly catalogue: string; readonly state: string } {
  return { catalogue: join(dataDir, 'catalogue.db'), state: join(dataDir, 'state.db') };
}

/** eBay options when both credentials are set; the eBay connector is off otherwise. */
export function ebayOptionsFrom(env: PriceSearchEnvironment): EbayOptions | undefined {
  if (!env.EBAY_CLIENT_ID || !env.EBAY_CLIENT_SECRET) return undefined;
  return {
    clientId: env.EBAY_CLIENT_ID,
    clientSecret: env.EBAY_CLIENT_SECRET,
    baseUrl: env.EBAY_BASE_URL,
    ...(env.EBAY_AFFILIATE_CAMPAIGN_ID ? { affiliateCampaignId: env.EBAY_AFFILIATE_CAMPAIGN_ID } : {}),
  };
}
