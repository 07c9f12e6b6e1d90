/**
 * The OpenAPI 3.1 document (issue 18): it validates with a standard validator, the checked-in
 * copy is current, every route the live and sandbox applications register is in it (and nothing
 * else), and the operations address serves it. The happy path of every operation is walked against
 * the document in `openapi-walk.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBillingHarness } from '@drawdown/testkit';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { API_OPERATIONS } from '../../src/openapi/api-operations.js';
import { openApiDocument, openApiPath } from '../../src/openapi/openapi-document.js';
import { createOperationsApp } from '../../src/operations/operations-app.js';

const REPO_ROOT = join(import.meta.dirname, '../../../..');

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
};

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(openApiDocument()) as never);
    expect(result.valid, JSON.stringify(result)).toBe(true);
    expect(result.specification).toBe('OpenAPI');
  });

  it('is served on the operations address', async () => {
    const harness = await startBillingHarness();
    try {
      const response = await createOperationsApp(harness.service.operations).request('/openapi.json');
      expect(await response.json()).toEqual(openApiDocument());
    } finally {
      await harness.close();
    }
  });

  it('is checked in as docs/openapi.json, current (run `npm run docs` after changing a route or schema)', () => {
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'docs/openapi.json'), 'utf8'))).toEqual(openApiDocument());
  });

  it.each(['live', 'sandbox'] as const)('lists exactly the routes the %s application registers', (environment) => {
    const app = createApp({} as Parameters<typeof createApp>[0], {
      environment,
      publicBaseUrl: () => 'http://127.0.0.1',
    });
    // A route with a permission guard is registered once per handler: count it once.
    const registered = [
      ...new Set(
        app.routes
          .filter((route) => route.method !== 'ALL')
          .map((route) => `${route.method.toLowerCase()} ${openApiPath(route.path)}`),
      ),
    ].sort();
    const documented = API_OPERATIONS.filter((operation) => environment === 'sandbox' || !operation.sandboxOnly)
      .map((operation) => `${operation.method} ${openApiPath(operation.path)}`)
      .sort();
    expect(registered).toEqual(documented);
    const paths = (openApiDocument() as unknown as Document).paths;
    for (const entry of registered) {
      const [method = '', path = ''] = entry.split(' ');
      expect(paths[path]?.[method], entry).toBeDefined();
    }
  });
});
