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
