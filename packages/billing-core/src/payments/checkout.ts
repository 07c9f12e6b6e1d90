/**
 * @module
 * Hosted checkout (ADR 1411): a customer pays a transaction through the environment's payment
 * provider. Three steps, each its own database transaction, with the provider called between
 * them and never inside one:
 *
 * 1. `beginAttempt`: under the transaction's row lock, set the customer and address (a `ready`
 *    transaction is rebuilt, so tax follows the address), then store a `processing` attempt.
 *    A replayed submission (same form key) finds its attempt; a second attempt while one is in
 *    flight is refused (`transaction_payment_in_progress`); a paid or canceled transaction is
 *    refused (`transaction_not_payable`).
 * 2. The provider pays (or, for a zero-value update-payment-method transaction, sets up).
 * 3. `applyOutcome`: the attempt's first final outcome wins. A success saves the method
 *    (`payment_method.saved`), records the captured payment with the card summary, completes
 *    the transaction through the same hooks as every completion (a checkout for recurring
 *    prices starts its subscription) and makes the method the subscription's. A decline records
 *    the failed payment (`transaction.payment_failed`); the transaction stays payable, so the
 *    customer can retry. An authentication step keeps the attempt in flight until the customer
 *    comes back (`resumeCheckout`) or the provider notifies (`receiveProviderNotification`).
 */
import { COUNTRY_CODE_PATTERN, newAddress } from '../catalogue/addresses.js';
import { newBusiness } from '../catalogue/businesses.js';
import { newCustomer } from '../catalogue/customers.js';
import type { Address, Business, Customer } from '../catalogue/entities.js';
import { DISCOUNT_CODE_PATTERN } from '../discounts/discounts.js';
import { recordEvent } from '../events/record-event.js';
import { wasReverseCharged } from '../invoices/invoice-document.js';
import { findSellerDetails } from '../invoices/seller-details.js';
import { BillingError } from '../shared/billing-error.js';
import { DuplicateKeyError } from '../shared/collection.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import { markPastDue } from '../subscriptions/subscription-billing.js';
import { saveChange } from '../subscriptions/subscription-changes.js';
import { storedTaxIdCheck } from '../tax/tax-id-checks.js';
import {
  completeSettled,
  NO_HOOKS,
  recordPaymentInTransaction,
  type TransactionHooks,
} from '../transactions/payments.js';
import type { PaymentMethod } from '../transactions/saved-methods.js';
import { paymentMethodWire } from '../transactions/saved-methods.js';
import { requireLiveTaxChoice, withTaxDefaults } from '../transactions/tax-settings.js';
import type { Transaction } from '../transactions/transaction.js';
import { saveTransaction } from '../transactions/transaction-changes.js';
import { updateTransactionIn } from '../transactions/transactions.js';
import { type CheckoutBusinessInput, checkCheckoutBusiness, sameCheckoutBusiness } from './checkout-business.js';
import { type RecurringTerms, recurringTerms } from './checkout-terms.js';
import {
  type CheckoutDetails,
  type CheckoutSubmission,
  IN_FLIGHT,
  type PaymentAttempt,
  type PaymentAttemptStatus,
} from './payment-attempt.js';
import type {
  BrowserPayment,
  PaymentOutcome,
  PaymentProvider,
  PaymentProviders,
  ProviderMethod,
} from './payment-provider.js';
import type { PaymentSlice } from './repositories.js';

