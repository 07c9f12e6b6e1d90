/**
 * @module
 * Saved payment methods of a customer, the update-payment-method transaction of a subscription
 * and the checkout settings (ADRs 1411, 1412).
 */
import { UpdateCheckoutSettingsBody } from '@drawdown/billing-contract';
import { BillingError, type PaymentMethodColumn } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { AppEnv } from '../app-env.js';
import { respond, respondPage } from '../envelope.js';
import { type ListSpec, parseListParams } from '../list-params.js';
import { readBody } from '../request-body.js';
import { need, pathId } from '../route-helpers.js';

const paymentMethodListSpec: ListSpec<PaymentMethodColumn> = {
  idPrefix: 'paymtd',
  defaultPerPage: 50,
  maxPerPage: 200,
  filters: {
    address_id: { kind: 'ids', column: 'address_id', prefix: 'add' },
  },
  handledElsewhere: ['supports_checkout'],
};

function supportsCheckout(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw BillingError.invalidField('supports_checkout', 'must be true or false');
}

export function registerPaymentMethodRoutes(app: Hono<AppEnv>): void {
  app.get('/customers/:customer/payment-methods', need('payment_method.read'), async (c) => {
    const customerId = pathId(c, 'ctm', 'customer');
    const { query, perPage } = parseListParams(c, paymentMethodListSpec);
    const page = await c.var.useCases.listPaymentMethods(c.var.caller, customerId, {
      ...query,
      supportsCheckout: supportsCheckout(c.req.query('supports_checkout')),
    });
    return respondPage(c, page, perPage, ({ internal: _internal, ...wire }) => wire);
  });
  app.get('/customers/:customer/payment-methods/:id', need('payment_method.read'), async (c) => {
    const { internal: _internal, ...wire } = await c.var.useCases.getPaymentMethod(
      c.var.caller,
      pathId(c, 'ctm', 'customer'),
      pathId(c, 'paymtd'),
    );
    return respond(c, wire);
  });
  app.delete('/customers/:customer/payment-methods/:id', need('payment_method.write'), async (c) => {
    await c.var.useCases.deletePaymentMethod(c.var.caller, pathId(c, 'ctm', 'customer'), pathId(c, 'paymtd'));
    return c.body(null, 204);
  });
  app.get('/subscriptions/:id/update-payment-method-transaction', need('transaction.write'), async (c) =>
    respond(c, await c.var.useCases.getPaymentMethodChangeTransaction(c.var.caller, pathId(c, 'sub'))),
  );
  app.get('/checkout-settings', need('transaction.read'), async (c) =>
    respond(c, await c.var.useCases.getCheckoutSettings(c.var.caller)),
  );
  app.patch('/checkout-settings', need('transaction.write'), async (c) => {
    const body = await readBody(c, UpdateCheckoutSettingsBody);
    return respond(c, await c.var.useCases.updateCheckoutSettings(c.var.caller, body));
  });
}
