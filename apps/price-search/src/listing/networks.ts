/**
 * @module
 * Marketplace identifiers: `<marketplace>_uk`. The set is closed so that a typo in a request is an
 * error the client sees (`unknown_network`), not a silently empty result.
 */

/** Every network the service knows. Whether a network has a configured source is reported by /health. */
export const NETWORKS = ['amazon_uk', 'argos_uk', 'currys_uk', 'ebay_uk'] as const;

export type NetworkId = (typeof NETWORKS)[number];

/** Narrows a string to a known network identifier. */
export function isNetworkId(value: string): value is NetworkId {
  return (NETWORKS as readonly string[]).includes(value);
}
