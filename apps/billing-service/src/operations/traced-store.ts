/**
 * @module
 * Traces the store's units of work (ADR 1452): each `transaction` is one client span, a child of
 * the request or worker batch that opened it, with `db.system` naming the engine. A rolled-back
 * transaction's span is marked failed. Reads outside a transaction are not traced: the
 * transaction is the unit of work, and a span per statement would outnumber everything else.
 */
import type { Store } from '@drawdown/billing-core';
import { forwarding } from '../infrastructure/forwarding.js';
import type { Spans } from './spans.js';

export type DatabaseSystem = 'sqlite' | 'postgresql';

export function tracedTransactions(store: Store, spans: Spans, system: DatabaseSystem): Store {
  const transaction: Store['transaction'] = (work) =>
    spans.inSpan(
      'db.transaction',
      { kind: 'client', attributes: { 'db.system': system, 'db.operation.name': 'transaction' } },
      () => store.transaction(work),
    );
  return forwarding(store, { transaction });
}
