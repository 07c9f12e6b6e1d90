#!/usr/bin/env node
// `npm run docs`: writes the documents generated from the code (the configuration table, the
// OpenAPI document) from the built billing service. Tests fail when a checked-in copy is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configurationDocument, openApiDocument } from '@drawdown/billing-service';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'docs/configuration.md'), configurationDocument());
writeFileSync(join(root, 'docs/openapi.json'), `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log('wrote docs/configuration.md and docs/openapi.json');
