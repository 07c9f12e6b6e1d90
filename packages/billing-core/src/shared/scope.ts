/**
 * @module
 * Every entity belongs to one account and one environment; the two environments of an
 * account share nothing. A Scope travels with every read and write.
 */

export const ENVIRONMENTS = ['live', 'sandbox'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface Scope {
  readonly accountId: string;
  readonly environment: Environment;
}

/** A tenant of the service. Both environments of an account share its settings, not its data. */
export interface Account {
  readonly id: string;
  readonly name: string;
  readonly earlyAccess: boolean;
  readonly createdAt: string;
}
