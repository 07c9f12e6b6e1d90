/**
 * @module
 * Fills a billing-service SANDBOX with what a newcomer needs to see a populated portal: a plan
 * with usage allowances (units, meters, an allowance price), two customers with subscriptions,
 * real transactions in every shown status (paid through `simulate-payment`, billed manual
 * invoices, a canceled and a past-due one, a huge amount, three currencies), some that the
 * portal must never show (draft, ready), and usage events. Everything goes through the SDK over
 * HTTP. Seeding is marked on the customers, so a second start reuses what the first one made
 * (ADR 0805).
 */
import type { Customer, Drawdown, Price, Transaction } from '@drawdown/sdk';

/** Marks a customer whose demo data is complete. */
const SEEDED_MARK = 'portal-demo-v1';

/** The meters' actions: usage events with these draw down the demo balances. */
export const DEMO_ACTIONS = { apiCall: 'api_call', reportExport: 'report_export' } as const;

export interface DemoCustomer {
  readonly email: string;
  readonly name: string;
  readonly customerId: string;
}

export interface DemoSeed {
  /** Ada: a long history (more than one page) in USD, EUR and JPY, with usage. */
  readonly ada: DemoCustomer;
  /** Grace: a short EUR history, past her API-call allowance. */
  readonly grace: DemoCustomer;
  /** Whether this call created the data (false when an earlier start had). */
  readonly created: boolean;
  /** The plan's prices (with the allowances), when this call created them. */
  readonly planPrices: { readonly usd: string; readonly eur: string } | null;
  /** The monthly USD plans a customer with no plan may pick in the portal (ADR 0812). */
  readonly offerPriceIds: readonly string[];
}

/** The active monthly USD prices of the product Ada's plan belongs to: what the portal offers a customer with no plan. */
async function offersOf(client: Drawdown, customerId: string): Promise<readonly string[]> {
  const [plan] = await client.subscriptions.list({ customerId: [customerId], perPage: 1 }).next();
  const productId = plan?.items[0]?.price.productId;
  if (!productId) return [];
  const prices = await client.prices.list({ productId: [productId], status: ['active'], perPage: 50 }).next();
  return prices
    .filter(
      (price) =>
        price.unitPrice.currencyCode === 'USD' &&
        price.billingCycle?.interval === 'month' &&
        price.billingCycle.frequency === 1,
    )
    .map((price) => price.id);
}

export interface SeedOptions {
  /** Completed one-off purchases for Ada (the page shows 30 at a time). Default 32. */
  readonly adaPurchases?: number;
  readonly log?: (line: string) => void;
  /** How long to wait for the balances a paid plan creates. Default 5000 ms. */
  readonly balanceWaitMs?: number;
}

interface Catalogue {
  readonly planUsd: Price;
  readonly planEur: Price;
  readonly teamUsd: Price;
  readonly teamEur: Price;
  readonly supportUsd: Price;
  readonly supportEur: Price;
  readonly supportJpy: Price;
  readonly consultingUsd: Price;
  readonly consultingEur: Price;
  readonly enterpriseUsd: Price;
}

async function findSeeded(client: Drawdown, email: string): Promise<Customer | null> {
  const [customer] = await client.customers.list({ email: [email] }).next();
  return customer ?? null;
}

