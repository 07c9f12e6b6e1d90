/**
 * @module
 * Notification destinations: a url, the event types it receives, and the secret that signs
 * every webhook sent to it. Only url destinations exist here (ADR 0502). Whether a url may be
 * reached (server-side request forgery rules) is the service's call, through `DestinationPolicy`.
 */

import { EVENT_API_VERSIONS, isEventTypeAvailable, isEventTypeName } from '../events/event-types.js';
import { BillingError, type FieldError } from '../shared/billing-error.js';
import { type Context, nowTimestamp } from '../shared/context.js';
import type { ListQuery, Page } from '../shared/pagination.js';
import type { NotificationSetting, TrafficSource } from './entities.js';
import type { NotificationSettingColumn, NotificationSlice } from './repositories.js';

/** The service's verdict on a destination url for one environment. */
export type DestinationVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/**
 * Decides whether a destination may be delivered to (it resolves host names; the core cannot).
 * One rule for both environments (ADR 1485): the operator's setting decides, not the scope.
 */
export interface DestinationPolicy {
  check(destination: URL): Promise<DestinationVerdict>;
}

/** Random text for endpoint secrets: at least 32 characters of `[A-Za-z0-9]`. */
export interface SecretSource {
  generateSecret(): string;
}

/** The operation context plus the two ports destinations need. */
export interface NotificationSettingContext extends Context<NotificationSlice> {
  readonly secrets: SecretSource;
  readonly destinations: DestinationPolicy;
}

export interface CreateNotificationSettingInput {
  readonly description: string;
  readonly type: string;
  readonly destination: string;
  readonly subscribedEvents: readonly string[];
  readonly active?: boolean | null | undefined;
  readonly apiVersion?: number | null | undefined;
  readonly includeSensitiveFields?: boolean | null | undefined;
  readonly trafficSource?: TrafficSource | null | undefined;
}

export interface UpdateNotificationSettingInput {
  readonly description?: string | undefined;
  readonly destination?: string | undefined;
  readonly active?: boolean | undefined;
  readonly apiVersion?: number | undefined;
  readonly includeSensitiveFields?: boolean | undefined;
  readonly subscribedEvents?: readonly string[] | undefined;
  readonly trafficSource?: TrafficSource | undefined;
}

const SECRET_BODY_LENGTH = 32;
const SECRET_BODY = /^[A-Za-z\d]+$/;
export const ENDPOINT_SECRET_KEY_PATTERN = /^pdl_ntfset_[a-z\d]{26}_[A-Za-z\d]{32}$/;
export const MAX_DESTINATION_LENGTH = 2_048;

