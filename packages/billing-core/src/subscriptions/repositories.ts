/**
 * @module
 * Storage ports of subscriptions and of each sandbox account's clock.
 */

import type { Collection } from '../shared/collection.js';
import type { Environment, Scope } from '../shared/scope.js';
import type { TransactionSlice } from '../transactions/repositories.js';
import type { UsageSlice } from '../usage/repositories.js';
import type { Subscription } from './subscription.js';

export type SubscriptionColumn =
  | 'id'
  | 'customer_id'
  | 'address_id'
  | 'status'
  | 'collection_mode'
  | 'scheduled_change_action'
  /** Every item's price id, each between spaces. */
  | 'price_ids'
  | 'next_billed_at';

export interface SubscriptionRepository extends Collection<Subscription, SubscriptionColumn> {
  /** Ids of the scope's subscriptions with a renewal or scheduled change due at or before `until`, earliest first. */
  findDue(scope: Scope, until: string, limit: number): Promise<readonly string[]>;
  /** Accounts with a subscription in `environment` due at or before `until`. */
  findDueAccounts(environment: Environment, until: string): Promise<readonly string[]>;
}

export interface SandboxClockRepository {
  /** How far the account's sandbox clock runs ahead of the wall clock, in milliseconds. */
  offsetOf(accountId: string): Promise<number>;
  setOffset(accountId: string, offsetMs: number): Promise<void>;
  listOffsets(): Promise<readonly { readonly accountId: string; readonly offsetMs: number }[]>;
  /** How the account's simulated card settles sandbox charges; `success` until set (ADR 1003). */
  paymentOutcomeOf(accountId: string): Promise<'success' | 'failure'>;
  setPaymentOutcome(accountId: string, outcome: 'success' | 'failure'): Promise<void>;
  /**
   * Adds `steps` to the account's count of jump steps on `day` (a UTC date) when the sum stays
   * within `perDay`, in one statement; false, and nothing written, when it would not (ADR 1487).
   */
  reserveJumpSteps(accountId: string, day: string, steps: number, perDay: number): Promise<boolean>;
  /** The account's count of jump steps on `day`; 0 when none ran. */
  jumpStepsOn(accountId: string, day: string): Promise<number>;
  /** Corrects the count of `day` by `delta` steps (never below 0); nothing once the day has passed. */
  adjustJumpSteps(accountId: string, day: string, delta: number): Promise<void>;
}

/** The repositories subscriptions own. */
export interface SubscriptionRepositories {
  readonly subscriptions: SubscriptionRepository;
  readonly sandboxClocks: SandboxClockRepository;
}

/** What subscriptions use: their repositories, transactions (and what they use) and usage balances. */
export interface SubscriptionSlice extends SubscriptionRepositories, TransactionSlice, UsageSlice {}