const PAYABLE: ReadonlySet<string> = new Set(['ready', 'billed', 'past_due']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the checkout page shows. */
export interface CheckoutView {
  readonly transaction: Transaction;
  readonly customer: Customer | null;
  readonly address: Address | null;
  /** The newest attempt, if any: its outcome is what the page reports. */
  readonly attempt: PaymentAttempt | null;
  /** The provider that takes the payment; null when this environment has none (live without one). */
  readonly provider: string | null;
  /**
   * When the provider's browser library takes the card on the page (Stripe.js, ADR 1424): the
   * key it is loaded with. Null for the sandbox's own card fields, and for a live Stripe account
   * without a publishable key (its page cannot take cards).
   */
  readonly browserKey: string | null;
  /**
   * Whether the page can take a card: a provider is configured and, when its browser library
   * takes the card (Stripe.js), it has the key to load it with.
   */
  readonly takesCards: boolean;
  /** Who the customer pays: the seller's legal name from seller details, else the account's name. */
  readonly merchantName: string;
  /** The account's checkout `return_url` setting (ADR 1112): where a finished checkout leads back to. */
  readonly returnUrl: string | null;
  /** The business the transaction names (bought as a business, ADR 1113), or null. */
  readonly business: Business | null;
  /** Whether the transaction's VAT is reverse charged (an EU business buying across a border, ADR 1430). */
  readonly reverseCharge: boolean;
  /** What the subscription this checkout starts charges after it, and from when (ADR 1114); null if none. */
  readonly recurring: RecurringTerms | null;
  /** The seller's logo and pages from seller details (ADR 1113). */
  readonly seller: CheckoutSeller;
}

/** The seller's branding and pages the checkout shows (from seller details). */
export interface CheckoutSeller {
  /** The logo as a `data:` address (the page's CSP allows `img-src data:`), or null. */
  readonly logoDataUrl: string | null;
  readonly termsUrl: string | null;
  readonly privacyUrl: string | null;
  readonly refundPolicyUrl: string | null;
  readonly contactUrl: string | null;
  /** The seller's contact email, linked when no contact page is set. */
  readonly email: string | null;
}

export interface CheckoutPorts {
  readonly providers: PaymentProviders;
  readonly hooks: TransactionHooks;
}

async function latestAttempt(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transactionId: string,
): Promise<PaymentAttempt | null> {
  const page = await tx.paymentAttempts.list(context.scope, {
    filter: { transaction_id: [{ op: 'eq', value: transactionId }] },
    direction: 'desc',
    perPage: 1,
    countTotal: false,
  });
  return page.items[0] ?? null;
}

async function viewOf(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transaction: Transaction,
  providers: PaymentProviders,
): Promise<CheckoutView> {
  const customer = transaction.customerId ? await tx.customers.findById(context.scope, transaction.customerId) : null;
  const address = transaction.addressId ? await tx.addresses.findById(context.scope, transaction.addressId) : null;
  const provider = await providers.providerFor(context.scope);
  const seller = await findSellerDetails(context);
  const settings = await tx.checkoutSettings.findById(context.scope, 'checkout');
  const business = transaction.businessId
    ? ((await tx.businesses.findById(context.scope, transaction.businessId)) ?? null)
    : null;
  const reverseCharge = await wasReverseCharged(context, transaction, {
    address: address ?? null,
    business,
  });
  return {
    transaction,
    customer: customer ?? null,
    address: address ?? null,
    attempt: await latestAttempt(context, tx, transaction.id),
    provider: provider?.name ?? null,
    browserKey: provider?.browser?.publishableKey ?? null,
    takesCards: provider !== undefined && (provider.browser === undefined || provider.browser.publishableKey !== null),
    merchantName: seller?.legalName ?? context.account.name,
    returnUrl: settings?.returnUrl ?? null,
    business,
    reverseCharge,
    recurring: await recurringTermsOf(context, tx, transaction, customer ?? null, address ?? null, business),
    seller: {
      logoDataUrl: seller?.logo ? `data:${seller.logo.contentType};base64,${seller.logo.data}` : null,
      termsUrl: seller?.termsUrl ?? null,
      privacyUrl: seller?.privacyUrl ?? null,
      refundPolicyUrl: seller?.refundPolicyUrl ?? null,
      contactUrl: seller?.contactUrl ?? null,
      email: seller?.email ?? null,
    },
  };
}

/** The recurring terms while the checkout can still be paid (ADR 1114); none once paid or canceled. */
async function recurringTermsOf(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transaction: Transaction,
  customer: Customer | null,
  address: Address | null,
  business: Business | null,
): Promise<RecurringTerms | null> {
  if (!PAYABLE.has(transaction.status) && transaction.status !== 'draft') return null;
  if (!transaction.items.some((item) => item.price.billingCycle !== null)) return null;
  const discount = transaction.discountId
    ? await tx.discounts.findById(context.scope, transaction.discountId)
    : undefined;
  const taxSettings = withTaxDefaults(await tx.billingSettings.findTaxSettings(context.scope));
  return recurringTerms(
    {
      transaction,
      customer,
      address,
      business,
      taxIdCheck: await storedTaxIdCheck(context, tx, business, address?.countryCode ?? null),
      discount,
    },
    { ids: context.ids, now: nowTimestamp(context), taxSettings },
  );
}

/** The checkout page's view of a transaction. */
export async function openCheckout(
  context: Context<PaymentSlice>,
  providers: PaymentProviders,
  transactionId: string,
): Promise<CheckoutView> {
  const transaction = await context.store.transactions.findById(context.scope, transactionId);
  if (!transaction) throw BillingError.notFound('Transaction', transactionId);
  return viewOf(context, context.store, transaction, providers);
}

async function requireProvider(context: Context<PaymentSlice>, providers: PaymentProviders): Promise<PaymentProvider> {
  const provider = await providers.providerFor(context.scope);
  if (!provider) {
    throw new BillingError(
      'checkout_provider_not_configured',
      'This environment has no payment provider; the payment must be reported with POST /transactions/{id}/payments.',
    );
  }
  return provider;
}

function requirePayable(transaction: Transaction): void {
  if (!PAYABLE.has(transaction.status)) {
    throw new BillingError(
      'transaction_not_payable',
      transaction.status === 'completed' || transaction.status === 'paid'
        ? `Transaction ${transaction.id} is already paid.`
        : `Transaction ${transaction.id} is ${transaction.status} and cannot be paid.`,
    );
  }
}

function validateDetails(details: CheckoutDetails): void {
  if (!EMAIL.test(details.email.trim()) || details.email.length > 320) {
    throw BillingError.invalidField('email', 'must be an email address');
  }
  if (!COUNTRY_CODE_PATTERN.test(details.address.countryCode)) {
    throw BillingError.invalidField('country_code', 'must be an ISO 3166-1 alpha-2 code such as GB');
  }
}

function validateSubmission(context: Context<PaymentSlice>, submission: CheckoutSubmission): void {
  const method = submission.method;
  if (method.kind === 'card_fields') {
    const now = new Date(context.clock.now());
    const expired =
      method.expiryYear < now.getUTCFullYear() ||
      (method.expiryYear === now.getUTCFullYear() && method.expiryMonth < now.getUTCMonth() + 1);
    if (!Number.isInteger(method.expiryMonth) || method.expiryMonth < 1 || method.expiryMonth > 12 || expired) {
      throw new BillingError(
        'payment_method_input_invalid',
        'The card has expired or its expiry date is not a month.',
        [{ field: 'card_expiry', message: 'must be a month that has not passed, as MM/YY' }],
      );
    }
  }
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(submission.submissionKey)) {
    throw BillingError.invalidField('submission_key', 'must be the key the checkout page issued');
  }
  if (!/^(0|[1-9]\d{0,17})$/.test(submission.expectedAmount)) {
    throw BillingError.invalidField('expected_amount', 'must be the amount the checkout page showed');
  }
}

