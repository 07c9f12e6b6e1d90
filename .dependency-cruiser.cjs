/**
 * The architecture as checks that fail: `test/architecture.test.ts` runs these rules and, beside
 * them, refuses import cycles between folders (docs/architecture.md "Rules", ADR 0921). Sources
 * only: tests and benchmarks may reach across layers to set things up.
 */
const TESTS = '(\\.test\\.ts$|/test/|/bench/)';
/**
 * npm packages the core may import (ADR 0929): pure functions over data, no dependencies of their
 * own, no I/O, no clock, no randomness: the postal layouts of Google's address data, and IBAN and
 * BIC checks. Anything else stays behind a port.
 */
const PURE_LIBRARIES = ['localized-address-format', 'ibantools'];
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-imports-no-node',
      comment: 'billing-core is pure: no node:* modules (no I/O, no clock, no randomness of its own).',
      severity: 'error',
      from: { path: '^packages/billing-core/src', pathNot: TESTS },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-imports-only-itself',
      comment:
        'billing-core imports nothing outside itself: no storage, no HTTP, no other workspace, no npm package but the pure, dependency-free data libraries listed (ADR 0929).',
      severity: 'error',
      from: { path: '^packages/billing-core/src', pathNot: TESTS },
      to: { pathNot: ['^packages/billing-core/src', `^node_modules/(${PURE_LIBRARIES.join('|')})/`] },
    },
    {
      name: 'only-the-composition-root-imports-the-store',
      comment: 'Storage adapters are picked in one place: apps/billing-service/src/compose-services.ts.',
      severity: 'error',
      from: {
        pathNot: [
          TESTS,
          '^packages/billing-store/',
          '^packages/testkit/',
          '^apps/billing-service/src/compose-services\\.ts$',
        ],
      },
      to: { path: '^packages/billing-store/' },
    },
    {
      name: 'clients-talk-to-billing-over-http',
      comment: 'The SDK, the portal and price search reach the billing service only over HTTP (through the SDK).',
      severity: 'error',
      from: { path: '^(packages/sdk|apps/billing-portal|apps/price-search)/src', pathNot: TESTS },
      to: { path: '^(packages/(billing-core|billing-store|billing-contract)|apps/billing-service)/' },
    },
    {
      name: 'no-module-cycles',
      comment:
        'No import cycles between modules, the core included: each feature reaches the repositories of another only through its own slice (ADR 0922).',
      severity: 'error',
      from: { pathNot: TESTS },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(/dist/|^(packages|apps)/[^/]+/(test|bench)/)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { conditionNames: ['source', 'import', 'default'], exportsFields: ['exports'] },
  },
};
