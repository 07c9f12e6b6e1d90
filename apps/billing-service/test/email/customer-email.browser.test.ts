/**
 * Customer email over real SMTP on both engines (ADR 1500): live emails reach a loopback SMTP
 * server (`smtp-server`) in the customer's language with the transaction's amounts, one
 * Message-ID per job; the sandbox captures instead of sending; settings refuse header
 * injection; a refused mailbox fails its job; two processes on one PostgreSQL send each email
 * once. The HTML of each email passes axe in one Chromium for the whole file.
 */

import { randomBytes } from 'node:crypto';
import { EMAIL_KINDS, formatMinorUnits } from '@drawdown/billing-core';
import { composeServices, resolveServiceConfig, startService } from '@drawdown/billing-service';
import {
  axeViolations,
  type BillingHarness,
  chromiumLaunchOptions,
  ENGINES,
  movableClock,
  startBillingHarness,
} from '@drawdown/testkit';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, checkoutClient } from '../payments/checkout-client.js';
import {
  type ApiClient,
  apiClient,
  expectInvalidField,
  harnessClients,
  type WireObject,
} from '../support/api-client.js';
import { createPrice, createProduct } from '../support/catalogue-fixtures.js';
import { type FakeStripe, startFakeStripe } from '../support/stripe/fake-stripe-server.js';
import {
  type Buyer,
  createBuyer,
  createOneOffPrice,
  readyTransaction,
  totalsOf,
} from '../transactions/transaction-fixtures.js';
import { type ReceivedMail, type SmtpInbox, startSmtpInbox } from './smtp-inbox.js';

let inbox: SmtpInbox;
let browser: Browser;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  browser = await chromium.launch(chromiumLaunchOptions());
});
afterAll(async () => {
  await browser?.close();
  await inbox?.close();
});

/** The HTML of each kind of email received, checked with axe once per file (the template is the engines' alike). */
const htmlOf = new Map<string, string>();

/**
 * Keeps the last one received of each label: for the kinds both captured in the sandbox and
 * mailed live (payment failed, past due, the reminders), the one received over SMTP.
 */
function expectAccessible(html: string, label: string): void {
  expect(html, label).toMatch(/^<!doctype html>/);
  htmlOf.set(label, html);
}