/** The customer who pays: the transaction's, or a new one with this email (never an existing customer's record). */
async function payingCustomer(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transaction: Transaction,
  email: string,
): Promise<Customer> {
  const normalised = email.trim().toLowerCase();
  if (transaction.customerId !== null) {
    const customer = await tx.customers.findById(context.scope, transaction.customerId);
    if (!customer) throw BillingError.notFound('Customer', transaction.customerId);
    if (customer.email !== normalised) {
      throw BillingError.invalidField('email', 'must be the email of the customer this transaction is for');
    }
    return customer;
  }
  const found = await tx.customers.list(context.scope, {
    filter: { email: [{ op: 'eq', value: normalised }] },
    direction: 'asc',
    perPage: 1,
    countTotal: false,
  });
  // An anonymous payer may not write to an existing customer's record by typing their email
  // (issue 32): that customer pays a transaction made out to them (ADR 1469).
  if (found.items.length > 0) {
    throw new BillingError(
      'checkout_email_belongs_to_customer',
      'This email belongs to an existing customer: pay from a checkout of a transaction made out to them, or use another email.',
      [{ field: 'email', message: 'belongs to an existing customer' }],
    );
  }
  const customer = newCustomer(context, { email: normalised });
  await tx.customers.insert(context.scope, customer);
  await recordEvent(context, tx, 'customer.created', 'customer', customer);
  return customer;
}

/** The billing address: the transaction's when it matches what was entered, else a new one. */
async function billingAddress(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transaction: Transaction,
  customer: Customer,
  entered: CheckoutDetails['address'],
): Promise<Address> {
  const current =
    transaction.addressId && transaction.customerId === customer.id
      ? await tx.addresses.findById(context.scope, transaction.addressId)
      : undefined;
  const same = (a: string | null, b: string | null) => (a ?? '').trim() === (b ?? '').trim();
  if (
    current &&
    current.countryCode === entered.countryCode &&
    same(current.postalCode, entered.postalCode) &&
    same(current.region, entered.region) &&
    same(current.city, entered.city) &&
    same(current.firstLine, entered.firstLine)
  ) {
    return current;
  }
  const blankToNull = (value: string | null) => (value === null || value.trim() === '' ? null : value.trim());
  const address = newAddress(context, customer.id, {
    firstLine: blankToNull(entered.firstLine),
    city: blankToNull(entered.city),
    postalCode: blankToNull(entered.postalCode),
    region: blankToNull(entered.region),
    countryCode: entered.countryCode,
  });
  await tx.addresses.insert(context.scope, address);
  await recordEvent(context, tx, 'address.created', 'address', address);
  return address;
}

/**
 * The business the checkout names (ADR 1113): the transaction's own when it is the one typed, else
 * an active business of the customer with the same name and tax number, else a new one
 * (`business.created`). A stored business is never changed from the checkout: it may be named by
 * the customer's other transactions and subscriptions, whose documents must not change.
 */
async function checkoutBusiness(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transaction: Transaction,
  customer: Customer,
  wanted: CheckoutBusinessInput,
): Promise<Business> {
  const current =
    transaction.businessId && transaction.customerId === customer.id
      ? await tx.businesses.findById(context.scope, transaction.businessId)
      : undefined;
  if (current && sameCheckoutBusiness(current, wanted)) return current;
  const owned = await tx.businesses.list(context.scope, {
    filter: { customer_id: [{ op: 'in', values: [customer.id] }], status: [{ op: 'eq', value: 'active' }] },
    direction: 'desc',
    perPage: 100,
    countTotal: false,
  });
  const found = owned.items.find((business) => sameCheckoutBusiness(business, wanted));
  if (found) return found;
  const business = newBusiness(context, customer.id, { name: wanted.name, taxIdentifier: wanted.taxIdentifier });
  await tx.businesses.insert(context.scope, business);
  await recordEvent(context, tx, 'business.created', 'business', business);
  return business;
}