/** Parses a destination: an absolute http(s) url without credentials. */
export function parseDestinationUrl(destination: string): URL {
  const invalid = (message: string) => BillingError.invalidField('destination', message);
  if (destination.length > MAX_DESTINATION_LENGTH)
    throw invalid(`must be at most ${MAX_DESTINATION_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    throw invalid('must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('must be an http or https URL');
  if (url.hostname === '') throw invalid('must name a host');
  // Webhooks authenticate by their signature; credentials in a url leak into logs and listings.
  if (url.username !== '' || url.password !== '') throw invalid('must not contain a user name or password');
  return url;
}

async function requireReachable(context: NotificationSettingContext, destination: string): Promise<void> {
  const url = parseDestinationUrl(destination);
  const verdict = await context.destinations.check(url);
  if (!verdict.allowed) {
    throw new BillingError(
      'notification_destination_not_allowed',
      `The destination is not allowed: ${verdict.reason}. Loopback, private-network and link-local destinations are refused unless the operator allows them.`,
    );
  }
}

/** Checks the names against the event-type table for this account; duplicates collapse. */
function requireSubscribableEvents(context: Context<NotificationSlice>, names: readonly string[]): string[] {
  const errors: FieldError[] = [];
  names.forEach((name, index) => {
    const field = `subscribed_events[${index}]`;
    if (!isEventTypeName(name)) {
      errors.push({ field, message: `${name} is not an event type this service emits (see GET /event-types)` });
    } else if (!isEventTypeAvailable(context.account, name)) {
      errors.push({ field, message: `${name} is available only to accounts in early access` });
    }
  });
  if (names.length === 0) errors.push({ field: 'subscribed_events', message: 'must name at least one event type' });
  if (errors.length > 0) {
    const summary = errors.map((error) => `${error.field}: ${error.message}`).join('; ');
    throw new BillingError('invalid_field', `Invalid request. ${summary}`, errors);
  }
  return [...new Set(names)];
}

function requireApiVersion(version: number): number {
  if (!(EVENT_API_VERSIONS as readonly number[]).includes(version)) {
    throw BillingError.invalidField('api_version', `must be one of ${EVENT_API_VERSIONS.join(', ')}`);
  }
  return version;
}

function newSecretBody(context: NotificationSettingContext): string {
  const body = context.secrets.generateSecret().slice(0, SECRET_BODY_LENGTH);
  if (body.length !== SECRET_BODY_LENGTH || !SECRET_BODY.test(body)) {
    throw new Error('The secret source gave fewer than 32 alphanumeric characters.');
  }
  return body;
}

/** `pdl_ntfset_<the setting id's 26 characters>_<32 random alphanumerics>`, the reference's format. */
function endpointSecretKey(context: NotificationSettingContext, settingId: string): string {
  return `pdl_ntfset_${settingId.slice('ntfset_'.length)}_${newSecretBody(context)}`;
}

export async function createNotificationSetting(
  context: NotificationSettingContext,
  input: CreateNotificationSettingInput,
): Promise<NotificationSetting> {
  if (input.type === 'email') {
    throw new BillingError(
      'notification_destination_type_unsupported',
      'Only url destinations are available (type url); this service does not send email notifications.',
    );
  }
  if (input.type !== 'url') throw BillingError.invalidField('type', 'must be url');
  const subscribedEvents = requireSubscribableEvents(context, input.subscribedEvents);
  const apiVersion = requireApiVersion(input.apiVersion ?? 1);
  await requireReachable(context, input.destination);
  const id = context.ids.newId('ntfset');
  const now = nowTimestamp(context);
  const setting: NotificationSetting = {
    id,
    description: input.description,
    type: 'url',
    destination: input.destination,
    active: input.active ?? true,
    apiVersion,
    includeSensitiveFields: input.includeSensitiveFields ?? false,
    trafficSource: input.trafficSource ?? 'platform',
    subscribedEvents,
    endpointSecretKey: endpointSecretKey(context, id),
    createdAt: now,
    updatedAt: now,
  };
  await context.store.notificationSettings.insert(context.scope, setting);
  return setting;
}

export async function updateNotificationSetting(
  context: NotificationSettingContext,
  id: string,
  input: UpdateNotificationSettingInput,
): Promise<NotificationSetting> {
  const subscribedEvents =
    input.subscribedEvents === undefined ? undefined : requireSubscribableEvents(context, input.subscribedEvents);
  if (input.apiVersion !== undefined) requireApiVersion(input.apiVersion);
  if (input.destination !== undefined) await requireReachable(context, input.destination);
  return context.store.transaction(async (tx) => {
    const current = await tx.notificationSettings.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Notification setting', id);
    const next: NotificationSetting = {
      ...current,
      description: input.description ?? current.description,
      destination: input.destination ?? current.destination,
      active: input.active ?? current.active,
      apiVersion: input.apiVersion ?? current.apiVersion,
      includeSensitiveFields: input.includeSensitiveFields ?? current.includeSensitiveFields,
      trafficSource: input.trafficSource ?? current.trafficSource,
      subscribedEvents: subscribedEvents ?? current.subscribedEvents,
      updatedAt: nowTimestamp(context),
    };
    await tx.notificationSettings.update(context.scope, next);
    return next;
  });
}

/**
 * Replaces the endpoint secret key at once: every attempt from now on, retries of earlier
 * notifications included, is signed with the new key (ADR 0502).
 */
export async function rotateNotificationSettingSecret(
  context: NotificationSettingContext,
  id: string,
): Promise<NotificationSetting> {
  return context.store.transaction(async (tx) => {
    const current = await tx.notificationSettings.findByIdForUpdate(context.scope, id);
    if (!current) throw BillingError.notFound('Notification setting', id);
    const next: NotificationSetting = {
      ...current,
      endpointSecretKey: endpointSecretKey(context, current.id),
      updatedAt: nowTimestamp(context),
    };
    await tx.notificationSettings.update(context.scope, next);
    return next;
  });
}

/** Deletes a destination; its undelivered notifications become `failed` and are not attempted again. */
export async function deleteNotificationSetting(context: Context<NotificationSlice>, id: string): Promise<void> {
  await context.store.transaction(async (tx) => {
    const deleted = await tx.notificationSettings.delete(context.scope, id);
    if (!deleted) throw BillingError.notFound('Notification setting', id);
    await tx.notifications.failUndelivered(context.scope, id);
  });
}

export async function getNotificationSetting(
  context: Context<NotificationSlice>,
  id: string,
): Promise<NotificationSetting> {
  const setting = await context.store.notificationSettings.findById(context.scope, id);
  if (!setting) throw BillingError.notFound('Notification setting', id);
  return setting;
}

export function listNotificationSettings(
  context: Context<NotificationSlice>,
  query: ListQuery<NotificationSettingColumn>,
): Promise<Page<NotificationSetting>> {
  return context.store.notificationSettings.list(context.scope, query);
}
