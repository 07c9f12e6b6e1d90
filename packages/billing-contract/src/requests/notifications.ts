/**
 * @module
 * Request bodies of `/notification-settings`, in wire (snake_case) form. Which event names
 * exist, and whether a destination may be reached, are the core's and the service's rules.
 */
import { z } from 'zod';

/** The reference's enums; `email` is accepted here so the core can refuse it with its own code. */
export const NOTIFICATION_SETTING_TYPE = z.enum(['url', 'email']);
export const TRAFFIC_SOURCE = z.enum(['platform', 'simulation', 'all']);

const description = z.string().trim().min(1).max(500);
const destination = z.string().trim().min(1).max(2_048);
const eventName = z.string().min(1).max(100);
const subscribedEvents = z.array(eventName).min(1).max(200);
const apiVersion = z.number().int();

export const CreateNotificationSettingBody = z.strictObject({
  description,
  type: NOTIFICATION_SETTING_TYPE,
  destination,
  subscribed_events: subscribedEvents,
  active: z.boolean().nullable().optional(),
  api_version: apiVersion.nullable().optional(),
  include_sensitive_fields: z.boolean().nullable().optional(),
  traffic_source: TRAFFIC_SOURCE.nullable().optional(),
});

export const UpdateNotificationSettingBody = z.strictObject({
  description: description.optional(),
  destination: destination.optional(),
  active: z.boolean().optional(),
  api_version: apiVersion.optional(),
  include_sensitive_fields: z.boolean().optional(),
  subscribed_events: subscribedEvents.optional(),
  traffic_source: TRAFFIC_SOURCE.optional(),
});
