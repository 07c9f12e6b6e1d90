/**
 * The hosted checkout over HTTP, on both engines: `checkout.url` on automatically collected
 * transactions, the details step recomputing tax for the address, the sandbox test cards
 * (success, decline then retry, 3-D Secure pass and fail), replayed and concurrent submissions
 * (one payment, one completion), and the refusals: paid, canceled, bad cards, changed amounts,
 * a live environment without a provider.
 */
import { type BillingHarness, ENGINES, expectEvery, startBillingHarness } from '@drawdown/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, harnessClients, type WireObject } from '../support/api-client.js';
import { createPrice, createProduct, unique } from '../support/catalogue-fixtures.js';
import { type Buyer, createBuyer, createOneOffPrice, createTransaction } from '../transactions/transaction-fixtures.js';
import { CARDS, type CheckoutClient, checkoutClient } from './checkout-client.js';

interface Payment {
  readonly status: string;
  readonly error_code: string | null;
  readonly payment_method_id: string | null;
  readonly method_details: { type: string; card: Record<string, unknown> | null };
}

describe.each(ENGINES)('%s: hosted checkout', (engine) => {
  let harness: BillingHarness;
  let sandbox: ApiClient;
  let live: ApiClient;
  let checkout: CheckoutClient;
  let buyer: Buyer;
  let monthlyPriceId: string;
  let oneOffPriceId: string;

  async function transaction(id: string): Promise<WireObject> {
    const response = await sandbox.get(`/transactions/${id}`);
    expect(response.status, response.text).toBe(200);
    return response.entity;
  }

  /** How many events of `type` the sandbox recorded about the entity `id`. */
  async function eventCount(_api: ApiClient, type: string, id: string): Promise<number> {
    const page = await harness.services.store.events.list(
      { accountId: harness.accountId, environment: 'sandbox' },
      { filter: { event_type: [{ op: 'eq', value: type }] }, perPage: 1000, direction: 'asc' },
    );
    return page.items.filter((event) => (event.entity as { id?: string }).id === id).length;
  }

  function payments(entity: WireObject): Payment[] {
    return entity.payments as Payment[];
  }

  async function subscriptionTransaction(): Promise<string> {
    const created = await createTransaction(sandbox, {
      items: [{ price_id: monthlyPriceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
    });
    return String(created.id);
  }

  beforeAll(async () => {
    harness = await startBillingHarness({ engine });
    ({ sandbox, live } = harnessClients(harness));
    checkout = checkoutClient(harness.sandboxUrl);
    const taxes = await sandbox.patch('/tax-settings', {
      default_tax_mode: 'external',
      default_rate: '0',
      country_rates: [
        { country_code: 'DE', rate: '0.19' },
        { country_code: 'FR', rate: '0.2' },
      ],
    });
    expect(taxes.status, taxes.text).toBe(200);
    buyer = await createBuyer(sandbox, 'DE');
    const productId = await createProduct(sandbox, { name: 'Pro plan' });
    monthlyPriceId = String((await createPrice(sandbox, productId)).id);
    oneOffPriceId = await createOneOffPrice(sandbox, '5000', 'EUR');
  });
  afterAll(() => harness.close());

  it('gives automatically collected transactions a checkout.url on the sandbox’s own address, and manual ones none', async () => {
    const id = await subscriptionTransaction();
    const entity = await transaction(id);
    expect(entity.checkout).toEqual({ url: `${harness.sandboxUrl}/checkout?_ptxn=${id}` });
    const manual = await createTransaction(sandbox, {
      items: [{ price_id: oneOffPriceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      collection_mode: 'manual',
    });
    expect(manual.checkout).toBeNull();
    const page = await checkout.open(id);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('Pro plan');
    expect(page.text).toContain('€11.90');
  });

  it('uses the account’s own payment link once it sets one', async () => {
    const set = await sandbox.patch('/checkout-settings', { default_payment_link: 'https://shop.example.com/pay' });
    expect(set.status, set.text).toBe(200);
    expect(set.entity.default_payment_link).toBe('https://shop.example.com/pay');
    const id = await subscriptionTransaction();
    expect((await transaction(id)).checkout).toEqual({ url: `https://shop.example.com/pay?_ptxn=${id}` });
    const bad = await sandbox.patch('/checkout-settings', { default_payment_link: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    const cleared = await sandbox.patch('/checkout-settings', { default_payment_link: null });
    expect(cleared.entity.effective_payment_link).toBe(`${harness.sandboxUrl}/checkout`);
  });

  it('refuses an update of the checkout settings that names no setting, and changes nothing', async () => {
    const before = (await sandbox.get('/checkout-settings')).entity;
    const empty = await sandbox.patch('/checkout-settings', {});
    expect(empty.status, empty.text).toBe(400);
    expect(JSON.parse(empty.text).error.code).toBe('request_body_empty');
    expect((await sandbox.get('/checkout-settings')).entity).toEqual(before);
  });

  it('never writes an existing customer’s record from an anonymous checkout that types their email', async () => {
    const draft = await createTransaction(sandbox, { items: [{ price_id: oneOffPriceId, quantity: 1 }] });
    const existing = (await sandbox.get(`/customers/${buyer.customerId}`)).entity;
    const addressesBefore = (await sandbox.get(`/customers/${buyer.customerId}/addresses`)).body.data;
    const allEvents = async () =>
      (
        await harness.services.store.events.list(
          { accountId: harness.accountId, environment: 'sandbox' },
          { filter: {}, perPage: 1, direction: 'asc' },
        )
      ).estimatedTotal;
    const events = await allEvents();
    const refused = await checkout.details(String(draft.id), {
      email: String(existing.email).toUpperCase(),
      country_code: 'FR',
      postal_code: '75001',
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.text).toContain('already belongs to a customer');
    const after = await transaction(String(draft.id));
    expect([after.status, after.customer_id, after.address_id]).toEqual(['draft', null, null]);
    expect((await sandbox.get(`/customers/${buyer.customerId}/addresses`)).body.data).toEqual(addressesBefore);
    expect(await allEvents()).toBe(events);
    // The customer pays a transaction made out to them as before.
    const theirs = await subscriptionTransaction();
    expect((await checkout.pay(theirs, CARDS.success)).status).toBe(303);
  });

  it('takes a new customer’s email and address, recomputes the tax for it, then pays with the success card', async () => {
    const draft = await createTransaction(sandbox, { items: [{ price_id: oneOffPriceId, quantity: 1 }] });
    expect(draft.status).toBe('draft');
    const email = `${unique('shopper')}@example.com`;
    const details = await checkout.details(String(draft.id), { email, country_code: 'FR', postal_code: '75001' });
    expect(details.status, details.text).toBe(303);
    const ready = await transaction(String(draft.id));
    expect(ready.status).toBe('ready');
    expect((ready.details as { totals: { tax: string; balance: string } }).totals).toMatchObject({
      tax: '1000',
      balance: '6000',
    });
    const page = await checkout.open(String(draft.id));
    expect(page.text).toContain('Pay €60.00');
    const paid = await checkout.pay(String(draft.id), CARDS.success, { save_method: 'on' });
    expect(paid.status, paid.text).toBe(303);
    const completed = await transaction(String(draft.id));
    expect(completed.status).toBe('completed');
    const [payment] = payments(completed);
    expect(payment).toMatchObject({ status: 'captured', method_details: { type: 'card' } });
    expect(payment?.method_details.card).toMatchObject({
      type: 'visa',
      last4: '4242',
      expiry_month: 12,
      expiry_year: 2039,
    });
    expect(payment?.payment_method_id).toMatch(/^paymtd_/);
    expect(JSON.stringify(completed)).not.toContain('4242424242424242');
    const thanks = await checkout.open(String(draft.id));
    expect(thanks.text).toContain('Payment received');
  });

  it('buys as a business: a bad number refused changing nothing, the business stored on the customer and reused, an individual names none (ADR 1113)', async () => {
    const draft = await createTransaction(sandbox, { items: [{ price_id: oneOffPriceId, quantity: 1 }] });
    const id = String(draft.id);
    const email = `${unique('company')}@example.com`;
    const address = { email, country_code: 'DE', postal_code: '10115', city: 'Berlin' };
    const refused = await checkout.details(id, {
      ...address,
      purchase_as: 'business',
      company_name: 'Engines GmbH',
      tax_identifier: 'DE 12345',
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain('This is not a VAT or tax number of the country you chose.');
    expect(await transaction(id)).toMatchObject({ status: 'draft', customer_id: null, business_id: null });
    const business = {
      ...address,
      purchase_as: 'business',
      company_name: ' Engines  GmbH ',
      tax_identifier: '123 456 789',
    };
    expect((await checkout.details(id, business)).status).toBe(303);
    const named = await transaction(id);
    expect(named.business_id).toMatch(/^biz_/);
    const stored = await sandbox.get(`/customers/${named.customer_id}/businesses/${named.business_id}`);
    expect(stored.entity).toMatchObject({ name: 'Engines GmbH', tax_identifier: 'DE123456789', status: 'active' });
    // The same company again (typed differently) is the same business; none is created twice.
    expect((await checkout.details(id, { ...business, tax_identifier: 'de123456789' })).status).toBe(303);
    expect((await transaction(id)).business_id).toBe(named.business_id);
    const list = await sandbox.get(`/customers/${named.customer_id}/businesses`);
    expect((list.body.data as unknown[]).length).toBe(1);
    // Paying with a changed country in the one form re-taxes first and charges nothing (ADR 1115).
    const form = await checkout.form(id, CARDS.success);
    const retaxed = await checkout.post(`/checkout/pay?_ptxn=${id}`, {
      ...form,
      ...address,
      country_code: 'FR',
      postal_code: '75001',
      purchase_as: 'individual',
    });
    expect(retaxed.status, retaxed.text).toBe(409);
    expect(retaxed.text).toContain('Your details changed the total to €60.00. Nothing was charged');
    const individual = await transaction(id);
    expect(individual).toMatchObject({ status: 'ready', business_id: null, payments: [] });
    expect((individual.details as { totals: { grand_total: string } }).totals.grand_total).toBe('6000');
  });

  it('buys a subscription: it starts once, with the card saved as its method', async () => {
    const id = await subscriptionTransaction();
    const paid = await checkout.pay(id, CARDS.success);
    expect(paid.status, paid.text).toBe(303);
    const completed = await transaction(id);
    expect(completed.status).toBe('completed');
    expect(completed.subscription_id).toMatch(/^sub_/);
    const methods = await sandbox.get(`/customers/${buyer.customerId}/payment-methods`);
    expect(methods.list.map((method) => method.id)).toContain(payments(completed)[0]?.payment_method_id);
    expect(methods.list[0]).toMatchObject({ type: 'card', origin: 'subscription', paypal: null });
  });

  it('declines the decline card and keeps the transaction payable; the retry with the success card pays', async () => {
    const id = await subscriptionTransaction();
    const declined = await checkout.pay(id, CARDS.decline);
    expect(declined.status).toBe(303);
    const after = await transaction(id);
    expect(after.status).toBe('ready');
    expect(payments(after)).toMatchObject([{ status: 'error', error_code: 'declined' }]);
    expect((await checkout.open(id)).text).toContain('Your card was declined');
    expect(await eventCount(sandbox, 'transaction.payment_failed', id)).toBe(1);
    const retried = await checkout.pay(id, CARDS.success);
    expect(retried.status).toBe(303);
    const completed = await transaction(id);
    expect(completed.status).toBe('completed');
    expect(payments(completed).map((payment) => payment.status)).toEqual(['error', 'captured']);
  });

  it('sends the 3-D Secure card through the challenge page: passing pays, failing declines', async () => {
    const id = await subscriptionTransaction();
    const challenged = await checkout.pay(id, CARDS.challenge);
    expect(challenged.status).toBe(303);
    expect(challenged.location).toMatch(/^\/checkout\/sandbox-authentication\/sbxpay_/);
    expect((await transaction(id)).status).toBe('ready');
    const challenge = await checkout.get(challenged.location ?? '');
    expect(challenge.text).toContain('Complete authentication');
    const passed = await checkout.post(challenged.location ?? '', { outcome: 'pass' });
    expect(passed.status).toBe(303);
    expect((await transaction(id)).status).toBe('completed');
    const again = await checkout.post(challenged.location ?? '', { outcome: 'fail' });
    expect(again.status).toBe(303);
    expect(payments(await transaction(id)).map((payment) => payment.status)).toEqual(['captured']);

    const failing = await subscriptionTransaction();
    const second = await checkout.pay(failing, CARDS.challenge);
    await checkout.post(second.location ?? '', { outcome: 'fail' });
    const failed = await transaction(failing);
    expect(failed.status).toBe('ready');
    expect(payments(failed)).toMatchObject([{ status: 'error', error_code: 'authentication_failed' }]);
  });

  it('answers a replayed submission with its first outcome: one payment', async () => {
    const id = await subscriptionTransaction();
    const fields = await checkout.form(id, CARDS.success);
    const first = await checkout.post(`/checkout/pay?_ptxn=${id}`, fields);
    const replay = await checkout.post(`/checkout/pay?_ptxn=${id}`, fields);
    expect([first.status, replay.status]).toEqual([303, 303]);
    const completed = await transaction(id);
    expect(payments(completed)).toHaveLength(1);
    expect(await eventCount(sandbox, 'transaction.completed', id)).toBe(1);
  });

  it('completes a transaction once under concurrent submissions', async () => {
    const id = await subscriptionTransaction();
    const forms = await Promise.all([1, 2, 3, 4, 5].map(() => checkout.form(id, CARDS.success)));
    const answers = await Promise.all(forms.map((fields) => checkout.post(`/checkout/pay?_ptxn=${id}`, fields)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 303).length).toBeGreaterThanOrEqual(1);
    expectEvery(statuses, (status) => status === 303 || status === 409, { atLeast: 5 });
    const completed = await transaction(id);
    expect(completed.status).toBe('completed');
    expect(payments(completed).filter((payment) => payment.status === 'captured')).toHaveLength(1);
    expect(await eventCount(sandbox, 'transaction.completed', id)).toBe(1);
    const subscriptions = await sandbox.get(`/subscriptions?customer_id=${buyer.customerId}&per_page=200`);
    expect(subscriptions.list.filter((subscription) => subscription.id === completed.subscription_id)).toHaveLength(1);
  });

  it('applies a promo code enabled for checkout, whatever its case, and taxes the discounted amount (ADR 1111)', async () => {
    const code = `SAVE${unique('p')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(-8)}`;
    const made = await sandbox.post('/discounts', {
      description: 'Ten percent',
      type: 'percentage',
      amount: '10',
      enabled_for_checkout: true,
      code,
    });
    expect(made.status, made.text).toBe(201);
    const id = String(
      (
        await createTransaction(sandbox, {
          items: [{ price_id: oneOffPriceId, quantity: 1 }],
          customer_id: buyer.customerId,
          address_id: buyer.addressId,
        })
      ).id,
    );
    const applied = await checkout.post(`/checkout/code?_ptxn=${id}`, { code: ` ${code.toLowerCase()} ` });
    expect(applied.status, applied.text).toBe(303);
    const discounted = await transaction(id);
    expect(discounted.discount_id).toBe(made.id);
    // €50.00 less 10% is €45.00; DE's 19% on it is €8.55.
    expect((discounted.details as { totals: Record<string, string> }).totals).toMatchObject({
      subtotal: '5000',
      discount: '500',
      tax: '855',
      total: '5355',
    });
    const page = await checkout.open(id);
    expect(page.text).toContain('Pay €53.55');
    // The same code again changes nothing and counts no second use.
    expect((await checkout.post(`/checkout/code?_ptxn=${id}`, { code })).status).toBe(303);
    expect((await sandbox.get(`/discounts/${made.id}`)).entity.times_used).toBe(1);
    const paid = await checkout.pay(id, CARDS.success);
    expect(paid.status, paid.text).toBe(303);
    expect((await transaction(id)).status).toBe('completed');
    // Once paid, no code changes it.
    const late = await checkout.post(`/checkout/code?_ptxn=${id}`, { code });
    expect(late.status).toBe(409);
  });

  it('leads a finished checkout back to the account’s return_url, or a link’s own on its origin, and refuses any other (ADR 1112)', async () => {
    for (const bad of ['javascript:alert(1)', 'ftp://shop.example/', 'https://shop.example/#frag']) {
      const refused = await sandbox.patch('/checkout-settings', { return_url: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.error?.code, bad).toBe('invalid_field');
    }
    const set = await sandbox.patch('/checkout-settings', { return_url: 'https://shop.example/thanks' });
    expect(set.status, set.text).toBe(200);
    expect(set.entity.return_url).toBe('https://shop.example/thanks');
    try {
      const id = String(
        (
          await createTransaction(sandbox, {
            items: [{ price_id: oneOffPriceId, quantity: 1 }],
            customer_id: buyer.customerId,
            address_id: buyer.addressId,
          })
        ).id,
      );
      // Another site, another scheme, or credentials: the page refuses the link, naming no address.
      for (const elsewhere of [
        'https://evil.example/thanks',
        'http://shop.example/thanks',
        'https://user:pass@shop.example/',
        'javascript:alert(1)',
      ]) {
        const refused = await checkout.get(`/checkout?_ptxn=${id}&return_url=${encodeURIComponent(elsewhere)}`);
        expect(refused.status, elsewhere).toBe(400);
        expect(refused.text, elsewhere).toContain('Checkout link not allowed');
        expect(refused.text, elsewhere).not.toContain(elsewhere);
      }
      const own = 'https://shop.example/orders/42?from=checkout';
      const query = `_ptxn=${id}&return_url=${encodeURIComponent(own)}`;
      expect((await checkout.get(`/checkout?${query}`)).status).toBe(200);
      const fields = await checkout.form(id, CARDS.success);
      const paid = await checkout.post(`/checkout/pay?${query}`, fields);
      expect(paid.status, paid.text).toBe(303);
      // The redirect keeps the link's return_url; the finished page leads back to it.
      expect(paid.location).toBe(`/checkout?${query}`);
      const finished = await checkout.get(`/checkout?${query}`);
      expect(finished.text).toContain('id="return-link" href="https://shop.example/orders/42?from=checkout"');
      expect(finished.text).toContain('Back to Test account');
      // Without its own, the link leads back to the account's.
      expect((await checkout.open(id)).text).toContain('id="return-link" href="https://shop.example/thanks"');
    } finally {
      expect((await sandbox.patch('/checkout-settings', { return_url: null })).status).toBe(200);
    }
    expect((await sandbox.get('/checkout-settings')).entity.return_url).toBeNull();
  });

  it('refuses promo codes it must not take, in the page’s words, and changes nothing', async () => {
    const suffix = unique('c')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(-8);
    async function discount(body: WireObject): Promise<string> {
      const made = await sandbox.post('/discounts', {
        description: 'Promo',
        type: 'percentage',
        amount: '10',
        ...body,
      });
      expect(made.status, made.text).toBe(201);
      return made.id;
    }
    await discount({ code: `HIDDEN${suffix}`, enabled_for_checkout: false });
    const archived = await discount({ code: `GONE${suffix}`, enabled_for_checkout: true });
    expect((await sandbox.patch(`/discounts/${archived}`, { status: 'archived' })).status).toBe(200);
    const once = await discount({ code: `ONCE${suffix}`, enabled_for_checkout: true, usage_limit: 1 });
    await createTransaction(sandbox, {
      items: [{ price_id: oneOffPriceId, quantity: 1 }],
      customer_id: buyer.customerId,
      address_id: buyer.addressId,
      discount_id: once,
    });
    await discount({ code: `ELSEWHERE${suffix}`, enabled_for_checkout: true, restrict_to: [monthlyPriceId] });
    await discount({
      code: `DOLLARS${suffix}`,
      enabled_for_checkout: true,
      type: 'flat',
      amount: '500',
      currency_code: 'USD',
    });
    const id = String(
      (
        await createTransaction(sandbox, {
          items: [{ price_id: oneOffPriceId, quantity: 1 }],
          customer_id: buyer.customerId,
          address_id: buyer.addressId,
        })
      ).id,
    );
    const before = await transaction(id);
    // Unknown, malformed, not enabled for checkout and archived codes are refused alike: codes cannot be probed.
    const cases: [string, string][] = [
      ['NOSUCHCODE1', 'This code is not valid here.'],
      ['not a code!', 'This code is not valid here.'],
      [`HIDDEN${suffix}`, 'This code is not valid here.'],
      [`GONE${suffix}`, 'This code is not valid here.'],
      [`ONCE${suffix}`, 'This code has been used as many times as it can be.'],
      [`ELSEWHERE${suffix}`, 'This code does not apply to anything in this order.'],
      [`DOLLARS${suffix}`, 'This code is for another currency than this order.'],
    ];
    for (const [code, words] of cases) {
      const refused = await checkout.post(`/checkout/code?_ptxn=${id}`, { code });
      expect(refused.status, code).toBe(400);
      expect(refused.text, code).toContain(words);
      // What was typed stays in the field.
      if (code !== 'not a code!') expect(refused.text, code).toContain(`value="${code}"`);
    }
    expect(await transaction(id)).toEqual(before);
  });

  it('refuses to pay a paid or canceled transaction, and changes nothing', async () => {
    const id = await subscriptionTransaction();
    await checkout.pay(id, CARDS.success);
    const fields = await checkout.form(
      String(
        (
          await createTransaction(sandbox, {
            items: [{ price_id: oneOffPriceId, quantity: 1 }],
            customer_id: buyer.customerId,
            address_id: buyer.addressId,
          })
        ).id,
      ),
      CARDS.success,
    );
    const paidAgain = await checkout.post(`/checkout/pay?_ptxn=${id}`, { ...fields, expected_amount: '0' });
    expect(paidAgain.status).toBe(409);
    expect(paidAgain.text).toContain('already paid');
    expect(payments(await transaction(id))).toHaveLength(1);

    const toCancel = await subscriptionTransaction();
    const cancelForm = await checkout.form(toCancel, CARDS.success);
    const canceled = await sandbox.patch(`/transactions/${toCancel}`, { status: 'canceled' });
    expect(canceled.status, canceled.text).toBe(200);
    const refused = await checkout.post(`/checkout/pay?_ptxn=${toCancel}`, cancelForm);
    expect(refused.status).toBe(409);
    expect((await checkout.open(toCancel)).text).toContain('no longer available');
    expect(payments(await transaction(toCancel))).toHaveLength(0);

    // Details sent with the payment of a transaction that can no longer change are refused, never ignored.
    const { address_id: addressBefore, customer_id: customerId } = await transaction(toCancel);
    const moved = await checkout.post(`/checkout/pay?_ptxn=${toCancel}`, {
      ...cancelForm,
      email: String((await sandbox.get(`/customers/${customerId}`)).entity.email),
      country_code: 'FR',
      postal_code: '75001',
    });
    expect(moved.status).toBe(409);
    expect(moved.text).toContain('can no longer change');
    expect((await transaction(toCancel)).address_id).toBe(addressBefore);
    const detailsAlone = await checkout.post(`/checkout/pay?_ptxn=${toCancel}`, {
      submission_key: cancelForm.submission_key ?? '',
      expected_amount: cancelForm.expected_amount ?? '',
      company_name: 'Acme Ltd',
    });
    expect(detailsAlone.status).toBe(400);
    expect(payments(await transaction(toCancel))).toHaveLength(0);
  });

  it('refuses cards that are not test cards, expired cards and a changed amount, with nothing charged', async () => {
    const id = await subscriptionTransaction();
    const real = await checkout.pay(id, '5555 5555 5555 4444');
    expect(real.status).toBe(400);
    expect(real.text).toContain('The sandbox takes only the test cards listed above.');
    expect(real.text).not.toContain('5555 5555 5555 4444');
    const expired = await checkout.pay(id, CARDS.success, { card_expiry: '01/20' });
    expect(expired.status).toBe(400);
    const changed = await checkout.pay(id, CARDS.success, { expected_amount: '1' });
    expect(changed.status).toBe(409);
    expect(changed.text).toContain('nothing was charged');
    expect(payments(await transaction(id))).toHaveLength(0);
    const crossSite = await checkout.post(`/checkout/pay?_ptxn=${id}`, await checkout.form(id, CARDS.success), {
      'Sec-Fetch-Site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    const unstorable = await checkout.post(`/checkout/details?_ptxn=${id}`, {
      email: 'a\u0000b@example.com',
      country_code: 'GB',
    });
    expect(unstorable.status).toBe(400);
    expect(unstorable.text).toContain('invalid_characters');
    const afterAll = await checkout.pay(id, CARDS.success);
    expect(afterAll.status).toBe(303);
    expect((await transaction(id)).status).toBe('completed');
  });

  it('answers unknown and malformed transaction ids with 404', async () => {
    expect((await checkout.get('/checkout?_ptxn=txn_01hv8x1tpjfnttxddw73xnqx6s')).status).toBe(404);
    expect((await checkout.get('/checkout?_ptxn=nonsense')).status).toBe(404);
    expect((await checkout.get('/checkout/sandbox-authentication/sbxpay_01hv8x1tpjfnttxddw73xnqx6s')).status).toBe(404);
  });

  it('keeps live without a provider on reported payments: its checkout takes no card', async () => {
    const liveBuyer = await createBuyer(live, 'DE');
    const livePrice = await createOneOffPrice(live, '5000', 'EUR');
    const liveTransaction = await createTransaction(live, {
      items: [{ price_id: livePrice, quantity: 1 }],
      customer_id: liveBuyer.customerId,
      address_id: liveBuyer.addressId,
    });
    expect(liveTransaction.checkout).toEqual({ url: `${harness.liveUrl}/checkout?_ptxn=${liveTransaction.id}` });
    const liveCheckout = checkoutClient(harness.liveUrl);
    const page = await liveCheckout.open(String(liveTransaction.id));
    expect(page.text).toContain('cannot take card payments');
    const refused = await liveCheckout.post(`/checkout/pay?_ptxn=${liveTransaction.id}`, {
      submission_key: 'abcdefghijklmnopqrstuvwx',
      expected_amount: '5000',
      card_number: CARDS.success,
    });
    expect(refused.status).toBe(409);
    // The sandbox's transaction is not reachable from the live address.
    const other = await subscriptionTransaction();
    expect((await liveCheckout.open(other)).status).toBe(404);
  });
});
