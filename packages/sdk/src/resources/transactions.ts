/**
 * @module
 * Transactions: list with filters (page size default and maximum 30), get, and the invoice PDF
 * link. The link expires after an hour and each costs a call: fetch it when the user asks.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type { InvoicePdf, ListTransactionsParams, Transaction } from '../types/transactions.js';
import { Resource, segment } from './resource.js';

export class TransactionsResource extends Resource {
  /**
   * @example
   * const page = drawdown.transactions.list({ customerId: [customerId], status: [...BILLING_HISTORY_STATUSES] });
   * const first = await page.next();
   */
  list(params?: ListTransactionsParams, options?: RequestOptions): Collection<Transaction> {
    return this.collection<Transaction>('/transactions', params, options);
  }

  get(id: string, params?: { readonly include?: readonly string[] }, options?: RequestOptions): Promise<Transaction> {
    return this.data({
      method: 'GET',
      path: `/transactions/${segment(id)}`,
      ...(params?.include ? { query: { include: params.include } } : {}),
      ...options,
    });
  }

  /** A temporary (one hour) link to the invoice PDF. */
  getInvoicePdf(
    id: string,
    params: { readonly disposition?: 'attachment' | 'inline' } = {},
    options?: RequestOptions,
  ): Promise<InvoicePdf> {
    return this.data({
      method: 'GET',
      path: `/transactions/${segment(id)}/invoice`,
      query: { disposition: params.disposition },
      ...options,
    });
  }
}
