/**
 * @module
 * The use cases of transactions, bound once. Completing a transaction always runs the hooks the
 * use-case root gives (`hooksFor`: the subscription hooks, ADR 0920), whoever completes it.
 */
import type { Context } from '../shared/context.js';
import type { DueWorkKind, UseCaseBase } from '../shared/use-case-base.js';
import { listAdjustments } from './adjustments.js';
import { listCreditBalances } from './credit-balances.js';
import { markOverdueInvoices, OVERDUE_BATCH_SIZE } from './overdue-invoices.js';
import {
  type PaymentReport,
  recordTransactionPayment,
  type SimulatedOutcome,
  simulateTransactionPayment,
  type TransactionHooks,
} from './payments.js';
import type { TransactionSlice } from './repositories.js';
import { getTaxSettings, updateTaxSettings } from './tax-settings.js';
import { withTransactionIncludes } from './transaction-includes.js';
import { previewTransaction } from './transaction-previews.js';
import { reviseTransaction } from './transaction-revision.js';
import { createTransaction, getTransaction, listTransactions, updateTransaction } from './transactions.js';

export function transactionUseCases<C extends Context<TransactionSlice>>(
  base: UseCaseBase<C>,
  hooksFor: (context: C) => TransactionHooks,
) {
  const { bind } = base;
  return {
    createTransaction: bind((context, input: Parameters<typeof createTransaction>[1]) =>
      createTransaction(context, input, hooksFor(context)),
    ),
    updateTransaction: bind((context, id: string, input: Parameters<typeof updateTransaction>[2]) =>
      updateTransaction(context, id, input, hooksFor(context)),
    ),
    getTransaction: bind(getTransaction),
    listTransactions: bind(listTransactions),
    previewTransaction: bind(previewTransaction),
    listCreditBalances: bind(listCreditBalances),
    withTransactionIncludes: bind(withTransactionIncludes),
    reviseTransaction: bind(reviseTransaction),
    recordTransactionPayment: bind((context, transactionId: string, report: PaymentReport) =>
      recordTransactionPayment(context, transactionId, report, hooksFor(context)),
    ),
    simulateTransactionPayment: bind((context, transactionId: string, outcome: SimulatedOutcome) =>
      simulateTransactionPayment(context, transactionId, outcome, hooksFor(context)),
    ),
    listAdjustments: bind(listAdjustments),
    getTaxSettings: bind(getTaxSettings),
    updateTaxSettings: bind(updateTaxSettings),
  };
}

/** Invoices past their due date become past due, as due work. */
export function overdueInvoiceWork(
  store: Pick<TransactionSlice, 'transactions'>,
): DueWorkKind<Context<TransactionSlice>> {
  return {
    findDueAccounts: (environment, until) => store.transactions.findOverdueAccounts(environment, until),
    run: (context) => markOverdueInvoices(context, OVERDUE_BATCH_SIZE),
  };
}
