/**
 * @module
 * The OpenAPI 3.1 document of the public API, generated from the operation list, the very zod
 * schemas the routes validate request bodies with, and the contract's response schemas (zod's own
 * JSON Schema output, which is the 2020-12 dialect OpenAPI 3.1 uses). Each success is its entity
 * (or a page or array of them) inside the `{data, meta}` envelope; entities are closed, so the
 * happy-path walk fails on a field emitted but not documented. The checked-in `docs/openapi.json`
 * is this document (a test keeps it current) and the service serves it at `GET /openapi.json` on
 * its operations address.
 */
import { EVENT_DATA, EventResponse, NotificationPayloadResponse, RESPONSE_SCHEMAS } from '@drawdown/billing-contract';
import { ERROR_CODES } from '@drawdown/billing-core';
import { z } from 'zod';
import { serviceVersion } from '../operations/version.js';
import { API_OPERATIONS, type ApiOperation } from './api-operations.js';

type JsonObject = Record<string, unknown>;

/** `/customers/:customer/addresses/:id` → `/customers/{customer}/addresses/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

function requestSchema(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

const META = {
  type: 'object',
  required: ['request_id'],
  additionalProperties: false,
  properties: {
    request_id: { type: 'string', description: 'The request id (an incoming X-Request-Id when well formed).' },
  },
};

const LIST_META = {
  type: 'object',
  required: ['request_id', 'pagination'],
  additionalProperties: false,
  properties: {
    request_id: { type: 'string', description: 'The request id (an incoming X-Request-Id when well formed).' },
    pagination: {
      type: 'object',
      required: ['per_page', 'next', 'has_more', 'estimated_total'],
      additionalProperties: false,
      properties: {
        per_page: { type: 'integer', minimum: 1 },
        next: { type: 'string', format: 'uri', description: 'This page again with `after` set to its last id.' },
        has_more: { type: 'boolean' },
        estimated_total: { type: 'integer', minimum: 0 },
      },
    },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The contract's response schemas as components, each referring to the others by name. */
function responseComponents(): JsonObject {
  const { schemas } = z.toJSONSchema(RESPONSE_SCHEMAS, {
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === EventResponse || zodSchema === NotificationPayloadResponse) jsonSchema.allOf = eventData();
    },
  }) as { schemas: Record<string, JsonObject> };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $schema: _dialect, $id: _id, id: _name, ...schema }]) => [name, schema]),
  );
}

/**
 * One `if event_type is <type> (or starts with <prefix>.) then data is <Entity>` per entry the
 * contract names.
 */
function eventData(): JsonObject[] {
  return Object.entries(EVENT_DATA).map(([key, schema]) => ({
    if: {
      required: ['event_type'],
      properties: { event_type: { pattern: key.includes('.') ? `^${key.replace('.', '\\.')}$` : `^${key}\\.` } },
    },
    // biome-ignore lint/suspicious/noThenProperty: `then` is JSON Schema's keyword here, not a thenable.
    then: { properties: { data: ref(String(RESPONSE_SCHEMAS.get(schema)?.id)) } },
  }));
}

/**
 * The schema of an operation's response entity: its component, or a bare object for an operation
 * that names none yet (a test lists those, so the gap cannot stay).
 */
function entitySchema(operation: ApiOperation): JsonObject {
  const name = operation.response ? RESPONSE_SCHEMAS.get(operation.response)?.id : undefined;
  return name ? ref(name) : { type: 'object' };
}