/** The one message to `email` whose subject matches, once it arrived (other mails may come between). */
async function arrived(email: string, subject: RegExp): Promise<ReceivedMail> {
  const deadline = Date.now() + 15_000;
  while (!inbox.to(email).some((item) => subject.test(item.mail.subject ?? ''))) {
    if (Date.now() > deadline) throw new Error(`no message with subject ${subject} to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const mail = only(inbox.to(email), subject);
  expect(mail.envelopeTo).toEqual([email]);
  return mail;
}

const STRIPE_SECRET_KEY = 'sk_test_drawdownEmailTest000000001';
const STRIPE_WEBHOOK_SECRET = 'whsec_drawdownEmailTestSecret00001';
const DAY_MS = 86_400_000;

async function emailsOf(api: ApiClient, query: string): Promise<WireObject[]> {
  const response = await api.get(`/emails?${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body.data as WireObject[];
}

/** Polls `GET /emails` until a job matching `query` has left `pending`. */
async function settledEmail(api: ApiClient, query: string): Promise<WireObject> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const [job] = await emailsOf(api, query);
    if (job && job.status !== 'pending') return job;
    if (Date.now() > deadline) throw new Error(`no settled email for ${query}: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function only(mails: readonly ReceivedMail[], subject: RegExp): ReceivedMail {
  const matching = mails.filter((item) => subject.test(item.mail.subject ?? ''));
  expect(matching, `one message with subject ${subject}`).toHaveLength(1);
  return matching[0] as ReceivedMail;
}

describe.each(ENGINES)('%s: customer email', (engine) => {
  // Live time moves on this clock (renewals, retries and reminders fall due on it), as in the Stripe tests.
  const clock = movableClock();
  let harness: BillingHarness;
  let stripe: FakeStripe;
  let live: ApiClient;
  let sandbox: ApiClient;
  let liveBuyer: Buyer;
  let livePrice: string;
  let liveEmail: string;

  beforeAll(async () => {
    harness = await startBillingHarness({
      engine,
      clock,
      smtpUrl: inbox.url,
      // Update-payment links lead to a configured portal (ADR 1472), else to the checkout.
      portalUrl: 'https://portal.shop.example/billing',
      emailDelivery: { pollIntervalMs: 20, retryDelaysMs: [20, 20] },
    });
    ({ live, sandbox } = harnessClients(harness));
    const settings = await live.patch('/email-settings', {
      sender_name: 'Shop Billing',
      sender_address: 'billing@shop.example',
      reply_to: 'help@shop.example',
    });
    expect(settings.status, settings.text).toBe(200);
    liveEmail = `de-${engine}-${Date.now()}@customer.example`;
    liveBuyer = await createBuyer(live, 'DE', { email: liveEmail, locale: 'de', name: 'Ada <b>Lovelace</b> & Co' });
    livePrice = await createOneOffPrice(live, '1000', 'EUR');
    // Live card payments through Stripe, here the local Stripe-format server (ADR 1420).
    stripe = await startFakeStripe({
      secretKey: STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      now: clock.now,
    });
    await harness.services.useCases.configurePaymentProvider(harness.accountId, {
      provider: 'stripe',
      secretKey: STRIPE_SECRET_KEY,
      webhookSecret: STRIPE_WEBHOOK_SECRET,
      apiBase: stripe.baseUrl,
    });
    stripe.sendWebhooksTo(`${harness.liveUrl}/payment-providers/stripe/webhooks/${harness.accountId}`);
  });
  afterAll(async () => {
    await stripe?.close();
    await harness?.close();
  });

  it('refuses a sender name with a line break and an address list, changing nothing', async () => {
    const before = (await live.get('/email-settings')).entity;
    expectInvalidField(
      await live.patch('/email-settings', { sender_name: 'Shop\r\nBcc: x@evil.example' }),
      'sender_name',
    );
    expectInvalidField(await live.patch('/email-settings', { reply_to: 'a@b.example, c@evil.example' }), 'reply_to');
    expectInvalidField(await live.patch('/email-settings', { enabled_emails: ['receipt', 'spam'] }), 'enabled_emails');
    expect((await live.get('/email-settings')).entity).toEqual(before);
  });

  it('mails the invoice of a manual transaction, then its receipt, in German, with the amounts', async () => {
    const invoice = await readyTransaction(live, liveBuyer, livePrice, { collection_mode: 'manual', status: 'billed' });
    const due = formatMinorUnits(BigInt(String(totalsOf(invoice).balance)), 'EUR', 'de');
    const issued = only(await inbox.waitFor(liveEmail, 1), /^Rechnung /);
    expect(issued.mail.from?.value).toEqual([{ name: 'Shop Billing', address: 'billing@shop.example' }]);
    expect(issued.mail.replyTo?.value[0]?.address).toBe('help@shop.example');
    expect(issued.mail.subject).toBe(`Rechnung ${invoice.invoice_number} von Test account`);
    expect(issued.mail.text).toContain(`Hier ist Ihre Rechnung über ${due}.`);
    expect(issued.mail.text).toContain('Hallo Ada <b>Lovelace</b> & Co,');
    const html = String(issued.mail.html);
    expect(html).toContain('Ada &lt;b&gt;Lovelace&lt;/b&gt; &amp; Co');
    expect(html).toContain('<html lang="de">');
    expect(html).toMatch(
      /\/invoices\/txn_[a-z0-9]+\/pdf\?account=acc_[a-z0-9]+&amp;disposition=inline&amp;expires=\d+&amp;signature=/,
    );
    expectAccessible(html, 'invoice issued');
    const job = await settledEmail(live, `kind=invoice_issued&customer_id=${liveBuyer.customerId}`);
    expect(job).toMatchObject({ status: 'sent', recipient: liveEmail, attempts: 1, message_id: issued.mail.messageId });

    const paid = await live.post(`/transactions/${invoice.id}/payments`, {
      method_type: 'bank_transfer',
      provider_reference: `wire-${engine}`,
    });
    expect(paid.status, paid.text).toBe(201);
    const receipt = only(await inbox.waitFor(liveEmail, 2), /Quittung/);
    const total = formatMinorUnits(BigInt(String(totalsOf(paid.entity).grand_total)), 'EUR', 'de');
    expect(receipt.mail.subject).toBe('Ihre Quittung von Test account');
    expect(receipt.mail.text).toContain(`Wir haben Ihre Zahlung über ${total} erhalten.`);
    expectAccessible(String(receipt.mail.html), 'receipt');
  });

  it('mails a credit note for a credit on an unpaid invoice', async () => {
    const invoice = await readyTransaction(live, liveBuyer, livePrice, { collection_mode: 'manual', status: 'billed' });
    const itemId = String(((invoice.details as WireObject).line_items as WireObject[])[0]?.id);
    const before = inbox.to(liveEmail).length;
    const credit = await live.post('/adjustments', {
      action: 'credit',
      transaction_id: invoice.id,
      reason: 'Outage',
      items: [{ item_id: itemId, type: 'partial', amount: '600' }],
    });
    expect(credit.status, credit.text).toBe(201);
    const mails = await inbox.waitFor(liveEmail, before + 2);
    const note = only(mails, /^Eine Gutschrift/);
    expect(note.mail.text).toContain(`Gutschrift über ${formatMinorUnits(600n, 'EUR', 'de')}`);
    expect(String(note.mail.html)).toMatch(/\/credit-notes\/|adj_/);
    expectAccessible(String(note.mail.html), 'credit note');
  });

  it('mails a subscription’s plan change, pause, resume, scheduled cancel, cancel and refund in German', async () => {
    const email = `sub-${engine}-${Date.now()}@customer.example`;
    const buyer = await createBuyer(live, 'DE', { email, locale: 'de', name: 'Grete' });
    const productId = await createProduct(live, { name: 'Basis <Plan>' });
    const monthly = String(
      (await createPrice(live, productId, { unit_price: { amount: '1000', currency_code: 'EUR' } })).id,
    );
    const biggerProduct = await createProduct(live, { name: 'Profi' });
    const bigger = String(
      (await createPrice(live, biggerProduct, { unit_price: { amount: '3000', currency_code: 'EUR' } })).id,
    );
    const first = await readyTransaction(live, buyer, monthly, { collection_mode: 'manual', status: 'billed' });
    const paid = await live.post(`/transactions/${first.id}/payments`, {
      method_type: 'bank_transfer',
      provider_reference: `wire-sub-${engine}`,
    });
    expect(paid.status, paid.text).toBe(201);
    const subscriptionId = String(paid.entity.subscription_id);
    expect(subscriptionId).toMatch(/^sub_/);
    await inbox.waitFor(email, 2);
    /** The one message to `email` whose subject matches, once it arrived (other mails may come between). */
    const next = async (subject: RegExp): Promise<ReceivedMail> => {
      const deadline = Date.now() + 15_000;
      while (!inbox.to(email).some((item) => subject.test(item.mail.subject ?? ''))) {
        if (Date.now() > deadline) throw new Error(`no message with subject ${subject} to ${email}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const mail = only(inbox.to(email), subject);
      expect(mail.envelopeTo).toEqual([email]);
      expect(String(mail.mail.html)).toContain('<html lang="de">');
      return mail;
    };
    const de = (instant: unknown) =>
      new Intl.DateTimeFormat('de', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(String(instant)));

    // An upgrade charged now: the plan-changed email names the new plan, the update charge's
    // total and the next regular charge (the change's own invoice is mailed too).
    const changed = await live.patch(`/subscriptions/${subscriptionId}`, {
      items: [{ price_id: bigger, quantity: 1 }],
      proration_billing_mode: 'full_immediately',
    });
    expect(changed.status, changed.text).toBe(200);
    const [charge] = (await live.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_update`))
      .list;
    const charged = formatMinorUnits(BigInt(String(totalsOf(charge as WireObject).grand_total)), 'EUR', 'de');
    const plan = await next(/wurde geändert$/);
    expect(plan.mail.subject).toBe('Ihr Abonnement bei Test account wurde geändert');
    expect(plan.mail.text).toContain(`Jetzt berechnet: ${charged}`);
    expect(plan.mail.text).toContain('Neuer Tarif: Profi');
    expect(plan.mail.text).toContain(
      `Die Änderung wird jetzt berechnet; Ihre nächste reguläre Abbuchung ist am ${de(changed.entity.next_billed_at)}.`,
    );
    expectAccessible(String(plan.mail.html), 'plan changed');

    const paused = await live.post(`/subscriptions/${subscriptionId}/pause`, { effective_from: 'immediately' });
    expect(paused.status, paused.text).toBe(200);
    const pauseMail = await next(/pausiert$/);
    expect(pauseMail.mail.subject).toBe('Ihr Abonnement bei Test account ist pausiert');
    expect(pauseMail.mail.text).toContain(`Pausiert am: ${de(paused.entity.paused_at)}`);
    expectAccessible(String(pauseMail.mail.html), 'paused');

    const resumed = await live.post(`/subscriptions/${subscriptionId}/resume`, { effective_from: 'immediately' });
    expect(resumed.status, resumed.text).toBe(200);
    const resumeMail = await next(/läuft wieder$/);
    expect(resumeMail.mail.text).toContain('Ihr Abonnement wurde fortgesetzt.');
    expectAccessible(String(resumeMail.mail.html), 'resumed');

    const scheduled = await live.post(`/subscriptions/${subscriptionId}/cancel`, {
      effective_from: 'next_billing_period',
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    const scheduledMail = await next(/wird gekündigt$/);
    expect(scheduledMail.mail.text).toContain(
      `Endet am: ${de((scheduled.entity.scheduled_change as WireObject).effective_at)}`,
    );
    expectAccessible(String(scheduledMail.mail.html), 'cancel scheduled');
    const kept = await live.patch(`/subscriptions/${subscriptionId}`, { scheduled_change: null });
    expect(kept.status, kept.text).toBe(200);
    const canceled = await live.post(`/subscriptions/${subscriptionId}/cancel`, { effective_from: 'immediately' });
    expect(canceled.status, canceled.text).toBe(200);
    const canceledMail = await next(/ist gekündigt$/);
    expect(canceledMail.mail.text).toContain(`Gekündigt am: ${de(canceled.entity.canceled_at)}`);
    expectAccessible(String(canceledMail.mail.html), 'canceled');

    // A refund of the first payment: the amount as the adjustment has it, the credit note linked.
    const itemId = String(((first.details as WireObject).line_items as WireObject[])[0]?.id);
    const refund = await live.post('/adjustments', {
      action: 'refund',
      transaction_id: first.id,
      reason: 'Goodwill',
      items: [{ item_id: itemId, type: 'partial', amount: '500' }],
    });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.entity.status).toBe('approved');
    const refundMail = await next(/^Ihre Erstattung/);
    const total = formatMinorUnits(BigInt(String((refund.entity.totals as WireObject).total)), 'EUR', 'de');
    expect(refundMail.mail.text).toContain(`Wir haben Ihnen ${total} erstattet.`);
    expect(String(refundMail.mail.html)).toContain(`/credit-notes/${refund.id}/pdf?`);
    expectAccessible(String(refundMail.mail.html), 'refund');
    const kinds = (await emailsOf(live, `customer_id=${buyer.customerId}&per_page=50`)).map((job) => job.kind);
    expect(new Set(kinds)).toEqual(
      new Set([
        'invoice_issued',
        'receipt',
        'subscription_plan_changed',
        'subscription_paused',
        'subscription_resumed',
        'subscription_cancel_scheduled',
        'subscription_canceled',
        'refund_issued',
      ]),
    );
  });

  it('fails the job of a mailbox the server refuses, and says why', async () => {
    const bouncing = await createBuyer(live, 'DE', { email: `bounce-${engine}-${Date.now()}@customer.example` });
    await readyTransaction(live, bouncing, livePrice, { collection_mode: 'manual', status: 'billed' });
    const job = await settledEmail(live, `customer_id=${bouncing.customerId}`);
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(String(job.last_error)).toMatch(/^550/);
  });

  it('retries a temporary refusal and then sends, once', async () => {
    const email = `later-${engine}-${Date.now()}@customer.example`;
    const buyer = await createBuyer(live, 'DE', { email });
    await readyTransaction(live, buyer, livePrice, { collection_mode: 'manual', status: 'billed' });
    const job = await settledEmail(live, `customer_id=${buyer.customerId}`);
    expect(job).toMatchObject({ status: 'sent', attempts: 2 });
    expect(String(job.last_error)).toMatch(/^451/);
    expect(inbox.to(email)).toHaveLength(1);
  });

  it('captures sandbox email instead of sending it, in the customer’s language', async () => {
    const email = `fr-${engine}-${Date.now()}@customer.example`;
    const buyer = await createBuyer(sandbox, 'FR', { email, locale: 'fr', name: 'Émile' });
    const price = await createOneOffPrice(sandbox, '1000', 'EUR');
    const ready = await readyTransaction(sandbox, buyer, price);
    const paid = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    expect(paid.entity.status).toBe('completed');
    const job = await settledEmail(sandbox, `kind=receipt&customer_id=${buyer.customerId}`);
    const total = formatMinorUnits(BigInt(String(totalsOf(paid.entity).grand_total)), 'EUR', 'fr');
    expect(job).toMatchObject({ status: 'captured', recipient: email, locale: 'fr' });
    const message = job.message as WireObject;
    expect(message).toMatchObject({ to: email, subject: 'Votre reçu de Test account', language: 'fr' });
    expect(String(message.text)).toContain(`nous avons reçu votre paiement de ${total}`);
    expectAccessible(String(message.html), 'sandbox receipt');
    expect((await sandbox.get(`/emails/${job.id}`)).entity).toEqual(job);
    expect(inbox.to(email)).toEqual([]);
  });

  it('captures a declined renewal’s failed payment with the next try and the update link, and past due', async () => {
    const email = `dunning-${engine}-${Date.now()}@customer.example`;
    const buyer = await createBuyer(sandbox, 'FR', { email, locale: 'fr', name: 'Émile' });
    const productId = await createProduct(sandbox, { name: 'Mensuel' });
    const monthly = String(
      (await createPrice(sandbox, productId, { unit_price: { amount: '1500', currency_code: 'EUR' } })).id,
    );
    const ready = await readyTransaction(sandbox, buyer, monthly);
    const paid = await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
    const subscriptionId = String(paid.entity.subscription_id);
    const advanced = await sandbox.post('/sandbox-clock/advance', {
      seconds: 32 * 86_400,
      renewal_payments: 'failure',
    });
    expect(advanced.status, advanced.text).toBe(200);
    const [renewal] = (
      await sandbox.get(`/transactions?subscription_id=${subscriptionId}&origin=subscription_recurring`)
    ).list;
    const failed = await settledEmail(sandbox, `kind=payment_failed&customer_id=${buyer.customerId}`);
    expect(failed).toMatchObject({ status: 'captured', recipient: email, locale: 'fr' });
    const message = failed.message as WireObject;
    expect(message).toMatchObject({ subject: 'Votre paiement à Test account a échoué', language: 'fr' });
    const owed = formatMinorUnits(BigInt(String(totalsOf(renewal as WireObject).balance)), 'EUR', 'fr');
    expect(String(message.text)).toContain(`prélever votre paiement de ${owed}`);
    const nextTry = new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(Date.parse(String(failed.created_at)) + 86_400_000),
    );
    expect(String(message.text)).toContain(`Nous réessaierons le ${nextTry}.`);
    expect(String(message.text)).toContain(
      `/session?action=update_subscription_payment_method&subscription_id=${subscriptionId}&token=`,
    );
    expectAccessible(String(message.html), 'payment failed');
    const pastDue = await settledEmail(sandbox, `kind=subscription_past_due&customer_id=${buyer.customerId}`);
    expect((pastDue.message as WireObject).subject).toBe('Votre abonnement Test account est en retard de paiement');
    expect(String((pastDue.message as WireObject).text)).toContain(`${owed} reste impayé.`);
    expectAccessible(String((pastDue.message as WireObject).html), 'past due');
  });

  it('reminds once of a trial ending, a yearly renewal and a card expiring before it, on the sandbox clock, in Spanish', async () => {
    const accountId = await harness.createAccount({ earlyAccess: true, name: 'Reminders' });
    const key = await harness.createKey({ environment: 'sandbox', permissions: ['all'], accountId });
    const api = apiClient(harness.sandboxUrl, key);
    const before = (await api.get('/email-settings')).entity;
    expect(before).toMatchObject({ renewal_reminder_days: 7, renewal_reminders: 'yearly' });
    expectInvalidField(await api.patch('/email-settings', { renewal_reminder_days: 0 }), 'renewal_reminder_days');
    expectInvalidField(await api.patch('/email-settings', { renewal_reminder_days: 61 }), 'renewal_reminder_days');
    expectInvalidField(await api.patch('/email-settings', { renewal_reminders: 'weekly' }), 'renewal_reminders');
    expect((await api.get('/email-settings')).entity).toEqual(before);
    expect((await api.patch('/email-settings', { renewal_reminder_days: 10 })).status).toBe(200);
    const email = `remind-${engine}-${Date.now()}@customer.example`;
    const buyer = await createBuyer(api, 'ES', { email, locale: 'es', name: 'Lucía' });
    const productId = await createProduct(api, { name: 'Anual' });
    const subscribe = async (body: WireObject): Promise<string> => {
      const price = String((await createPrice(api, productId, body)).id);
      const ready = await readyTransaction(api, buyer, price);
      const paid = await api.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
      expect(paid.status, paid.text).toBe(200);
      return String(paid.entity.subscription_id);
    };
    // The yearly plan is bought at the checkout with a card that expires in about two months:
    // before its renewal, so the renewal's reminder comes with a card-expiring one.
    const yearlyPrice = String(
      (
        await createPrice(api, productId, {
          unit_price: { amount: '12000', currency_code: 'EUR' },
          billing_cycle: { interval: 'year', frequency: 1 },
        })
      ).id,
    );
    const yearlyCheckout = await readyTransaction(api, buyer, yearlyPrice);
    const expiry = new Date(Date.now() + 60 * 86_400_000);
    const cardExpiry = `${String(expiry.getUTCMonth() + 1).padStart(2, '0')}/${String(expiry.getUTCFullYear() % 100)}`;
    const bought = await checkoutClient(harness.sandboxUrl).pay(String(yearlyCheckout.id), CARDS.success, {
      card_expiry: cardExpiry,
    });
    expect(bought.status, bought.text).toBe(303);
    const yearly = String((await api.get(`/transactions/${yearlyCheckout.id}`)).entity.subscription_id);
    const trial = await subscribe({
      unit_price: { amount: '900', currency_code: 'EUR' },
      trial_period: { interval: 'day', frequency: 14 },
    });
    const monthly = await subscribe({ unit_price: { amount: '500', currency_code: 'EUR' } });
    const advance = async (days: number) => {
      const moved = await api.post('/sandbox-clock/advance', { seconds: days * 86_400 });
      expect(moved.status, moved.text).toBe(200);
    };
    const es = (instant: unknown) =>
      new Intl.DateTimeFormat('es', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(String(instant)));
    const nextCharge = async (id: string) => {
      const view = await api.get(`/subscriptions/${id}?include=next_transaction`);
      const total = String(totalsOf((view.entity.next_transaction as WireObject) ?? {}).grand_total ?? '');
      return { at: view.entity.next_billed_at, total };
    };

    // Five days in, the 14-day trial ends within the 10-day lead time; nothing renews within it.
    await advance(5);
    const trialCharge = await nextCharge(trial);
    const trialJob = await settledEmail(api, `kind=trial_ending&customer_id=${buyer.customerId}`);
    expect(trialJob).toMatchObject({ status: 'captured', recipient: email, locale: 'es', event_id: null });
    const trialMessage = trialJob.message as WireObject;
    expect(trialMessage.subject).toBe('Tu prueba de Reminders termina pronto');
    expect(String(trialMessage.text)).toContain(
      `se cobrarán ${formatMinorUnits(BigInt(trialCharge.total), 'EUR', 'es')}.`,
    );
    expect(String(trialMessage.text)).toContain(`La prueba termina el: ${es(trialCharge.at)}`);
    expectAccessible(String(trialMessage.html), 'trial ending');

    // Nine days before the yearly renewal: its reminder, with the renewal's amount; the monthly
    // plan renews eleven times meanwhile and gets none (reminders go to yearly plans by default).
    await advance(351);
    const renewal = await nextCharge(yearly);
    const renewalJob = await settledEmail(api, `kind=renewal_upcoming&customer_id=${buyer.customerId}`);
    const renewalMessage = renewalJob.message as WireObject;
    expect(renewalMessage.subject).toBe('Tu suscripción de Reminders se renovará pronto');
    expect(String(renewalMessage.text)).toContain(
      `se cobrarán ${formatMinorUnits(BigInt(renewal.total), 'EUR', 'es')}.`,
    );
    expect(String(renewalMessage.text)).toContain(`Se renueva el: ${es(renewal.at)}`);
    expectAccessible(String(renewalMessage.html), 'renewal upcoming');
    const cardJob = await settledEmail(api, `kind=card_expiring&customer_id=${buyer.customerId}`);
    const cardMessage = cardJob.message as WireObject;
    expect(cardMessage.subject).toBe('Tu tarjeta registrada en Reminders caduca pronto');
    expect(String(cardMessage.text)).toContain(`Próximo cobro el: ${es(renewal.at)}`);
    expect(String(cardMessage.text)).toContain(
      `/session?action=update_subscription_payment_method&subscription_id=${yearly}&token=`,
    );
    expectAccessible(String(cardMessage.html), 'card expiring');
    // Later runs of the step (another day, the renewal itself) write no second reminder: the day's
    // advance runs it, and so does a run of the step itself (as the scheduler's next poll would,
    // without waiting the second it takes to come).
    await advance(1);
    await harness.services.useCases.runDueWork('email_reminders');
    const reminders = await emailsOf(api, `customer_id=${buyer.customerId}&kind=renewal_upcoming`);
    expect(reminders.map((job) => job.id)).toEqual([renewalJob.id]);
    expect(await emailsOf(api, `customer_id=${buyer.customerId}&kind=trial_ending`)).toHaveLength(1);
    expect(await emailsOf(api, `customer_id=${buyer.customerId}&kind=card_expiring`)).toHaveLength(1);
    expect((await api.get(`/subscriptions/${monthly}`)).entity.status).toBe('active');
  });

  it('writes a skipped job saying why when the email is turned off', async () => {
    const off = await sandbox.patch('/email-settings', { enabled_emails: ['invoice_issued'] });
    expect(off.status, off.text).toBe(200);
    expect(off.entity.enabled_emails).toEqual(['invoice_issued']);
    // What is stored is the kinds turned off (ADR 1504): a kind added in a later version is on until turned off.
    const stored = await harness.services.store.emailSettings.find({
      accountId: harness.accountId,
      environment: 'sandbox',
    });
    expect(stored?.disabledEmails).toEqual(EMAIL_KINDS.filter((kind) => kind !== 'invoice_issued'));
    expect(stored).not.toHaveProperty('enabledEmails');
    try {
      const buyer = await createBuyer(sandbox, 'DE');
      const price = await createOneOffPrice(sandbox, '1000', 'EUR');
      const ready = await readyTransaction(sandbox, buyer, price);
      await sandbox.post(`/transactions/${ready.id}/simulate-payment`, { outcome: 'success' });
      const job = await settledEmail(sandbox, `kind=receipt&customer_id=${buyer.customerId}`);
      expect(job).toMatchObject({ status: 'skipped', skip_reason: 'email_turned_off', message: null });
    } finally {
      await sandbox.patch('/email-settings', { enabled_emails: ['receipt', 'invoice_issued', 'payment_failed'] });
    }
  });

  it.runIf(engine === 'postgres')('sends each email once with two processes on one database', async () => {
    const config = resolveServiceConfig(
      {
        'data-dir': harness.dataDir,
        'live-port': '0',
        'sandbox-port': '0',
        'rate-limit': 'off',
        'key-rate-limit': 'off',
        'log-level': 'warn',
        'database-url': String(harness.databaseUrl),
        'smtp-url': inbox.url,
      },
      {},
    );
    const services = await composeServices(config);
    const second = await startService(services, {
      ...config,
      emailDelivery: { pollIntervalMs: 5, retryDelaysMs: [20, 20] },
    });
    try {
      const email = `twice-${Date.now()}@customer.example`;
      const buyer = await createBuyer(live, 'DE', { email, locale: 'en' });
      const invoices = await Promise.all(
        Array.from({ length: 12 }, () =>
          readyTransaction(live, buyer, livePrice, { collection_mode: 'manual', status: 'billed' }),
        ),
      );
      await inbox.waitFor(email, invoices.length);
      const jobs = await emailsOf(live, `customer_id=${buyer.customerId}&per_page=50`);
      const deadline = Date.now() + 15_000;
      while ((await emailsOf(live, `customer_id=${buyer.customerId}&status=sent`)).length < invoices.length) {
        if (Date.now() > deadline) throw new Error('jobs not all recorded sent');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(jobs).toHaveLength(invoices.length);
      const ids = inbox.to(email).map((item) => item.mail.messageId);
      expect(new Set(ids).size).toBe(invoices.length);
      expect(ids).toHaveLength(invoices.length);
    } finally {
      await second.close();
    }
  });

  // Last in the file's describe: it moves the live clock (and with it every sandbox clock) a year on.
  it(
    'mails live, over SMTP in French, a trial ending, a yearly renewal and a card expiring before it, then the declined renewal and past due',
    { timeout: 60_000 },
    async () => {
      const email = `fr-live-${engine}-${Date.now()}@customer.example`;
      const buyer = await createBuyer(live, 'FR', { email, locale: 'fr', name: 'Émile' });
      const productId = await createProduct(live, { name: 'Annuel' });
      const priceOf = async (body: WireObject) => String((await createPrice(live, productId, body)).id);
      const yearlyPrice = await priceOf({
        unit_price: { amount: '12000', currency_code: 'EUR' },
        billing_cycle: { interval: 'year', frequency: 1 },
      });
      const trialPrice = await priceOf({
        unit_price: { amount: '900', currency_code: 'EUR' },
        trial_period: { interval: 'day', frequency: 14 },
      });
      /** The customer's two checkout steps, the card a Stripe test method. */
      const checkout = async (transactionId: string, token: string) => {
        const detailed = await harness.services.useCases.setCheckoutDetails('live', transactionId, {
          email,
          address: { countryCode: 'FR', postalCode: '75001', region: null, city: null, firstLine: null },
        });
        const view = await harness.services.useCases.submitCheckout('live', transactionId, {
          submissionKey: randomBytes(12).toString('hex'),
          expectedAmount: detailed.transaction.details.totals.balance,
          method: { kind: 'token', token },
          saveMethod: false,
          returnUrl: `${harness.liveUrl}/checkout/return`,
        });
        expect(view.transaction.status).toBe('completed');
        await stripe.settled();
      };
      const subscribe = async (priceId: string) => {
        const ready = await readyTransaction(live, buyer, priceId);
        await checkout(String(ready.id), 'pm_card_visa');
        return String((await live.get(`/transactions/${ready.id}`)).entity.subscription_id);
      };
      const fr = (instant: unknown) =>
        new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }).format(
          new Date(typeof instant === 'number' ? instant : String(instant)),
        );
      const euros = (amount: unknown) => formatMinorUnits(BigInt(String(amount)), 'EUR', 'fr');
      const nextCharge = async (id: string) => {
        const view = await live.get(`/subscriptions/${id}?include=next_transaction`);
        return {
          at: view.entity.next_billed_at,
          total: totalsOf(view.entity.next_transaction as WireObject).grand_total,
        };
      };
      const updateLink = (id: string) =>
        `/session?action=update_subscription_payment_method&subscription_id=${id}&token=`;

      const trial = await subscribe(trialPrice);
      // The yearly plan is bought with a card that runs out about seven months on: before its renewal.
      const expiry = new Date(clock.now() + 210 * DAY_MS);
      stripe.cardExpiry({ month: expiry.getUTCMonth() + 1, year: expiry.getUTCFullYear() });
      const yearly = await subscribe(yearlyPrice).finally(() => stripe.cardExpiry(undefined));

      // Eight days on, the 14-day trial ends within the 7-day lead time.
      clock.advance(8 * DAY_MS);
      const trialCharge = await nextCharge(trial);
      await harness.services.useCases.runDueWork('email_reminders');
      const trialMail = await arrived(email, /^Votre essai /);
      expect(trialMail.mail.subject).toBe('Votre essai Test account se termine bientôt');
      expect(trialMail.mail.from?.value).toEqual([{ name: 'Shop Billing', address: 'billing@shop.example' }]);
      expect(trialMail.mail.text).toContain(`et ${euros(trialCharge.total)} sera prélevé.`);
      expect(trialMail.mail.text).toContain(fr(trialCharge.at));
      expect(String(trialMail.mail.html)).toContain('<html lang="fr">');
      expectAccessible(String(trialMail.mail.html), 'trial ending');
      const ended = await live.post(`/subscriptions/${trial}/cancel`, { effective_from: 'immediately' });
      expect(ended.status, ended.text).toBe(200);

      // Five days before the yearly renewal: its reminder with the renewal's amount, and the card's.
      const renewal = await nextCharge(yearly);
      clock.advance(Date.parse(String(renewal.at)) - clock.now() - 5 * DAY_MS);
      await harness.services.useCases.runDueWork('email_reminders');
      const renewalMail = await arrived(email, /sera bientôt renouvelé$/);
      expect(renewalMail.mail.subject).toBe('Votre abonnement Test account sera bientôt renouvelé');
      expect(renewalMail.mail.text).toContain(`renouvelé : ${euros(renewal.total)} sera prélevé.`);
      expect(renewalMail.mail.text).toContain(fr(renewal.at));
      expectAccessible(String(renewalMail.mail.html), 'renewal upcoming');
      const cardMail = await arrived(email, /expire bientôt$/);
      expect(cardMail.mail.subject).toBe('Votre carte enregistrée chez Test account expire bientôt');
      expect(cardMail.mail.text).toContain(fr(renewal.at));
      expect(cardMail.mail.text).toContain(updateLink(yearly));
      expectAccessible(String(cardMail.mail.html), 'card expiring');
      expect(await settledEmail(live, `customer_id=${buyer.customerId}&kind=card_expiring`)).toMatchObject({
        status: 'sent',
        recipient: email,
        locale: 'fr',
        message_id: cardMail.mail.messageId,
      });
      expect(await emailsOf(live, `customer_id=${buyer.customerId}&kind=card_expiring`)).toHaveLength(1);

      // The customer's new card attaches but every charge declines: the renewal fails, and they are told.
      const change = await harness.services.useCases.getPaymentMethodChangeTransaction(
        {
          account: await harness.services.useCases.requireAccount(harness.accountId),
          scope: { accountId: harness.accountId, environment: 'live' },
        },
        yearly,
      );
      await checkout(change.id, 'pm_card_chargeCustomerFail');
      clock.advance(6 * DAY_MS);
      await harness.services.useCases.runDueWork('renewals');
      const failedMail = await arrived(email, /a échoué$/);
      const [charged] = (await live.get(`/transactions?subscription_id=${yearly}&origin=subscription_recurring`)).list;
      expect(charged?.status).toBe('past_due');
      const owed = euros(totalsOf(charged as WireObject).balance);
      expect(failedMail.mail.subject).toBe('Votre paiement à Test account a échoué');
      expect(failedMail.mail.text).toContain(`prélever votre paiement de ${owed}`);
      const failedJob = await settledEmail(live, `kind=payment_failed&customer_id=${buyer.customerId}`);
      expect(failedJob).toMatchObject({ status: 'sent', locale: 'fr', message_id: failedMail.mail.messageId });
      expect(failedMail.mail.text).toContain(
        `Nous réessaierons le ${fr(Date.parse(String(failedJob.created_at)) + DAY_MS)}.`,
      );
      expect(failedMail.mail.text).toContain(updateLink(yearly));
      expectAccessible(String(failedMail.mail.html), 'payment failed');
      const pastDueMail = await arrived(email, /en retard de paiement$/);
      expect(pastDueMail.mail.subject).toBe('Votre abonnement Test account est en retard de paiement');
      expect(pastDueMail.mail.text).toContain(`${owed} reste impayé.`);
      expectAccessible(String(pastDueMail.mail.html), 'past due');
    },
  );
});

describe('the emails’ HTML in Chromium', () => {
  it('passes axe for every kind received above', { timeout: 120_000 }, async () => {
    expect([...htmlOf.keys()].sort()).toEqual([
      'cancel scheduled',
      'canceled',
      'card expiring',
      'credit note',
      'invoice issued',
      'past due',
      'paused',
      'payment failed',
      'plan changed',
      'receipt',
      'refund',
      'renewal upcoming',
      'resumed',
      'sandbox receipt',
      'trial ending',
    ]);
    const page = await browser.newPage();
    try {
      for (const [label, html] of htmlOf) {
        await page.setContent(html, { waitUntil: 'domcontentloaded' });
        expect(await axeViolations(page), label).toEqual([]);
      }
    } finally {
      await page.close();
    }
  });
});
