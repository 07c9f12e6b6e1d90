/**
 * @module
 * Adjustments as documents, filterable by transaction, customer, subscription, action and status.
 */
import type { Adjustment, AdjustmentColumn } from '@drawdown/billing-core';
import type { DocumentTableSpec } from './document-collection.js';

export const adjustmentsTable: DocumentTableSpec<Adjustment, AdjustmentColumn> = {
  table: 'adjustments',
  columns: {
    transaction_id: (adjustment) => adjustment.transactionId,
    customer_id: (adjustment) => adjustment.customerId,
    subscription_id: (adjustment) => adjustment.subscriptionId,
    action: (adjustment) => adjustment.action,
    status: (adjustment) => adjustment.status,
  },
};
