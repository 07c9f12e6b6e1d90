/**
 * @module
 * Subscriptions: list, get, update, the transaction that changes the payment method, and the
 * actions pause, resume, cancel and activate. Actions
 * are POSTs and are not repeated on a lost answer; read the subscription to learn whether one
 * took effect.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type {
  CancelSubscriptionInput,
  ListSubscriptionsParams,
  PauseSubscriptionInput,
  ResumeSubscriptionInput,
  Subscription,
  SubscriptionCancellationReason,
  SubscriptionUpdatePreview,
  UpdateSubscriptionInput,
} from '../types/subscriptions.js';
import type { Transaction } from '../types/transactions.js';
import { Resource, segment } from './resource.js';

export class SubscriptionsResource extends Resource {
  list(params?: ListSubscriptionsParams, options?: RequestOptions): Collection<Subscription> {
    return this.collection<Subscription>('/subscriptions', params, options);
  }

  get(id: string, params?: { readonly include?: readonly string[] }, options?: RequestOptions): Promise<Subscription> {
    return this.data({
      method: 'GET',
      path: `/subscriptions/${segment(id)}`,
      ...(params?.include ? { query: { include: params.include } } : {}),
      ...options,
    });
  }

  update(id: string, input: UpdateSubscriptionInput, options?: RequestOptions): Promise<Subscription> {
    return this.data({ method: 'PATCH', path: `/subscriptions/${segment(id)}`, body: input, ...options });
  }

  /**
   * What an update would do, changing nothing: the subscription as it would be, with
   * `immediateTransaction`, `nextTransaction` and `updateSummary` (`PATCH /subscriptions/{id}/preview`).
   */
  previewUpdate(
    id: string,
    input: UpdateSubscriptionInput,
    options?: RequestOptions,
  ): Promise<SubscriptionUpdatePreview> {
    return this.data({ method: 'PATCH', path: `/subscriptions/${segment(id)}/preview`, body: input, ...options });
  }

  /**
   * The transaction whose checkout replaces the subscription's payment method: a zero-value one,
   * or the open past-due one when the subscription is past due
   * (`GET /subscriptions/{id}/update-payment-method-transaction`). Send the customer to its `checkout.url`.
   */
  getPaymentMethodChangeTransaction(id: string, options?: RequestOptions): Promise<Transaction> {
    return this.data({
      method: 'GET',
      path: `/subscriptions/${segment(id)}/update-payment-method-transaction`,
      ...options,
    });
  }

  /** Pauses at the end of the period (default) or immediately. */
  pause(id: string, input: PauseSubscriptionInput = {}, options?: RequestOptions): Promise<Subscription> {
    return this.#action(id, 'pause', input, options);
  }

  /** Resumes a paused subscription (or drops a pending pause), now by default. */
  resume(id: string, input: ResumeSubscriptionInput = {}, options?: RequestOptions): Promise<Subscription> {
    return this.#action(id, 'resume', input, options);
  }

  /** Cancels at the end of the period (default) or immediately. Final. */
  cancel(id: string, input: CancelSubscriptionInput = {}, options?: RequestOptions): Promise<Subscription> {
    return this.#action(id, 'cancel', input, options);
  }

  /** The reason the customer gave for cancelling (a Drawdown extension, ADR 0806). */
  cancellationReason(id: string, options?: RequestOptions): Promise<SubscriptionCancellationReason> {
    return this.data({ method: 'GET', path: `/subscriptions/${segment(id)}/cancellation-reason`, ...options });
  }

  /** Ends a trial now and bills (trialing, automatically collected subscriptions only). */
  activate(id: string, options?: RequestOptions): Promise<Subscription> {
    return this.#action(id, 'activate', undefined, options);
  }

  #action(id: string, action: string, input: object | undefined, options?: RequestOptions): Promise<Subscription> {
    return this.data({
      method: 'POST',
      path: `/subscriptions/${segment(id)}/${action}`,
      ...(input === undefined ? {} : { body: input }),
      ...options,
    });
  }
}
