/**
 * @module
 * The OpenAPI 3.1 document of the public API, generated from the operation list and the very
 * zod schemas the routes validate request bodies with (zod's own JSON Schema output, which is
 * the 2020-12 dialect OpenAPI 3.1 uses). The checked-in `docs/openapi.json` is this document (a
 * test keeps it current) and the service serves it at `GET /openapi.json` on its operations address.
 */
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

const ENVELOPE_META = {
  type: 'object',
  required: ['request_id'],
  properties: {
    request_id: { type: 'string' },
    pagination: {
      type: 'object',
      required: ['per_page', 'next', 'has_more'],
      properties: {
        per_page: { type: 'integer' },
        next: { type: 'string', format: 'uri' },
        has_more: { type: 'boolean' },
        estimated_total: { type: 'integer' },
      },
    },
  },
};

const COMPONENT_SCHEMAS: JsonObject = {
  EntityEnvelope: {
    type: 'object',
    required: ['data', 'meta'],
    properties: { data: { type: 'object' }, meta: { $ref: '#/components/schemas/Meta' } },
  },
  ListEnvelope: {
    type: 'object',
    required: ['data', 'meta'],
    properties: {
      data: { type: 'array', items: { type: 'object' } },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  },
  Meta: ENVELOPE_META,
  ErrorEnvelope: {
    type: 'object',
    required: ['error', 'meta'],
    properties: {
      error: {
        type: 'object',
        required: ['type', 'code', 'detail', 'documentation_url'],
        properties: {
          type: { type: 'string', enum: ['request_error', 'api_error'] },
          code: { type: 'string', description: 'One of the codes in docs/errors.md.' },
          detail: { type: 'string' },
          documentation_url: { type: 'string', format: 'uri' },
          errors: {
            type: 'array',
            items: {
              type: 'object',
              required: ['field', 'message'],
              properties: { field: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
      },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  },
};

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
    case 'redirect':
      return { description: 'See other: the checkout page, or a provider’s authentication page.' };
    case 'list':
      return {
        description: 'A page of results.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ListEnvelope' } } },
      };
    default:
      return {
        description: 'The entity.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/EntityEnvelope' } } },
      };
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
              [operation.shape === 'redirect' ? 'application/x-www-form-urlencoded' : 'application/json']: {
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
  const schemas: JsonObject = { ...COMPONENT_SCHEMAS };
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
