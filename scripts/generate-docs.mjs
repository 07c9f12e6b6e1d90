#!/usr/bin/env node
// `npm run docs`: writes the documents generated from the code (the configuration table, the
// OpenAPI document) from the built billing service, and the ADR index from the ADR files. Tests fail
// when a checked-in copy is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { portalConfigurationSection } from '@drawdown/billing-portal';
import { configurationDocument, openApiDocument } from '@drawdown/billing-service';
import { writeAdrIndex } from './adr-index.mjs';

const root = join(import.meta.dirname, '..');
// The service's settings, then the standalone portal's (each test checks its own part).
writeFileSync(join(root, 'docs/configuration.md'), `${configurationDocument()}\n${portalConfigurationSection()}`);
writeFileSync(join(root, 'docs/openapi.json'), `${JSON.stringify(openApiDocument(), null, 2)}\n`);
writeAdrIndex();
console.log('wrote docs/configuration.md, docs/openapi.json and docs/decisions/README.md');