async function createCatalogue(client: Drawdown): Promise<Catalogue> {
  // Sales tax for the demo's countries, so rows show the tax within each total; only on a
  // sandbox whose tax settings were never set, so an operator's own settings stay.
  const tax = await client.taxSettings.get();
  if (tax.updatedAt === null) {
    await client.taxSettings.update({
      countryRates: [
        { countryCode: 'US', rate: '0.08875' },
        { countryCode: 'DE', rate: '0.19' },
      ],
    });
  }
  const calls = await client.usageBalanceUnits.create({ name: 'API calls', unitName: 'calls' });
  const exports = await client.usageBalanceUnits.create({ name: 'Report exports', unitName: 'exports' });
  await client.meters.create({
    usageBalanceUnitId: calls.id,
    name: 'API requests',
    action: DEMO_ACTIONS.apiCall,
    unitName: 'call',
    rate: '1',
  });
  await client.meters.create({
    usageBalanceUnitId: exports.id,
    name: 'Report exports',
    action: DEMO_ACTIONS.reportExport,
    unitName: 'export',
    rate: '1',
  });
  const plan = await client.products.create({ name: 'Drawdown Pro plan', taxCategory: 'saas' });
  const support = await client.products.create({ name: 'Priority support hours', taxCategory: 'standard' });
  const consulting = await client.products.create({ name: 'Onboarding workshop', taxCategory: 'standard' });
  const enterprise = await client.products.create({ name: 'Enterprise licence', taxCategory: 'standard' });
  const allowances = [
    { usageBalanceUnitId: calls.id, amount: '1000' },
    { usageBalanceUnitId: exports.id, amount: '50' },
  ];
  const monthly = { interval: 'month', frequency: 1 } as const;
  const price = (productId: string, description: string, amount: string, currencyCode: string) =>
    client.prices.create({ productId, description, name: description, unitPrice: { amount, currencyCode } });
  return {
    planUsd: await client.prices.create({
      productId: plan.id,
      description: 'Pro, monthly (USD)',
      name: 'Pro, monthly',
      unitPrice: { amount: '4900', currencyCode: 'USD' },
      billingCycle: monthly,
      allowances,
    }),
    planEur: await client.prices.create({
      productId: plan.id,
      description: 'Pro, monthly (EUR)',
      name: 'Pro, monthly',
      unitPrice: { amount: '4500', currencyCode: 'EUR' },
      billingCycle: monthly,
      allowances,
    }),
    // A bigger plan on the same product: what a customer can change to in the portal.
    teamUsd: await client.prices.create({
      productId: plan.id,
      description: 'Team, monthly (USD)',
      name: 'Team, monthly',
      unitPrice: { amount: '9900', currencyCode: 'USD' },
      billingCycle: monthly,
      allowances: [
        { usageBalanceUnitId: calls.id, amount: '5000' },
        { usageBalanceUnitId: exports.id, amount: '200' },
      ],
    }),
    teamEur: await client.prices.create({
      productId: plan.id,
      description: 'Team, monthly (EUR)',
      name: 'Team, monthly',
      unitPrice: { amount: '8900', currencyCode: 'EUR' },
      billingCycle: monthly,
      allowances: [
        { usageBalanceUnitId: calls.id, amount: '5000' },
        { usageBalanceUnitId: exports.id, amount: '200' },
      ],
    }),
    supportUsd: await price(support.id, 'Support hour (USD)', '12000', 'USD'),
    supportEur: await price(support.id, 'Support hour (EUR)', '11000', 'EUR'),
    supportJpy: await price(support.id, 'Support hour (JPY)', '18000', 'JPY'),
    consultingUsd: await price(consulting.id, 'Workshop day (USD)', '150000', 'USD'),
    consultingEur: await price(consulting.id, 'Workshop day (EUR)', '140000', 'EUR'),
    // 12,345,678.90 a unit: the page must show such amounts exactly.
    enterpriseUsd: await price(enterprise.id, 'Enterprise licence (USD)', '1234567890', 'USD'),
  };
}

async function paidPurchase(
  client: Drawdown,
  customer: { customerId: string; addressId: string },
  price: Price,
  quantity: number,
): Promise<Transaction> {
  const created = await client.transactions.create({
    items: [{ priceId: price.id, quantity }],
    customerId: customer.customerId,
    addressId: customer.addressId,
    collectionMode: 'automatic',
  });
  return client.transactions.simulatePayment(created.id, 'success');
}

async function manualInvoice(
  client: Drawdown,
  customer: { customerId: string; addressId: string },
  price: Price,
  quantity: number,
): Promise<Transaction> {
  return client.transactions.create({
    items: [{ priceId: price.id, quantity }],
    customerId: customer.customerId,
    addressId: customer.addressId,
    collectionMode: 'manual',
    billingDetails: { paymentTerms: { interval: 'day', frequency: 30 }, purchaseOrderNumber: 'PO-2026-0042' },
    status: 'billed',
  });
}

/**
 * Balances are created in the background when a subscription activates (seed 000): wait for
 * them, up to 5 seconds. False when none came (a service that does not start subscriptions from
 * paid transactions): the demo then shows no usage bars rather than failing.
 */
export async function waitForBalances(
  client: Drawdown,
  customerId: string,
  count: number,
  waitMs = 5_000,
): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const balances = await client.usageBalances.list(customerId, { perPage: 200 }).next();
    if (balances.length >= count) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function sendUsage(client: Drawdown, customerId: string, action: string, quantities: readonly number[]) {
  for (const quantity of quantities) {
    const report = await client.reportUsage({ customerId, action, quantity: String(quantity) });
    if (report.kind !== 'accepted') throw new Error(`A demo usage event was not accepted: ${JSON.stringify(report)}`);
  }
}

