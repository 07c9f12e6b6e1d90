/**
 * @module
 * Holds an answer to the required field lists (ADR 1474): every field a kind lists is there, null
 * only where its rule allows, nested objects checked by their own kind, an event's `data` by its
 * event type. Fail-closed: a kind, event type or component with no list is itself a finding.
 */
import { COMPONENT_KINDS, EVENT_DATA_KINDS, REQUIRED_FIELDS } from './fields.js';

interface Rule {
  readonly optional: boolean;
  readonly kind: string | null;
  readonly list: boolean;
  readonly nullable: boolean;
}

function parseRule(text: string): Rule {
  let rest = text;
  const optional = rest.startsWith('~');
  if (optional) rest = rest.slice(1);
  const nullable = rest.endsWith('?');
  if (nullable) rest = rest.slice(0, -1);
  const list = rest.endsWith('[]');
  if (list) rest = rest.slice(0, -2);
  return { optional, nullable, list, kind: rest === 'value' ? null : rest };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The kind an event type's `data` has: `undefined` when none is listed, `null` for Drawdown's own. */
export function eventDataKind(eventType: string): string | null | undefined {
  if (eventType in EVENT_DATA_KINDS) return EVENT_DATA_KINDS[eventType];
  const entity = eventType.slice(0, eventType.indexOf('.'));
  return entity in EVENT_DATA_KINDS ? EVENT_DATA_KINDS[entity] : undefined;
}

/** The kind of a response component: `undefined` when none is listed, `null` for Drawdown's own. */
export function componentKind(component: string): string | null | undefined {
  return component in COMPONENT_KINDS ? COMPONENT_KINDS[component] : undefined;
}

/** Checks an event's payload (`data` of an event, `payload` of a run event) by its event type. */
function checkEventData(eventType: unknown, data: unknown, path: string, findings: string[]): void {
  const kind = eventDataKind(String(eventType));
  if (kind === undefined) findings.push(`${path}: no required field list for event type ${String(eventType)}`);
  else if (kind !== null) checkKind(kind, data, path, findings);
}

function checkKind(kind: string, value: unknown, path: string, findings: string[]): void {
  const fields = REQUIRED_FIELDS[kind];
  if (!fields) {
    findings.push(`${path}: no required field list for kind ${kind}`);
    return;
  }
  if (!isObject(value)) {
    findings.push(`${path}: a ${kind} must be an object, is ${JSON.stringify(value)}`);
    return;
  }
  for (const [listed, text] of Object.entries(fields)) {
    const rule = parseRule(listed.startsWith('~') ? `~${text}` : text);
    const name = listed.replace(/^~/, '');
    const at = `${path}.${name}`;
    if (!(name in value)) {
      if (!rule.optional) findings.push(`${at}: missing (required in ${kind})`);
      continue;
    }
    const field = value[name];
    if (field === null || field === undefined) {
      if (!rule.nullable) findings.push(`${at}: null, but ${kind} documents it as never null`);
      continue;
    }
    if (rule.list) {
      if (!Array.isArray(field)) findings.push(`${at}: must be an array`);
      else if (rule.kind)
        for (const [index, item] of field.entries()) checkKind(rule.kind, item, `${at}[${index}]`, findings);
    } else if (rule.kind) {
      checkKind(rule.kind, field, at, findings);
    }
  }
  // An event's payload is described by its event type.
  if (kind === 'event' || kind === 'notification_payload')
    checkEventData(value.event_type, value.data, `${path}.data`, findings);
  if (kind === 'simulation_run_event' && value.payload !== null && value.payload !== undefined)
    checkEventData(value.event_type, value.payload, `${path}.payload`, findings);
}

/**
 * What is missing from `value`, held to `kind`'s required field list: one line per finding, each
 * naming the path (`data.items[0].price.quantity`) and what is wrong. Empty when all is there.
 */
export function missingRequiredFields(kind: string, value: unknown, path = 'data'): string[] {
  const findings: string[] = [];
  checkKind(kind, value, path, findings);
  return findings;
}

/** As `missingRequiredFields`, for one event as a webhook delivers it (`notification_id` included). */
export function missingEventFields(event: unknown, path = 'event'): string[] {
  return missingRequiredFields('notification_payload', event, path);
}

/** As `missingRequiredFields`, for an event type's payload alone (a simulation's example). */
export function missingEventDataFields(eventType: string, data: unknown, path = 'data'): string[] {
  const findings: string[] = [];
  checkEventData(eventType, data, path, findings);
  return findings;
}
