/**
 * @module
 * Transactions: list with filters (page size default and maximum 30), get, and the invoice PDF
 * link. The link expires after an hour and each costs a call: fetch it when the user asks.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type {
  Adjustment,
  CreateAdjustmentInput,
  CreateTransactionInput,
  InvoicePdf,
  ListAdjustmentsParams,
  ListTransactionsParams,
  RecordPaymentInput,
  SellerDetails,
  TaxSettings,
  Transaction,
  UpdateSellerDetailsInput,
  UpdateTaxSettingsInput,
  UpdateTransactionInput,
} from '../types/transactions.js';
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

  /** Creates a transaction (`draft`, or `ready` once complete; `status: 'billed'` issues the invoice). */
  create(input: CreateTransactionInput, options?: RequestOptions): Promise<Transaction> {
    return this.data({ method: 'POST', path: '/transactions', body: input, ...options });
  }

  update(id: string, input: UpdateTransactionInput, options?: RequestOptions): Promise<Transaction> {
    return this.data({ method: 'PATCH', path: `/transactions/${segment(id)}`, body: input, ...options });
  }

  /**
   * Sandbox only: pays (or fails to pay) a transaction as a checkout would. A paid transaction
   * for recurring prices starts its subscription.
   */
  simulatePayment(id: string, outcome: 'success' | 'failure', options?: RequestOptions): Promise<Transaction> {
    return this.data({
      method: 'POST',
      path: `/transactions/${segment(id)}/simulate-payment`,
      body: { outcome },
      ...options,
    });
  }

  /** Records a payment your payment provider reported. */
  recordPayment(id: string, input: RecordPaymentInput, options?: RequestOptions): Promise<Transaction> {
    return this.data({ method: 'POST', path: `/transactions/${segment(id)}/payments`, body: input, ...options });
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

/** Credits and refunds on billed or completed transactions; they never touch usage balances. */
export class AdjustmentsResource extends Resource {
  list(params?: ListAdjustmentsParams, options?: RequestOptions): Collection<Adjustment> {
    return this.collection<Adjustment>('/adjustments', params, options);
  }

  create(input: CreateAdjustmentInput, options?: RequestOptions): Promise<Adjustment> {
    return this.data({ method: 'POST', path: '/adjustments', body: input, ...options });
  }

  /** A fresh link to the adjustment's credit note PDF, valid for one hour. */
  getCreditNote(
    id: string,
    params: { readonly disposition?: 'attachment' | 'inline' } = {},
    options?: RequestOptions,
  ): Promise<{ readonly url: string }> {
    return this.data({
      method: 'GET',
      path: `/adjustments/${segment(id)}/credit-note`,
      ...(params.disposition ? { query: { disposition: params.disposition } } : {}),
      ...options,
    });
  }
}

/** The account's tax rates and default tax mode, applied to new transactions. */
export class TaxSettingsResource extends Resource {
  get(options?: RequestOptions): Promise<TaxSettings> {
    return this.data({ method: 'GET', path: '/tax-settings', ...options });
  }

  update(input: UpdateTaxSettingsInput, options?: RequestOptions): Promise<TaxSettings> {
    return this.data({ method: 'PATCH', path: '/tax-settings', body: input, ...options });
  }
}

/** The seller invoices and credit notes name (Drawdown's own `/seller-details`, ADR 1106). */
export class SellerDetailsResource extends Resource {
  get(options?: RequestOptions): Promise<SellerDetails> {
    return this.data({ method: 'GET', path: '/seller-details', ...options });
  }

  update(input: UpdateSellerDetailsInput, options?: RequestOptions): Promise<SellerDetails> {
    return this.data({ method: 'PATCH', path: '/seller-details', body: input, ...options });
  }
}