const COMPONENT_SCHEMAS: JsonObject = {
  Meta: META,
  ListMeta: LIST_META,
  ErrorEnvelope: {
    type: 'object',
    required: ['error', 'meta'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['type', 'code', 'detail', 'documentation_url'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', enum: ['request_error', 'api_error'] },
          code: { type: 'string', enum: Object.keys(ERROR_CODES), description: 'Explained in docs/errors.md.' },
          detail: { type: 'string' },
          documentation_url: { type: 'string', format: 'uri' },
          errors: {
            type: 'array',
            description: 'Only with `invalid_field`: each field and what is wrong with it.',
            items: {
              type: 'object',
              required: ['field', 'message'],
              additionalProperties: false,
              properties: { field: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  },
};

function json(description: string, data: JsonObject, meta: 'Meta' | 'ListMeta'): JsonObject {
  return {
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['data', 'meta'],
          additionalProperties: false,
          properties: { data, meta: ref(meta) },
        },
      },
    },
  };
}

function successResponse(operation: ApiOperation): JsonObject {
  switch (operation.shape) {
    case 'empty':
      return { description: 'Done; no body.' };
    case 'pdf':
      return {
        description: 'The invoice as a PDF.',
        content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
      };
    case 'csv':
      return {
        description: 'The report as CSV.',
        content: { 'text/csv': { schema: { type: 'string', contentMediaType: 'text/csv' } } },
      };
    case 'html':
      return {
        description: 'An HTML page.',
        content: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html' } } },
      };
    case 'css':
      return {
        description: 'A stylesheet.',
        content: { 'text/css': { schema: { type: 'string', contentMediaType: 'text/css' } } },
      };
    case 'js':
      return {
        description: 'A script.',
        content: { 'text/javascript': { schema: { type: 'string', contentMediaType: 'text/javascript' } } },
      };
    case 'redirect': {
      const location = operation.location;
      if (!location) throw new Error(`${operation.method} ${operation.path} redirects without a documented Location`);
      return {
        description: `See other: ${location.description}.`,
        headers: {
          Location: {
            required: true,
            description: `Where the browser goes next: ${location.description}.`,
            schema: { type: 'string', pattern: location.pattern },
          },
        },
      };
    }
    case 'list':
      return json('A page of results.', { type: 'array', items: entitySchema(operation) }, 'ListMeta');
    case 'array':
      return json('All of them, unpaginated.', { type: 'array', items: entitySchema(operation) }, 'Meta');
    default:
      return json('The entity.', entitySchema(operation), 'Meta');
  }
}

function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
}

function operationObject(operation: ApiOperation): JsonObject {
  const id = `${operation.method}${openApiPath(operation.path)
    .split(/[/{}-]/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('')}`;
  const parameters = pathParameters(operation.path);
  return {
    operationId: id,
    summary: operation.summary,
    tags: [operation.tag],
    ...(operation.permission
      ? { description: `Needs the \`${operation.permission}\` permission.` }
      : { security: [], description: 'Public: no API key.' }),
    ...(operation.sandboxOnly ? { 'x-drawdown-environments': ['sandbox'] } : {}),
    ...(operation.liveOnly ? { 'x-drawdown-environments': ['live'] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: {
              // The checkout's forms post as a browser does.
              [operation.shape === 'redirect' || operation.formBody
                ? 'application/x-www-form-urlencoded'
                : 'application/json']: {
                schema: { $ref: `#/components/schemas/${operation.body.name}` },
              },
            },
          },
        }
      : {}),
    responses: {
      [String(operation.status)]: successResponse(operation),
      default: {
        description: 'An error (docs/errors.md).',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      },
    },
  };
}

export function openApiDocument(version = serviceVersion()): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const schemas: JsonObject = { ...COMPONENT_SCHEMAS, ...responseComponents() };
  for (const operation of API_OPERATIONS) {
    const path = openApiPath(operation.path);
    paths[path] = { ...paths[path], [operation.method]: operationObject(operation) };
    if (operation.body) schemas[operation.body.name] = requestSchema(operation.body.schema);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Drawdown billing API',
      version,
      description:
        'Wire-compatible with the Paddle Billing API for the operations listed. Live and sandbox are served on separate addresses; a key works only on its own environment.',
    },
    servers: [
      { url: 'http://127.0.0.1:8080', description: 'live (default local address)' },
      { url: 'http://127.0.0.1:8081', description: 'sandbox (default local address)' },
    ],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key: pdl_live_… or pdl_sdbx_…' },
      },
      schemas,
    },
  };
}