async function seedAda(
  client: Drawdown,
  catalogue: Catalogue,
  purchases: number,
  log: (line: string) => void,
  waitMs: number,
) {
  const customer = await client.customers.create({ email: 'ada@example.com', name: 'Ada Lovelace', locale: 'en' });
  const address = await client.addresses.create(customer.id, {
    countryCode: 'US',
    city: 'New York',
    postalCode: '10001',
    region: 'NY',
  });
  const party = { customerId: customer.id, addressId: address.id };
  // The plan first: its payment starts the subscription that grants the allowances.
  await paidPurchase(client, party, catalogue.planUsd, 1);
  const rotation = [catalogue.supportUsd, catalogue.supportUsd, catalogue.supportEur, catalogue.supportJpy];
  let refundable: Transaction | null = null;
  for (let index = 0; index < purchases; index += 1) {
    const price = rotation[index % rotation.length] ?? catalogue.supportUsd;
    const paid = await paidPurchase(client, party, price, 1 + (index % 4));
    if (index === 1) refundable = paid;
  }
  // A partial refund of one purchase: the portal lists it with its credit note.
  const line = refundable?.details.lineItems[0];
  if (refundable && line) {
    await client.adjustments.create({
      action: 'refund',
      transactionId: refundable.id,
      reason: 'One support hour was not used',
      type: 'partial',
      items: [{ itemId: line.id, type: 'partial', amount: '12000' }],
    });
  }
  await manualInvoice(client, party, catalogue.consultingUsd, 2);
  await manualInvoice(client, party, catalogue.enterpriseUsd, 3);
  const toCancel = await manualInvoice(client, party, catalogue.consultingUsd, 1);
  await client.transactions.update(toCancel.id, { status: 'canceled' });
  const failed = await client.transactions.create({
    items: [{ priceId: catalogue.supportUsd.id, quantity: 1 }],
    customerId: customer.id,
    addressId: address.id,
  });
  await client.transactions.simulatePayment(failed.id, 'failure');
  // Never shown: a ready transaction and a draft (no address).
  await client.transactions.create({ items: [{ priceId: catalogue.supportUsd.id, quantity: 9 }], ...party });
  await client.transactions.create({
    items: [{ priceId: catalogue.supportUsd.id, quantity: 8 }],
    customerId: customer.id,
  });
  if (await waitForBalances(client, customer.id, 2, waitMs)) {
    await sendUsage(client, customer.id, DEMO_ACTIONS.apiCall, [120, 80, 250, 190]);
    await sendUsage(client, customer.id, DEMO_ACTIONS.reportExport, [3, 4, 5]);
  } else {
    log('warning: paying the plan started no subscription, so Ada has no usage balances to show');
  }
  log(`seeded ada@example.com (${customer.id}): ${purchases + 4} transactions to show, 2 never shown, usage`);
  return customer;
}

async function seedGrace(client: Drawdown, catalogue: Catalogue, log: (line: string) => void, waitMs: number) {
  const customer = await client.customers.create({ email: 'grace@example.com', name: 'Grace Hopper', locale: 'de' });
  const address = await client.addresses.create(customer.id, {
    countryCode: 'DE',
    city: 'Berlin',
    postalCode: '10115',
  });
  const party = { customerId: customer.id, addressId: address.id };
  await paidPurchase(client, party, catalogue.planEur, 1);
  await paidPurchase(client, party, catalogue.supportEur, 2);
  await paidPurchase(client, party, catalogue.consultingEur, 1);
  await manualInvoice(client, party, catalogue.consultingEur, 1);
  // Past the allowance of 1000 calls: the bar shows overage.
  if (await waitForBalances(client, customer.id, 2, waitMs)) {
    await sendUsage(client, customer.id, DEMO_ACTIONS.apiCall, [600, 580]);
    await sendUsage(client, customer.id, DEMO_ACTIONS.reportExport, [20]);
  } else {
    log('warning: paying the plan started no subscription, so Grace has no usage balances to show');
  }
  log(`seeded grace@example.com (${customer.id}): 4 transactions, usage past the allowance`);
  return customer;
}

/**
 * Seeds the sandbox behind `client` (a sandbox key with write permissions), or finds what an
 * earlier start seeded.
 */
export async function seedSandbox(client: Drawdown, options: SeedOptions = {}): Promise<DemoSeed> {
  const log = options.log ?? (() => {});
  const existingAda = await findSeeded(client, 'ada@example.com');
  const existingGrace = await findSeeded(client, 'grace@example.com');
  const marked = (customer: Customer | null) => customer?.customData?.portalDemo === SEEDED_MARK;
  if (existingAda && existingGrace && marked(existingAda) && marked(existingGrace)) {
    log('the sandbox already holds the demo customers; reusing them');
    return {
      ada: { email: existingAda.email, name: existingAda.name ?? 'Ada', customerId: existingAda.id },
      grace: { email: existingGrace.email, name: existingGrace.name ?? 'Grace', customerId: existingGrace.id },
      created: false,
      planPrices: null,
      offerPriceIds: await offersOf(client, existingAda.id),
    };
  }
  if (existingAda || existingGrace) {
    throw new Error(
      'The sandbox has demo customers from an interrupted seeding (ada@example.com or grace@example.com); archive them or use a fresh sandbox.',
    );
  }
  const catalogue = await createCatalogue(client);
  const waitMs = options.balanceWaitMs ?? 5_000;
  const ada = await seedAda(client, catalogue, options.adaPurchases ?? 32, log, waitMs);
  const grace = await seedGrace(client, catalogue, log, waitMs);
  await client.customers.update(ada.id, { customData: { portalDemo: SEEDED_MARK } });
  await client.customers.update(grace.id, { customData: { portalDemo: SEEDED_MARK } });
  return {
    ada: { email: ada.email, name: ada.name ?? 'Ada', customerId: ada.id },
    grace: { email: grace.email, name: grace.name ?? 'Grace', customerId: grace.id },
    created: true,
    planPrices: { usd: catalogue.planUsd.id, eur: catalogue.planEur.id },
    offerPriceIds: [catalogue.planUsd.id, catalogue.teamUsd.id],
  };
}