/** Step 1: the customer and address are set (tax recomputed) and an attempt is stored. */
async function beginAttempt(
  context: Context<PaymentSlice>,
  provider: PaymentProvider,
  transactionId: string,
  submission: CheckoutSubmission,
  channel: 'form' | 'browser',
): Promise<{ readonly attempt: PaymentAttempt; readonly transaction: Transaction; readonly replay: boolean }> {
  return context.store.transaction(async (tx) => {
    const transaction = await tx.transactions.findByIdForUpdate(context.scope, transactionId);
    if (!transaction) throw BillingError.notFound('Transaction', transactionId);
    const replayed = await tx.paymentAttempts.list(context.scope, {
      filter: { submission_key: [{ op: 'eq', value: submission.submissionKey }] },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    const earlier = replayed.items[0];
    if (earlier) {
      if (earlier.transactionId !== transactionId) {
        throw BillingError.invalidField('submission_key', 'belongs to another checkout');
      }
      return { attempt: earlier, transaction, replay: true };
    }
    requirePayable(transaction);
    const inFlight = await tx.paymentAttempts.list(context.scope, {
      filter: {
        transaction_id: [{ op: 'eq', value: transactionId }],
        status: [{ op: 'in', values: IN_FLIGHT }],
      },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    if (inFlight.items.length > 0) {
      throw new BillingError(
        'transaction_payment_in_progress',
        `A payment of transaction ${transactionId} is already in progress; wait for its outcome.`,
      );
    }
    if (transaction.customerId === null || transaction.addressId === null) {
      throw new BillingError(
        'transaction_not_payable',
        `Transaction ${transactionId} needs the customer's email and address before it can be paid.`,
      );
    }
    const now = nowTimestamp(context);
    const balance = BigInt(transaction.details.totals.balance);
    if (balance.toString() !== submission.expectedAmount && !(balance < 0n && submission.expectedAmount === '0')) {
      throw new BillingError(
        'transaction_checkout_amount_changed',
        `Transaction ${transactionId} now owes ${balance}, not the ${submission.expectedAmount} shown; nothing was charged.`,
      );
    }
    const attempt: PaymentAttempt = {
      id: context.ids.newId('payatt'),
      transactionId,
      kind: balance > 0n ? 'checkout' : 'setup',
      provider: provider.name,
      providerPaymentRef: null,
      status: 'processing',
      submissionKey: submission.submissionKey,
      amount: balance > 0n ? balance.toString() : '0',
      currencyCode: transaction.currencyCode,
      saveMethod: submission.saveMethod,
      actionUrl: null,
      errorCode: null,
      paymentMethodId: null,
      channel,
      createdAt: now,
      updatedAt: now,
    };
    const inProgress = await insertAttempt(context, tx, attempt);
    if (inProgress !== undefined) throw inProgress;
    return { attempt, transaction, replay: false };
  });
}

/**
 * Stores a new payment attempt. The refusal `transaction_payment_in_progress` when another process began an attempt
 * of the same transaction just now (the attempts' partial unique index), for the caller to throw or return.
 */
export async function insertAttempt(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  attempt: PaymentAttempt,
): Promise<BillingError | undefined> {
  try {
    await tx.paymentAttempts.insert(context.scope, attempt);
    return undefined;
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    return new BillingError(
      'transaction_payment_in_progress',
      `A payment of transaction ${attempt.transactionId} is already in progress; wait for its outcome.`,
    );
  }
}

/** Marks an attempt the provider refused outright (bad card details) as failed, freeing the transaction. */
export async function failAttempt(context: Context<PaymentSlice>, attemptId: string): Promise<void> {
  await context.store.transaction(async (tx) => {
    const attempt = await tx.paymentAttempts.findByIdForUpdate(context.scope, attemptId);
    if (!attempt || !IN_FLIGHT.includes(attempt.status)) return;
    await tx.paymentAttempts.update(context.scope, { ...attempt, status: 'failed', updatedAt: nowTimestamp(context) });
  });
}

/** The checkout may still take details (a draft or ready transaction nothing was paid on). */
function takesDetails(transaction: Transaction): boolean {
  return (
    (transaction.status === 'draft' || transaction.status === 'ready') &&
    !transaction.payments.some((payment) => payment.status === 'captured')
  );
}

/** Refuses a change of what a checkout owes while one of its payments is with the provider. */
async function refuseWhileInFlight(context: Context<PaymentSlice>, tx: PaymentSlice, transactionId: string) {
  const inFlight = await tx.paymentAttempts.list(context.scope, {
    filter: { transaction_id: [{ op: 'eq', value: transactionId }], status: [{ op: 'in', values: IN_FLIGHT }] },
    direction: 'asc',
    perPage: 1,
    countTotal: false,
  });
  if (inFlight.items.length > 0) {
    throw new BillingError(
      'transaction_payment_in_progress',
      `A payment of transaction ${transactionId} is in progress; its details cannot change now.`,
    );
  }
}

/** The transaction a checkout may still reshape (details, promo code), locked; refused once paid, billed or paying. */
async function reshapableCheckout(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  transactionId: string,
  what: string,
): Promise<Transaction> {
  const transaction = await tx.transactions.findByIdForUpdate(context.scope, transactionId);
  if (!transaction) throw BillingError.notFound('Transaction', transactionId);
  if (!takesDetails(transaction)) {
    const paid = transaction.status === 'completed' || transaction.status === 'paid';
    throw new BillingError(
      paid ? 'transaction_not_payable' : 'transaction_not_editable',
      paid
        ? `Transaction ${transactionId} is already paid.`
        : `Transaction ${transactionId} is ${transaction.status}; its ${what} can no longer change.`,
    );
  }
  await refuseWhileInFlight(context, tx, transactionId);
  return transaction;
}

/**
 * The checkout's promo code (issue 35; ADR 1111): the discount of this account environment with
 * this code (compared case-insensitively, as codes are unique), when it is enabled for checkout,
 * applied as `discount_id` is applied through the API, so its expiry, usage limit, restriction
 * to prices and products and currency are checked the same way, and the tax is computed again on
 * the discounted lines. An unknown code, an archived one and one not enabled for checkout are
 * refused alike (`checkout_discount_code_invalid`): the page never tells which codes exist.
 * Applying the code a transaction already carries changes nothing.
 */
export async function applyCheckoutCode(
  context: Context<PaymentSlice>,
  providers: PaymentProviders,
  transactionId: string,
  code: string,
): Promise<CheckoutView> {
  const typed = code.trim();
  const invalid = () =>
    new BillingError('checkout_discount_code_invalid', 'This code is not a discount this checkout takes.', [
      { field: 'code', message: 'is not a valid code' },
    ]);
  if (!DISCOUNT_CODE_PATTERN.test(typed)) throw invalid();
  await context.store.transaction(async (tx) => {
    const transaction = await reshapableCheckout(context, tx, transactionId, 'discount');
    const found = await tx.discounts.list(context.scope, {
      filter: { code: [{ op: 'eq', value: typed.toLowerCase() }] },
      direction: 'asc',
      perPage: 1,
      countTotal: false,
    });
    const discount = found.items[0];
    if (!discount || !discount.enabledForCheckout || discount.status === 'archived') throw invalid();
    if (transaction.discountId === discount.id) return;
    await updateTransactionIn(context, tx, transactionId, { discountId: discount.id });
  });
  return openCheckout(context, providers, transactionId);
}

/**
 * The checkout's first step: the customer (the transaction's, else the one with this email, else
 * a new one) and the billing address. The transaction is rebuilt with them, so its tax is the
 * address's (the core's transaction computation, as every transaction's); the page then shows the
 * total the second step charges.
 */
export async function setCheckoutDetails(
  context: Context<PaymentSlice>,
  providers: PaymentProviders,
  transactionId: string,
  details: CheckoutDetails,
): Promise<CheckoutView> {
  validateDetails(details);
  // Every rule of the business is checked before anything is written (ADR 1113).
  const wanted = details.business
    ? checkCheckoutBusiness(details.address.countryCode, details.business)
    : details.business;
  await context.store.transaction(async (tx) => {
    const transaction = await reshapableCheckout(context, tx, transactionId, 'customer and address');
    const customer = await payingCustomer(context, tx, transaction, details.email);
    const address = await billingAddress(context, tx, transaction, customer, details.address);
    const businessId =
      wanted === undefined
        ? transaction.customerId === customer.id
          ? transaction.businessId
          : null
        : wanted === null
          ? null
          : (await checkoutBusiness(context, tx, transaction, customer, wanted)).id;
    if (
      transaction.customerId !== customer.id ||
      transaction.addressId !== address.id ||
      transaction.businessId !== businessId
    ) {
      await updateTransactionIn(context, tx, transactionId, {
        customerId: customer.id,
        addressId: address.id,
        businessId,
      });
    }
  });
  return openCheckout(context, providers, transactionId);
}

/** `POST /checkout` (the page's form): pays the transaction, or answers the replayed submission's outcome. */
export async function submitCheckout(
  context: Context<PaymentSlice>,
  ports: CheckoutPorts,
  transactionId: string,
  submission: CheckoutSubmission,
): Promise<CheckoutView> {
  const provider = await requireProvider(context, ports.providers);
  await requireLiveTaxChoice(context, context.store);
  validateSubmission(context, submission);
  const current = await latestAttempt(context, context.store, transactionId);
  if (current && current.submissionKey !== submission.submissionKey) await supersedeWaiting(context, ports, current);
  const { attempt, transaction, replay } = await beginAttempt(context, provider, transactionId, submission, 'form');
  if (!replay) {
    const customer = transaction.customerId
      ? await context.store.customers.findById(context.scope, transaction.customerId)
      : undefined;
    if (!customer) throw BillingError.notFound('Customer', transaction.customerId ?? '');
    const party = {
      scope: context.scope,
      customerId: transaction.customerId ?? '',
      customerEmail: customer.email,
      transactionId,
      attemptId: attempt.id,
    };
    let outcome: PaymentOutcome;
    try {
      outcome =
        attempt.kind === 'setup'
          ? await provider.setUpMethod({ ...party, method: submission.method, returnUrl: submission.returnUrl })
          : await provider.payCheckout({
              ...party,
              amount: attempt.amount,
              currencyCode: attempt.currencyCode,
              method: submission.method,
              saveMethod: submission.saveMethod || transaction.items.some((item) => item.price.billingCycle !== null),
              returnUrl: submission.returnUrl,
            });
    } catch (error) {
      // A refusal (bad card details) means the provider did nothing: the attempt ends. Any other
      // error may be a lost answer to a payment the provider made: the attempt stays in flight
      // until the recovery step finds out from the provider (ADR 1468).
      if (error instanceof BillingError) await failAttempt(context, attempt.id);
      throw error;
    }
    await context.store.transaction((tx) => applyOutcome(context, tx, attempt.id, outcome, ports.hooks));
  }
  return openCheckout(context, ports.providers, transactionId);
}

/**
 * Before a new payment: a customer-present attempt still in flight with the provider (a challenge
 * the customer left, a browser payment never confirmed) is superseded (ADR 1468). It is canceled at
 * the provider first and the provider's answer applied: canceled, the attempt ends and the new
 * payment goes ahead; paid meanwhile, the payment is recorded and the transaction is paid. A
 * provider that cannot cancel it yet (still deciding) leaves it in flight, and the new payment is
 * refused as before (`transaction_payment_in_progress`).
 */
async function supersedeWaiting(context: Context<PaymentSlice>, ports: CheckoutPorts, current: PaymentAttempt) {
  if (
    !IN_FLIGHT.includes(current.status) ||
    current.kind === 'off_session' ||
    current.captureMethod === 'manual' ||
    current.providerPaymentRef === null
  ) {
    return;
  }
  const provider = await ports.providers.providerNamed(context.scope, current.provider);
  if (!provider) return;
  const outcome = await provider.cancelWaiting(context.scope, current.providerPaymentRef);
  await context.store.transaction((tx) => applyCancellation(context, tx, current.id, outcome, ports.hooks));
}

/**
 * Applies the provider's answer to a cancellation Drawdown asked for (`cancelWaiting`), once: a
 * decline ends the attempt `canceled` (nothing was taken, and it is no failed payment of the
 * customer's); a success is the money taken before the cancel arrived, applied as any success;
 * anything still waiting leaves the attempt in flight. True when the attempt left flight.
 */
export async function applyCancellation(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  attemptId: string,
  outcome: PaymentOutcome,
  hooks: TransactionHooks,
): Promise<boolean> {
  if (outcome.status === 'succeeded') return applyOutcome(context, tx, attemptId, outcome, hooks);
  if (outcome.status !== 'declined') return false;
  const unlocked = await tx.paymentAttempts.findById(context.scope, attemptId);
  if (!unlocked) return false;
  await tx.transactions.findByIdForUpdate(context.scope, unlocked.transactionId);
  const attempt = await tx.paymentAttempts.findByIdForUpdate(context.scope, attemptId);
  if (!attempt || !IN_FLIGHT.includes(attempt.status)) return false;
  await tx.paymentAttempts.update(context.scope, {
    ...attempt,
    status: 'canceled',
    providerPaymentRef: outcome.providerPaymentRef,
    errorCode: outcome.errorCode,
    actionUrl: null,
    updatedAt: nowTimestamp(context),
  });
  return true;
}

/** The browser's request for a payment to confirm (ADR 1424): no card, only the page's key and the amount it showed. */
export interface BrowserCheckoutSubmission {
  readonly submissionKey: string;
  readonly expectedAmount: string;
  readonly saveMethod: boolean;
}

/** What the checkout page's script confirms with the provider's browser library. */
export interface BrowserCheckoutStart {
  readonly kind: 'checkout' | 'setup';
  readonly clientSecret: string;
  readonly attemptId: string;
}

export function browserRequest(
  attempt: PaymentAttempt,
  transaction: Transaction,
  customer: Customer,
  context: Context<PaymentSlice>,
): Parameters<NonNullable<PaymentProvider['browser']>['createBrowserPayment']>[0] {
  return {
    scope: context.scope,
    customerId: customer.id,
    customerEmail: customer.email,
    transactionId: transaction.id,
    attemptId: attempt.id,
    kind: attempt.kind === 'setup' ? 'setup' : 'checkout',
    amount: attempt.amount,
    currencyCode: attempt.currencyCode,
    saveMethod: attempt.saveMethod || transaction.items.some((item) => item.price.billingCycle !== null),
  };
}

/**
 * The checkout page's script asks for a payment its provider's browser library confirms
 * (Stripe.js's Payment Element, ADR 1424). An attempt is stored as for a form payment (same
 * locks, amount check, one in flight); the provider creates the unconfirmed payment for the
 * attempt's amount, keyed by the attempt, and the browser confirms it. Nothing completes here:
 * the transaction completes only when the server reads the confirmed payment back from the
 * provider (`resumeCheckout` at the return URL) or the provider's webhook says so.
 *
 * An attempt of this kind still in flight is settled with the provider first: a payment the
 * customer never confirmed is answered again (the same one, so a reload or a second tab never
 * makes two), a declined one is recorded and a new attempt begins.
 */
export async function startBrowserCheckout(
  context: Context<PaymentSlice>,
  ports: CheckoutPorts,
  transactionId: string,
  submission: BrowserCheckoutSubmission,
): Promise<BrowserCheckoutStart> {
  const provider = await requireProvider(context, ports.providers);
  await requireLiveTaxChoice(context, context.store);
  const browser = provider.browser;
  if (!browser || browser.publishableKey === null) {
    throw new BillingError(
      'checkout_provider_not_configured',
      'This payment provider takes no card on the checkout page (a live Stripe account needs its publishable key).',
    );
  }
  validateSubmission(context, { ...submission, method: { kind: 'token', token: '' }, returnUrl: '' });
  const current = await latestAttempt(context, context.store, transactionId);
  // A form payment left waiting (its challenge abandoned) is superseded, never asked again as a
  // browser payment under its own key (ADR 1468).
  if (current && current.channel !== 'browser') await supersedeWaiting(context, ports, current);
  if (
    current &&
    current.channel === 'browser' &&
    IN_FLIGHT.includes(current.status) &&
    current.provider === provider.name &&
    current.kind !== 'off_session' &&
    current.providerPaymentRef !== null
  ) {
    const outcome = await provider.resumeAttempt(context.scope, current.providerPaymentRef);
    if (outcome.status === 'pending' || outcome.status === 'requires_action') {
      const transaction = await context.store.transactions.findById(context.scope, transactionId);
      const customer = transaction?.customerId
        ? await context.store.customers.findById(context.scope, transaction.customerId)
        : undefined;
      if (!transaction || !customer) throw BillingError.notFound('Transaction', transactionId);
      if (
        current.amount !== submission.expectedAmount &&
        !(current.kind === 'setup' && submission.expectedAmount === '0')
      ) {
        throw new BillingError(
          'transaction_checkout_amount_changed',
          `Transaction ${transactionId} now owes ${current.amount}, not the ${submission.expectedAmount} shown; nothing was charged.`,
        );
      }
      const again = await browser.createBrowserPayment(browserRequest(current, transaction, customer, context));
      return {
        kind: current.kind === 'setup' ? 'setup' : 'checkout',
        clientSecret: again.clientSecret,
        attemptId: current.id,
      };
    }
    await context.store.transaction((tx) => applyOutcome(context, tx, current.id, outcome, ports.hooks));
  }
  const { attempt, transaction, replay } = await beginAttempt(
    context,
    provider,
    transactionId,
    { ...submission, method: { kind: 'token', token: '' }, returnUrl: '' },
    'browser',
  );
  if (replay && !IN_FLIGHT.includes(attempt.status)) {
    throw new BillingError(
      'transaction_not_payable',
      `This payment of transaction ${transactionId} has already ended.`,
    );
  }
  const customer = transaction.customerId
    ? await context.store.customers.findById(context.scope, transaction.customerId)
    : undefined;
  if (!customer) throw BillingError.notFound('Customer', transaction.customerId ?? '');
  let payment: BrowserPayment;
  try {
    payment = await browser.createBrowserPayment(browserRequest(attempt, transaction, customer, context));
  } catch (error) {
    if (!replay) await failAttempt(context, attempt.id);
    throw error;
  }
  await context.store.transaction(async (tx) => {
    const stored = await tx.paymentAttempts.findByIdForUpdate(context.scope, attempt.id);
    if (!stored || stored.providerPaymentRef !== null || !IN_FLIGHT.includes(stored.status)) return;
    await tx.paymentAttempts.update(context.scope, {
      ...stored,
      providerPaymentRef: payment.providerPaymentRef,
      updatedAt: nowTimestamp(context),
    });
  });
  return {
    kind: attempt.kind === 'setup' ? 'setup' : 'checkout',
    clientSecret: payment.clientSecret,
    attemptId: attempt.id,
  };
}

/**
 * The customer came back from authenticating: asks the provider how the attempt ended and applies it.
 * `mayAskProvider` is the caller's limit on asking about one attempt (the public return address
 * asks at most once per interval, so visitors cannot spend the merchant's provider quota).
 */
export async function resumeCheckout(
  context: Context<PaymentSlice>,
  ports: CheckoutPorts,
  transactionId: string,
  mayAskProvider: (attemptId: string) => boolean,
): Promise<CheckoutView> {
  const attempt = await latestAttempt(context, context.store, transactionId);
  if (
    attempt &&
    IN_FLIGHT.includes(attempt.status) &&
    attempt.providerPaymentRef !== null &&
    mayAskProvider(attempt.id)
  ) {
    const provider = await ports.providers.providerNamed(context.scope, attempt.provider);
    if (provider) {
      const outcome = await provider.resumeAttempt(context.scope, attempt.providerPaymentRef);
      await context.store.transaction((tx) => applyOutcome(context, tx, attempt.id, outcome, ports.hooks));
    }
  }
  return openCheckout(context, ports.providers, transactionId);
}

/** Saves the method a provider kept for the customer; `payment_method.saved`. */
async function saveMethod(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  attempt: PaymentAttempt,
  transaction: Transaction,
  method: ProviderMethod,
): Promise<PaymentMethod | null> {
  if (transaction.customerId === null || attempt.kind === 'off_session') return null;
  const recurring = transaction.items.some((item) => item.price.billingCycle !== null);
  const wanted = attempt.saveMethod || recurring || attempt.kind === 'setup' || transaction.subscriptionId !== null;
  if (!wanted) return null;
  const now = nowTimestamp(context);
  const saved: PaymentMethod = {
    id: context.ids.newId('paymtd'),
    customerId: transaction.customerId,
    addressId: transaction.addressId,
    type: method.type,
    card: method.card,
    paypal: null,
    underlyingDetails: null,
    origin: recurring || transaction.subscriptionId !== null ? 'subscription' : 'saved_during_purchase',
    savedAt: now,
    updatedAt: now,
    internal: { provider: attempt.provider, providerMethodRef: method.providerMethodRef, status: 'saved' },
  };
  await tx.paymentMethods.insert(context.scope, saved);
  await recordEvent(context, tx, 'payment_method.saved', 'payment_method', paymentMethodWire(saved));
  return saved;
}

/** Makes `paymentMethodId` the subscription's method for its automatic charges. */
export async function useMethodForSubscription(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  subscriptionId: string,
  paymentMethodId: string,
): Promise<void> {
  const subscription = await tx.subscriptions.findByIdForUpdate(context.scope, subscriptionId);
  if (!subscription || subscription.internal.paymentMethodId === paymentMethodId) return;
  await saveChange(context, tx, {
    before: subscription,
    after: { ...subscription, internal: { ...subscription.internal, paymentMethodId } },
    eventTypes: [],
    at: nowTimestamp(context),
  });
}

/** Attempts Drawdown ended without money: a success heard afterwards is money taken all the same (ADR 1468). */
const ENDED_WITHOUT_MONEY: readonly PaymentAttemptStatus[] = ['failed', 'canceled', 'declined'];

/**
 * Step 3: applies a provider's outcome to an attempt, once; false when the attempt was already final. Locks the transaction, then the
 * attempt (the order of step 1), so two outcomes of one attempt (the customer's return and a
 * webhook) apply one after the other and the second finds the attempt final.
 *
 * Money the provider took is always recorded (ADR 1468). A success is applied to the transaction
 * when it can take it (still payable, owing at least the amount). Otherwise (the transaction was
 * canceled or paid meanwhile, or owes less) it is recorded on the transaction as a `canceled`
 * payment and the attempt waits in `refunding` for the recovery step to refund it through the
 * provider. A success heard after Drawdown had ended the attempt (its answer lost, or canceled
 * after waiting) is applied the same way.
 */
export async function applyOutcome(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  attemptId: string,
  outcome: PaymentOutcome,
  hooks: TransactionHooks,
): Promise<boolean> {
  const unlocked = await tx.paymentAttempts.findById(context.scope, attemptId);
  if (!unlocked) return false;
  const transaction = await tx.transactions.findByIdForUpdate(context.scope, unlocked.transactionId);
  const attempt = await tx.paymentAttempts.findByIdForUpdate(context.scope, attemptId);
  if (!transaction || !attempt) return false;
  if (!IN_FLIGHT.includes(attempt.status)) {
    if (outcome.status !== 'succeeded' || !ENDED_WITHOUT_MONEY.includes(attempt.status)) return false;
  }
  const now = nowTimestamp(context);
  const base = { ...attempt, providerPaymentRef: outcome.providerPaymentRef, updatedAt: now };
  // Asked again, a payment still waiting as it was changes nothing: its wait (ADR 1468) runs on.
  const unchanged =
    outcome.providerPaymentRef === attempt.providerPaymentRef &&
    ((outcome.status === 'requires_action' &&
      attempt.status === 'requires_action' &&
      outcome.actionUrl === attempt.actionUrl) ||
      (outcome.status === 'pending' && attempt.status === 'processing'));
  if (unchanged) return true;
  switch (outcome.status) {
    case 'requires_action':
      await tx.paymentAttempts.update(context.scope, {
        ...base,
        status: 'requires_action',
        actionUrl: outcome.actionUrl,
      });
      return true;
    case 'pending':
      await tx.paymentAttempts.update(context.scope, { ...base, status: 'processing' });
      return true;
    case 'declined': {
      if (outcome.errorCode === 'canceled') {
        // The provider canceled the payment (Drawdown superseding or expiring it, perhaps in another
        // process, or the merchant at the provider): nobody declined the card, so the attempt ends
        // `canceled`, as `applyCancellation` ends it, with no failed payment on the transaction.
        await tx.paymentAttempts.update(context.scope, {
          ...base,
          status: 'canceled',
          errorCode: 'canceled',
          actionUrl: null,
        });
        return true;
      }
      await tx.paymentAttempts.update(context.scope, {
        ...base,
        status: 'declined',
        errorCode: outcome.errorCode,
        actionUrl: null,
      });
      await recordDecline(context, tx, attempt, transaction, outcome.errorCode, outcome.method);
      return true;
    }
    case 'succeeded': {
      const amount = BigInt(attempt.amount);
      const unapplied = amount > 0n ? unappliedReason(amount, transaction) : undefined;
      if (unapplied !== undefined) {
        await recordUnapplied(context, tx, base, transaction, outcome.method, unapplied);
        return true;
      }
      const saved = await saveMethod(context, tx, attempt, transaction, outcome.method);
      await tx.paymentAttempts.update(context.scope, {
        ...base,
        status: 'succeeded',
        actionUrl: null,
        paymentMethodId: saved?.id ?? null,
      });
      // A setup (nothing taken) completes only a transaction that owes nothing and can still complete.
      if (!PAYABLE.has(transaction.status)) return true;
      if (amount === 0n && BigInt(transaction.details.totals.balance) > 0n) return true;
      const completed =
        amount === 0n
          ? await completeSettled(context, tx, transaction, { ...transaction, updatedAt: now }, hooks)
          : await recordPaymentInTransaction(
              context,
              tx,
              transaction.id,
              {
                status: 'captured',
                methodType: outcome.method.type,
                providerReference: outcome.providerPaymentRef,
                paymentAttemptId: attempt.id,
                paymentMethodId: saved?.id ?? attempt.paymentMethodId,
                card: outcome.method.card,
                amount: attempt.amount,
              },
              hooks,
            );
      if (saved && completed.subscriptionId !== null) {
        await useMethodForSubscription(context, tx, completed.subscriptionId, saved.id);
      }
      return true;
    }
  }
}

/** Why the transaction cannot take `amount` (more than 0) now; undefined when it can (ADR 1468). */
function unappliedReason(amount: bigint, transaction: Transaction): PaymentAttempt['unapplied'] {
  if (transaction.status === 'canceled') return 'transaction_canceled';
  if (!PAYABLE.has(transaction.status)) return 'transaction_paid';
  return amount > BigInt(transaction.details.totals.balance) ? 'amount_exceeds_balance' : undefined;
}

/**
 * Money taken that the transaction cannot take: kept in its `payments[]` as a `canceled` payment
 * (counted nowhere: not paid, not owed) with the provider's reference, and the attempt left in
 * `refunding`, which the recovery step refunds through the provider (ADR 1468). The merchant hears
 * `transaction.updated`.
 */
async function recordUnapplied(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  attempt: PaymentAttempt,
  transaction: Transaction,
  method: ProviderMethod,
  reason: NonNullable<PaymentAttempt['unapplied']>,
): Promise<void> {
  const now = nowTimestamp(context);
  await tx.paymentAttempts.update(context.scope, {
    ...attempt,
    status: 'refunding',
    unapplied: reason,
    refundRef: null,
    actionUrl: null,
    updatedAt: now,
  });
  await saveTransaction(
    context,
    tx,
    transaction,
    withAttemptPayment(transaction, attempt, { status: 'canceled', errorCode: 'canceled', method, now }),
  );
}

/**
 * The transaction with a `payments[]` entry for an attempt that did not pay it: `error` (a decline)
 * or `canceled` (money taken that it could not take, refunded; captured at `now`).
 */
function withAttemptPayment(
  transaction: Transaction,
  attempt: PaymentAttempt,
  entry: {
    readonly status: 'error' | 'canceled';
    readonly errorCode: string;
    readonly method: ProviderMethod | null;
    readonly now: string;
  },
): Transaction {
  return {
    ...transaction,
    payments: [
      ...transaction.payments,
      {
        paymentAttemptId: attempt.id,
        storedPaymentMethodId: null,
        paymentMethodId: null,
        amount: attempt.amount,
        status: entry.status,
        errorCode: entry.errorCode,
        methodDetails: {
          type: entry.method?.type ?? 'card',
          card: entry.method?.card ?? null,
          underlyingDetails: null,
        },
        providerReference: attempt.providerPaymentRef ?? attempt.id,
        createdAt: entry.now,
        capturedAt: entry.status === 'canceled' ? entry.now : null,
      },
    ],
    updatedAt: entry.now,
  };
}

/**
 * A declined attempt is kept in `payments[]` with its error code (`transaction.payment_failed`).
 * A customer-present checkout leaves the transaction as it was, so the customer can retry; an
 * off-session charge of an automatically collected transaction sends it `past_due`.
 */
async function recordDecline(
  context: Context<PaymentSlice>,
  tx: PaymentSlice,
  attempt: PaymentAttempt,
  transaction: Transaction,
  errorCode: string,
  method: ProviderMethod | null,
): Promise<void> {
  if (!PAYABLE.has(transaction.status)) return;
  if (attempt.kind === 'off_session') {
    // The card charged is the saved method's: a provider's decline may not describe it (the
    // sandbox's off-session answer knows only the card's behaviour).
    const charged = attempt.paymentMethodId
      ? await tx.paymentMethods.findById(context.scope, attempt.paymentMethodId)
      : undefined;
    await recordPaymentInTransaction(
      context,
      tx,
      transaction.id,
      {
        status: 'error',
        methodType: 'card',
        providerReference: attempt.providerPaymentRef ?? attempt.id,
        errorCode,
        paymentAttemptId: attempt.id,
        paymentMethodId: attempt.paymentMethodId,
        card: charged?.card ?? method?.card ?? null,
        amount: attempt.amount,
      },
      NO_HOOKS,
    );
    // Dunning, as a declined renewal in the sandbox: the subscription is past due.
    const subscription = transaction.subscriptionId
      ? await tx.subscriptions.findByIdForUpdate(context.scope, transaction.subscriptionId)
      : undefined;
    if (subscription && (subscription.status === 'active' || subscription.status === 'trialing')) {
      await markPastDue(context, tx, subscription, nowTimestamp(context));
    }
    return;
  }
  await saveTransaction(
    context,
    tx,
    transaction,
    withAttemptPayment(transaction, attempt, { status: 'error', errorCode, method, now: nowTimestamp(context) }),
    ['transaction.payment_failed'],
  );
}
