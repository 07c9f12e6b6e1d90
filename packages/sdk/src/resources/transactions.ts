/**
 * @module
 * Transactions: list with filters (page size default and maximum 30), get, and the invoice PDF
 * link. The link expires after an hour and each costs a call: fetch it when the user asks.
 */
import type { Collection } from '../core/collection.js';
import type { RequestOptions } from '../core/http-client.js';
import type {
  Adjustment,
  CheckoutSettings,
  CreateAdjustmentInput,
  CreateTransactionInput,
  InvoicePdf,
  ListAdjustmentsParams,
  ListPaymentMethodsParams,
  ListTransactionsParams,
  PaymentMethod,
  RecordPaymentInput,
  SellerDetails,
  SellerLogoFile,
  TaxSettings,
  Transaction,
  UpdateCheckoutSettingsInput,
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

  /** The logo file (Drawdown's `GET /seller-details/logo`, ADR 0810); `not_found` when none is set. */
  logo(options?: RequestOptions): Promise<SellerLogoFile> {
    return this.data({ method: 'GET', path: '/seller-details/logo', ...options });
  }

  update(input: UpdateSellerDetailsInput, options?: RequestOptions): Promise<SellerDetails> {
    return this.data({ method: 'PATCH', path: '/seller-details', body: input, ...options });
  }
}

/** A customer's saved payment methods (`/customers/{id}/payment-methods`, ADR 1411). */
export class PaymentMethodsResource extends Resource {
  list(customerId: string, params?: ListPaymentMethodsParams, options?: RequestOptions): Collection<PaymentMethod> {
    return this.collection<PaymentMethod>(`/customers/${segment(customerId)}/payment-methods`, params, options);
  }

  get(customerId: string, id: string, options?: RequestOptions): Promise<PaymentMethod> {
    return this.data({
      method: 'GET',
      path: `/customers/${segment(customerId)}/payment-methods/${segment(id)}`,
      ...options,
    });
  }
}

/** The account's checkout settings (Drawdown's `/checkout-settings`, ADRs 1412, 1112). */
export class CheckoutSettingsResource extends Resource {
  get(options?: RequestOptions): Promise<CheckoutSettings> {
    return this.data({ method: 'GET', path: '/checkout-settings', ...options });
  }

  update(input: UpdateCheckoutSettingsInput, options?: RequestOptions): Promise<CheckoutSettings> {
    return this.data({ method: 'PATCH', path: '/checkout-settings', body: input, ...options });
  }
}
