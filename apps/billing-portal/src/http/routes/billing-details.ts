/**
 * @module
 * `POST {base}/billing-details` (ADR 1441): the address and business the customer is billed to;
 * with field errors, the form again (400) and nothing saved.
 */
import type { Hono } from 'hono';
import type { PortalOperations } from '../../portal/portal-operations.js';
import { renderDetailsForm, renderSubPage } from '../../portal/render-page.js';
import { readForm, requireSameSite } from './route-helpers.js';

export function registerBillingDetailsRoutes(app: Hono, portal: PortalOperations): void {
  app.post('/billing-details', async (c) => {
    requireSameSite(c);
    portal.requireAllowed('billingDetails');
    const customerId = await portal.customerOf(c.req.raw);
    const text = await portal.textOf(c.req.raw, { kind: 'customer', customerId });
    const refused = await portal.saveBillingDetails(customerId, await readForm(c));
    if (refused === null) return c.redirect(portal.back('details'), 303);
    const form = renderDetailsForm({
      t: text.t,
      locale: text.locale,
      basePath: portal.settings.basePath,
      csrfToken: await portal.csrfTokenOf(c.req.raw),
      details: { ...refused.values, name: refused.values.name ?? '', email: refused.values.email ?? '' },
      errors: refused.errors,
    });
    return c.html(renderSubPage(portal.subPage(text), text.t('detailsHeading'), form), 400);
  });
}
