import type { EventTypeName } from '../events/event-types.js';
import type { EntityKind } from '../events/stored-event.js';
import type { Account } from '../shared/scope.js';
import type { TaxIdVerification } from '../tax/tax-id-checks.js';
import type { Clock } from './clock.js';
import { toTimestamp } from './clock.js';
import type { IdGenerator } from './ids.js';
import type { Repositories, Store } from './repository.js';
import type { Scope } from './scope.js';

/** What every use case runs with: who is asking, where, and the ports it may use. */
export interface OperationContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly scope: Scope;
  readonly account: Account;
  /**
   * The checkout page Drawdown serves for this environment (`…/checkout`), which
   * `checkout.url` points at unless the account set its own payment link (ADR 1412).
   * Absent, transactions get no `checkout` (contexts built outside the service).
   */
  readonly defaultPaymentLink?: string | undefined;
  /** VAT ids checked with VIES (ADR 1437); absent, reverse charge follows the offline format check alone. */
  readonly taxIds?: TaxIdVerification | undefined;
}

/** Writes the outbox row for a change, inside the transaction that made the change. */
export async function recordEvent(
  context: OperationContext,
  tx: Repositories,
  eventType: EventTypeName,
  entityKind: EntityKind,
  entity: unknown,
): Promise<void> {
  await tx.events.append(context.scope, {
    id: context.ids.newId('evt'),
    eventType,
    occurredAt: toTimestamp(context.clock.now()),
    entityKind,
    entity,
  });
}

/** The current instant as wire text. */
export function nowTimestamp(context: OperationContext): string {
  return toTimestamp(context.clock.now());
}
