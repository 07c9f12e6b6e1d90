/**
 * @module
 * Self-service on a subscription (ADR 1441): cancel (a confirmation page, then the post), undo,
 * pause, keep running, resume, change plan (form, preview, confirm) and the payment method. Each
 * checks first that the subscription is the signed-in customer's; actions the account does not
 * allow answer 404; posts answer 303 back to the page with a notice.
 */

import { escapeHtml } from '@drawdown/http-kit';
import type { Context, Hono } from 'hono';
import { dateText } from '../../portal/billing-history.js';
import type { PortalOperations } from '../../portal/portal-operations.js';
import {
  renderCancelConfirm,
  renderChangeForm,
  renderChangePreview,
  renderResumeConfirm,
  renderSubPage,
  renderSubscribeContinue,
} from '../../portal/render-page.js';
import { idParam, readForm, requireSameSite, SUBSCRIPTION_ID } from './route-helpers.js';

export function registerSubscriptionRoutes(app: Hono, portal: PortalOperations): void {
  /** The signed-in customer's subscription named in the path. */
  async function subscriptionOf(c: Context) {
    const customerId = await portal.customerOf(c.req.raw);
    return portal.subscriptionOf(customerId, idParam(c, SUBSCRIPTION_ID, 'subscription'));
  }
  /** The viewer's language on a subscription's own pages. */
  const textOf = async (c: Context) => portal.textOf(c.req.raw, await portal.viewerOf(c.req.raw));

  app.get('/subscriptions/:id/cancel', async (c) => {
    const subscription = await subscriptionOf(c);
    const text = await textOf(c);
    portal.requireAllowed('cancel');
    const end = subscription.currentBillingPeriod?.endsAt ?? subscription.nextBilledAt;
    const name = subscription.items
      .map((item) => item.product?.name)
      .filter(Boolean)
      .join(', ');
    const csrf = await portal.csrfTokenOf(c.req.raw);
    return c.html(
      renderCancelConfirm(
        portal.subPage(text),
        csrf,
        subscription.id,
        name,
        end ? dateText(end, text.locale) : '',
        portal.reasonOptions(text),
      ),
    );
  });
  app.post('/subscriptions/:id/cancel', async (c) => {
    requireSameSite(c);
    portal.requireAllowed('cancel');
    const subscription = await subscriptionOf(c);
    const at = await portal.cancel(subscription, portal.readReason(await readForm(c)));
    return c.redirect(portal.back('cancel', at), 303);
  });
  app.post('/subscriptions/:id/keep', async (c) => {
    requireSameSite(c);
    portal.requireAllowed('cancel');
    await portal.keep(await subscriptionOf(c), 'cancel');
    return c.redirect(portal.back('keep'), 303);
  });
  app.post('/subscriptions/:id/pause', async (c) => {
    requireSameSite(c);
    portal.requireAllowed('pause');
    const at = await portal.pause(await subscriptionOf(c));
    return c.redirect(portal.back('pause', at), 303);
  });
  app.post('/subscriptions/:id/keep-running', async (c) => {
    requireSameSite(c);
    portal.requireAllowed('pause');
    await portal.keep(await subscriptionOf(c), 'pause');
    return c.redirect(portal.back('keep'), 303);
  });
  // Resuming bills a new period at once: the page states the charge before the customer confirms.
  app.get('/subscriptions/:id/resume', async (c) => {
    portal.requireAllowed('pause');
    const subscription = await subscriptionOf(c);
    const text = await textOf(c);
    const charge = await portal.resumeCharge(subscription, text);
    const csrf = await portal.csrfTokenOf(c.req.raw);
    return c.html(renderResumeConfirm(portal.subPage(text), csrf, subscription.id, charge));
  });
  app.post('/subscriptions/:id/resume', async (c) => {
    requireSameSite(c);
    portal.requireAllowed('pause');
    await portal.resume(await subscriptionOf(c));
    return c.redirect(portal.back('resume'), 303);
  });

  app.get('/subscriptions/:id/change', async (c) => {
    portal.requireAllowed('changePlan');
    const subscription = await subscriptionOf(c);
    const text = await textOf(c);
    const choices = await portal.planChoices(subscription, text);
    const [item] = subscription.items;
    const current = { priceId: item?.price.id ?? '', quantity: item?.quantity ?? 1 };
    return c.html(renderChangeForm(portal.subPage(text), subscription.id, choices, current));
  });
  app.get('/subscriptions/:id/change/preview', async (c) => {
    portal.requireAllowed('changePlan');
    const subscription = await subscriptionOf(c);
    const text = await textOf(c);
    const change = await portal.requestedChange(subscription, text, c.req.query());
    const preview = await portal.previewChange(subscription, change, text);
    const csrf = await portal.csrfTokenOf(c.req.raw);
    return c.html(renderChangePreview(portal.subPage(text), csrf, subscription.id, change, preview));
  });
  app.post('/subscriptions/:id/change', async (c) => {
    requireSameSite(c);
    portal.requireAllowed('changePlan');
    const subscription = await subscriptionOf(c);
    const text = await portal.textOf(c.req.raw);
    await portal.changePlan(subscription, await portal.requestedChange(subscription, text, await readForm(c)));
    return c.redirect(portal.back('change'), 303);
  });

  // The payment method: the service's checkout for it when it offers one, else how to change it.
  app.get('/subscriptions/:id/payment-method', async (c) => {
    const subscription = await subscriptionOf(c);
    const text = await textOf(c);
    const checkout = await portal.paymentMethodCheckout(c.req.raw, subscription);
    if (checkout) return c.redirect(checkout, 303);
    const message = subscription.collectionMode === 'manual' ? 'paymentMethodManual' : 'paymentMethodUnavailable';
    const body = `<p class="hint">${escapeHtml(text.t(message))}</p>`;
    return c.html(renderSubPage(portal.subPage(text), text.t('paymentMethodHeading'), body));
  });
}

/**
 * `POST {base}/subscribe` (ADR 0812): a customer with no plan picks one of the host's plans; the
 * answer is a page stating the price with a link to the hosted checkout, which leads back to the
 * portal. A page rather than a redirect: the page's CSP (`form-action 'self'`) stops a form post
 * from being redirected to another origin, and the customer reads what they will pay first.
 */
export function registerSubscribeRoutes(app: Hono, portal: PortalOperations): void {
  app.post('/subscribe', async (c) => {
    requireSameSite(c);
    const customerId = await portal.customerOf(c.req.raw);
    const text = await portal.textOf(c.req.raw, { kind: 'customer', customerId });
    const fields = await readForm(c);
    const priceId = fields.price_id ?? '';
    const choice = (await portal.subscribeChoices(text)).find((entry) => entry.priceId === priceId);
    const checkout = await portal.subscribeCheckout(c.req.raw, customerId, priceId);
    return c.html(renderSubscribeContinue(portal.subPage(text), choice ?? null, checkout));
  });
}
