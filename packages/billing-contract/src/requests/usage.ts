/**
 * @module
 * Request bodies of subscriptions, usage events and sandbox time control.
 */
import { z } from 'zod';
import { customData, idOf } from './common.js';
import { billingDetails } from './transactions.js';

const requestedItem = z.strictObject({
  price_id: idOf('pri'),
  quantity: z.number().int().min(1).max(999_999_999),
});

const timestamp = z.iso.datetime({ offset: true });

export const UpdateSubscriptionBody = z.strictObject({
  items: z.array(requestedItem).min(1).max(100).optional(),
  proration_billing_mode: z
    .enum([
      'prorated_immediately',
      'prorated_next_billing_period',
      'full_immediately',
      'full_next_billing_period',
      'do_not_bill',
    ])
    .optional(),
  on_payment_failure: z.enum(['prevent_change', 'apply_change']).optional(),
  collection_mode: z.enum(['automatic', 'manual']).optional(),
  custom_data: customData.optional(),
  /** As in the public API, only `null` (remove it): changes are scheduled with /pause, /cancel and /resume. */
  scheduled_change: z
    .null({
      error: 'can only be null here (it removes the scheduled change); schedule one with /pause, /cancel or /resume',
    })
    .optional(),
  address_id: idOf('add').optional(),
  customer_id: idOf('ctm').optional(),
  business_id: idOf('biz').nullable().optional(),
  /** The currency the subscription bills in; every item must be priced in it for the address (ADR 1009). */
  currency_code: z.string().length(3).optional(),
  next_billed_at: timestamp.optional(),
  discount: z
    .strictObject({ id: idOf('dsc'), effective_from: z.enum(['next_billing_period', 'immediately']) })
    .nullable()
    .optional(),
  billing_details: billingDetails.nullable().optional(),
});

export const SubscriptionChargeBody = z.strictObject({
  effective_from: z.enum(['immediately', 'next_billing_period']),
  items: z
    .array(
      z.strictObject({
        price_id: idOf('pri').optional(),
        quantity: z.number().int().min(1).max(999_999_999),
        /** Non-catalog prices are refused by name (`field_not_supported`). */
        price: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(100),
  on_payment_failure: z.enum(['prevent_change', 'apply_change']).optional(),
});

const onResume = z.enum(['start_new_billing_period', 'continue_existing_billing_period']);

export const PauseSubscriptionBody = z.strictObject({
  effective_from: z.enum(['next_billing_period', 'immediately']).nullable().optional(),
  resume_at: timestamp.nullable().optional(),
  on_resume: onResume.optional(),
});

export const ResumeSubscriptionBody = z
  .strictObject({
    effective_from: z
      .union([z.literal('immediately'), timestamp])
      .nullable()
      .optional(),
    on_resume: onResume.optional(),
  })
  .nullable();

export const CancelSubscriptionBody = z.strictObject({
  effective_from: z.enum(['next_billing_period', 'immediately']).nullable().optional(),
  /** A Drawdown extension (ADR 0806): why the customer cancels, kept on the subscription. */
  cancellation_reason: z
    .strictObject({
      reason: z.enum([
        'too_expensive',
        'missing_features',
        'switched_service',
        'unused',
        'technical_issues',
        'customer_service',
        'other',
      ]),
      comment: z.string().max(500).nullable().optional(),
    })
    .nullable()
    .optional(),
});

// Field rules (the id's form included) are the core's: unstorable text in any field is a
// rejection of that event alone, which must be found before a pattern refuses the request.
const usageEvent = z.strictObject({
  event_key: z.string().max(1_024),
  customer_id: z.string().max(64),
  action: z.string().max(200),
  quantity: z.string().max(128),
  occurred_at: z.string().max(64),
});

export const RecordUsageEventsBody = z.strictObject({
  // The limit of one is the core's rule, answered with its own code; this only bounds the work.
  events: z.array(usageEvent).max(1_000),
});

/** The outcome of the sandbox account's simulated card (ADR 1003). */
export const SandboxPaymentOutcomeBody = z.strictObject({ outcome: z.enum(['success', 'failure']) });

/** How the renewals this advance runs are paid: by the simulated card, or declined (dunning). */
const renewalPayments = z.enum(['success', 'failure']).optional();

export const AdvanceSandboxClockBody = z.union([
  z.strictObject({ to: timestamp, renewal_payments: renewalPayments }),
  z.strictObject({
    seconds: z
      .number()
      .int()
      .min(0)
      .max(10 * 366 * 86_400),
    renewal_payments: renewalPayments,
  }),
]);
