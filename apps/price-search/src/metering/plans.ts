/**
 * @module
 * The plans of the seed: Free (50 lookups a month, no key, counted per client IP), Pro (5,000) and Scale
 * (unlimited). The short-term rate limits per plan are ours; the seed does not state any.
 */

/** Every plan. */
export const PLANS = ['free', 'pro', 'scale'] as const;
export type Plan = (typeof PLANS)[number];

/** Plans that an API key can carry; the free plan needs no key. */
export const KEY_PLANS = ['pro', 'scale'] as const;
export type KeyPlan = (typeof KEY_PLANS)[number];

/** Lookups per calendar month (UTC); undefined means unlimited. */
export const MONTHLY_LOOKUPS = { free: 50, pro: 5_000, scale: undefined } as const satisfies Record<
  Plan,
  number | undefined
>;

/** Requests per minute before `too_many_requests`: a burst guard, separate from the monthly quota. */
export const REQUESTS_PER_MINUTE = { free: 10, pro: 60, scale: 600 } as const satisfies Record<Plan, number>;

/** Narrows a string to a key plan. */
export function isKeyPlan(value: string): value is KeyPlan {
  return (KEY_PLANS as readonly string[]).includes(value);
}
