/**
 * @module
 * `POST /transactions/preview` and `POST /pricing-preview`: what a transaction would charge,
 * priced by the same builder as real transactions and written nowhere. Fields of the public
 * API that Drawdown does not offer here yet are refused by name (`field_not_supported`).
 */
import { PreviewTransactionBody, PricingPreviewBody, UNSUPPORTED_PREVIEW_FIELDS } from '@drawdown/billing-contract';
import { formatTotals, type PreviewTransactionInput, type TransactionPreview } from '@drawdown/billing-core';
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../app-env.js';
import { respond } from '../envelope.js';
import { readBody } from '../request-body.js';
import { need } from '../route-helpers.js';
import type { CamelCased } from '../wire-case.js';

type PreviewBody = CamelCased<z.output<typeof PreviewTransactionBody>>;

function camelKey(field: string): string {
  return field.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The body as the core's input; fields not offered are named for refusal. */
function toPreviewInput(body: PreviewBody): PreviewTransactionInput {
  const fields = body as Record<string, unknown>;
  const unsupported: string[] = UNSUPPORTED_PREVIEW_FIELDS.filter(
    (field) => fields[camelKey(field)] !== undefined && fields[camelKey(field)] !== null,
  );
  const items = body.items.map((item, index) => {
    if (item.includeInTotals === false) unsupported.push(`items[${index}].include_in_totals`);
    // A catalogue price by id or a non-catalogue price (ADR 1108); the core wants exactly one.
    return { priceId: item.priceId, price: item.price, quantity: item.quantity };
  });
  return {
    items,
    customerId: body.customerId,
    addressId: body.addressId,
    businessId: body.businessId,
    currencyCode: body.currencyCode,
    address: body.address,
    ignoreTrials: body.ignoreTrials,
    discountId: body.discountId,
    discount: body.discount,
    unsupportedFields: unsupported,
  };
}

function presentParties(preview: TransactionPreview) {
  return {
    customerId: preview.customerId,
    addressId: preview.addressId,
    businessId: preview.businessId,
    currencyCode: preview.currencyCode,
    discountId: preview.discountId,
    customerIpAddress: null,
    address: preview.address,
  };
}

function presentTransactionPreview(preview: TransactionPreview) {
  const { items, details } = preview.transaction;
  return {
    ...presentParties(preview),
    ignoreTrials: preview.ignoreTrials,
    items: items.map((item) => ({
      price: item.price,
      quantity: item.quantity,
      includeInTotals: true,
      proration: null,
    })),
    details: {
      taxRatesUsed: details.taxRatesUsed,
      totals: details.totals,
      lineItems: details.lineItems.map(({ id: _id, ...line }) => line),
    },
    availablePaymentMethods: [],
  };
}

function presentPricingPreview(preview: TransactionPreview) {
  const { items, details, currencyCode } = preview.transaction;
  return {
    ...presentParties(preview),
    details: {
      lineItems: details.lineItems.map((line, index) => ({
        price: items[index]?.price,
        quantity: line.quantity,
        taxRate: line.taxRate,
        unitTotals: line.unitTotals,
        formattedUnitTotals: formatTotals(line.unitTotals, currencyCode),
        totals: line.totals,
        formattedTotals: formatTotals(line.totals, currencyCode),
        product: line.product,
        discounts: [],
      })),
    },
    availablePaymentMethods: [],
  };
}

export function registerPreviewRoutes(app: Hono<AppEnv>): void {
  app.post('/transactions/preview', need('transaction.read'), async (c) => {
    const input = toPreviewInput(await readBody(c, PreviewTransactionBody));
    return respond(c, presentTransactionPreview(await c.var.useCases.previewTransaction(c.var.caller, input)));
  });
  app.post('/pricing-preview', need('price.read'), async (c) => {
    const input = toPreviewInput((await readBody(c, PricingPreviewBody)) as PreviewBody);
    return respond(c, presentPricingPreview(await c.var.useCases.previewTransaction(c.var.caller, input)));
  });
}
