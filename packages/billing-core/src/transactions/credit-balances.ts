/**
 * @module
 * Credit balances: money a customer holds with the seller, one balance per currency (ADR 1002).
 * Credit comes from the negative lines of a subscription change (`credit_to_balance`) and from
 * credit adjustments on completed, automatically collected transactions; it is spent by the
 * customer's next transactions in that currency, first of all.
 *
 * Like usage balances, a credit balance is the fold of an append-only ledger:
 * - `grant` adds to available;
 * - `reserve` moves available to reserved when a transaction is issued with credit applied;
 * - `use` moves reserved to used when that transaction completes;
 * - `release` moves reserved back to available when that transaction is canceled.
 * The stored state is a cache of the fold, written with its entries in one database
 * transaction under a row lock, so concurrent transactions never draw the same credit twice.
 */
import { isSupportedCurrency } from '../money/currencies.js';
import { divideRounded } from '../money/rounding.js';
import { BillingError } from '../shared/billing-error.js';
import type { Context } from '../shared/context.js';
import type { CreditAmounts, CreditBalance, CreditLedgerEntry } from './entities.js';
import type { TransactionSlice } from './repositories.js';
import type { Transaction } from './transaction.js';
import { composeDetails, decompose } from './transaction-totals.js';

export const EMPTY_CREDIT: CreditAmounts = { available: '0', reserved: '0', used: '0' };

/** Applies one entry to a balance's amounts. */
export function applyCreditEntry(amounts: CreditAmounts, entry: CreditLedgerEntry): CreditAmounts {
  const amount = BigInt(entry.amount);
  let available = BigInt(amounts.available);
  let reserved = BigInt(amounts.reserved);
  let used = BigInt(amounts.used);
  switch (entry.kind) {
    case 'grant':
      available += amount;
      break;
    case 'reserve':
      available -= amount;
      reserved += amount;
      break;
    case 'use':
      reserved -= amount;
      used += amount;
      break;
    case 'release':
      reserved -= amount;
      available += amount;
      break;
  }
  if (available < 0n || reserved < 0n) throw new Error(`Credit ledger entry ${entry.kind} overdraws the balance`);
  return { available: available.toString(), reserved: reserved.toString(), used: used.toString() };
}

/** The amounts a ledger folds to. */
export function foldCreditLedger(entries: readonly CreditLedgerEntry[]): CreditAmounts {
  return entries.reduce(applyCreditEntry, EMPTY_CREDIT);
}

async function append(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  customerId: string,
  currencyCode: string,
  entries: (balance: CreditBalance) => readonly CreditLedgerEntry[],
): Promise<void> {
  const balance = await tx.creditBalances.lock(context.scope, customerId, currencyCode);
  const added = entries(balance);
  if (added.length === 0) return;
  await tx.creditBalances.save(
    context.scope,
    { ...balance, balance: added.reduce(applyCreditEntry, balance.balance) },
    added,
  );
}

/** Adds `amount` to the customer's available credit, citing the transaction it came from. */
export async function grantCredit(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  input: { customerId: string; currencyCode: string; amount: bigint; transactionId: string; at: string },
): Promise<void> {
  if (input.amount <= 0n) return;
  await append(context, tx, input.customerId, input.currencyCode, () => [
    { kind: 'grant', amount: input.amount.toString(), transactionId: input.transactionId, at: input.at },
  ]);
}

/**
 * Applies the customer's available credit to a transaction being issued: at most its balance
 * due, reserved until the transaction completes. The tax inside the credit is its share of the
 * transaction's tax, half to even. Returns the transaction unchanged when there is nothing to draw.
 */
export async function drawCredit(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
  at: string,
): Promise<Transaction> {
  const due = BigInt(transaction.details.totals.balance);
  if (transaction.customerId === null || due <= 0n) return transaction;
  let drawn = 0n;
  await append(context, tx, transaction.customerId, transaction.currencyCode, (balance) => {
    drawn = BigInt(balance.balance.available) < due ? BigInt(balance.balance.available) : due;
    return drawn > 0n ? [{ kind: 'reserve', amount: drawn.toString(), transactionId: transaction.id, at }] : [];
  });
  if (drawn === 0n) return transaction;
  const { lines, settlement } = decompose(transaction);
  const total = lines.totals.total;
  const tax = drawn === total ? lines.totals.tax : divideRounded(drawn * lines.totals.tax, total, 'half-even');
  return {
    ...transaction,
    details: composeDetails(
      lines,
      { ...settlement, creditTotal: settlement.creditTotal + drawn, creditTax: settlement.creditTax + tax },
      transaction.currencyCode,
    ),
  };
}

async function reservedFor(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
): Promise<bigint> {
  if (transaction.customerId === null) return 0n;
  const ledger = await tx.creditBalances.ledger(context.scope, transaction.customerId, transaction.currencyCode);
  return ledger
    .filter((entry) => entry.transactionId === transaction.id)
    .reduce((sum, entry) => {
      if (entry.kind === 'reserve') return sum + BigInt(entry.amount);
      return entry.kind === 'grant' ? sum : sum - BigInt(entry.amount);
    }, 0n);
}

/**
 * Settles the credit side of a transaction that completed: the credit it reserved is used, and
 * what its negative lines leave over (`credit_to_balance`) becomes available credit.
 */
export async function settleCreditOnCompletion(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
  at: string,
): Promise<void> {
  if (transaction.customerId === null) return;
  const reserved = await reservedFor(context, tx, transaction);
  const toBalance = BigInt(transaction.details.totals.creditToBalance);
  if (reserved === 0n && toBalance === 0n) return;
  await append(context, tx, transaction.customerId, transaction.currencyCode, () => [
    ...(reserved > 0n
      ? [{ kind: 'use' as const, amount: reserved.toString(), transactionId: transaction.id, at }]
      : []),
    ...(toBalance > 0n
      ? [{ kind: 'grant' as const, amount: toBalance.toString(), transactionId: transaction.id, at }]
      : []),
  ]);
}

/** Returns a canceled transaction's reserved credit to available. */
export async function releaseCredit(
  context: Context<TransactionSlice>,
  tx: TransactionSlice,
  transaction: Transaction,
  at: string,
): Promise<void> {
  const reserved = await reservedFor(context, tx, transaction);
  if (reserved === 0n || transaction.customerId === null) return;
  await append(context, tx, transaction.customerId, transaction.currencyCode, () => [
    { kind: 'release', amount: reserved.toString(), transactionId: transaction.id, at },
  ]);
}

/**
 * `GET /customers/{id}/credit-balances`: the customer's balances by currency, only those of
 * `currencyCodes` when given.
 */
export async function listCreditBalances(
  context: Context<TransactionSlice>,
  customerId: string,
  currencyCodes?: readonly string[],
): Promise<readonly CreditBalance[]> {
  for (const code of currencyCodes ?? []) {
    if (!isSupportedCurrency(code))
      throw BillingError.invalidField('currency_code', `${code} is not a supported currency`);
  }
  const customer = await context.store.customers.findById(context.scope, customerId);
  if (!customer) throw BillingError.notFound('Customer', customerId);
  const balances = await context.store.creditBalances.list(context.scope, customerId);
  return currencyCodes ? balances.filter((balance) => currencyCodes.includes(balance.currencyCode)) : balances;
}
