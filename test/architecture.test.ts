/**
 * The architecture as checks that fail (docs/architecture.md "Rules", ADRs 0921, 0922): the rules
 * in `.dependency-cruiser.cjs` (a pure core, one composition root that picks the store, clients
 * over HTTP, no module cycles), no import cycle between folders, and each core feature reaching
 * another's repositories only through the slice it declares. Each check is also shown to fail on
 * a planted violation, so a broken configuration cannot pass silently.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

interface Cruise {
  readonly modules: readonly {
    readonly source: string;
    readonly dependencies: readonly { readonly resolved: string; readonly dependencyTypes: readonly string[] }[];
  }[];
  readonly summary: {
    readonly violations: readonly {
      readonly rule: { readonly name: string };
      readonly from: string;
      readonly to: string;
    }[];
  };
}

function cruise(cwd: string, targets: readonly string[]): Cruise {
  const output = execFileSync(depcruise, [...targets, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(output) as Cruise;
}

const NOT_SOURCE = /(\.test\.ts$|\/test\/|\/bench\/)/;

/** The folder-to-folder import graph of the sources. */
function folderGraph(result: Cruise): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const module of result.modules) {
    if (NOT_SOURCE.test(module.source)) continue;
    const from = dirname(module.source);
    for (const dependency of module.dependencies) {
      if (!/^(packages|apps)\//.test(dependency.resolved) || NOT_SOURCE.test(dependency.resolved)) continue;
      const to = dirname(dependency.resolved);
      if (to === from) continue;
      const targets = graph.get(from) ?? new Set<string>();
      targets.add(to);
      graph.set(from, targets);
    }
  }
  return graph;
}

/** Every cycle a depth-first walk meets, each as the list of folders around it. */
function findCycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

const CORE = 'packages/billing-core/src/';

/** The core feature a module belongs to (`usage`, `payments`, …); none for `shared/` and the root files. */
function featureOf(path: string): string | undefined {
  const feature = new RegExp(`^${CORE}([^/]+)/`).exec(path)?.[1];
  return feature === 'shared' ? undefined : feature;
}

/**
 * A feature declares the repositories of others it uses by naming them in its slice, in its own
 * `repositories.ts`; it is the only module of the feature that may import another feature's
 * `repositories.ts`. Every other import of one is listed here as `from → to`.
 */
function undeclaredRepositoryImports(result: Pick<Cruise, 'modules'>): string[] {
  const found: string[] = [];
  for (const module of result.modules) {
    const from = featureOf(module.source);
    if (!from || NOT_SOURCE.test(module.source) || module.source === `${CORE}${from}/repositories.ts`) continue;
    for (const dependency of module.dependencies) {
      const to = featureOf(dependency.resolved);
      if (to && to !== from && dependency.resolved === `${CORE}${to}/repositories.ts`) {
        found.push(`${module.source} → ${dependency.resolved}`);
      }
    }
  }
  return found;
}

/** Core sources that declare a repository anywhere but in their feature's `repositories.ts`. */
function repositoriesDeclaredElsewhere(): string[] {
  const declaration = /^export (interface|type) \w+(Repository|Repositories)\b/m;
  return readdirSync(join(root, CORE), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !NOT_SOURCE.test(path) && !path.endsWith('repositories.ts'))
    .filter((path) => declaration.test(readFileSync(join(root, CORE, path), 'utf8')))
    .sort();
}

describe('the architecture', () => {
  const result = cruise(root, ['packages', 'apps']);

  it('breaks none of the dependency rules', () => {
    expect(result.modules.length).toBeGreaterThan(200);
    expect(result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    const graph = folderGraph(result);
    expect(graph.get('apps/billing-service/src')?.has('packages/billing-core/src')).toBe(true);
    expect(findCycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('lets a core feature reach the repositories of another only through its declared slice', () => {
    const slices = result.modules.filter((module) =>
      /^packages\/billing-core\/src\/[^/]+\/repositories\.ts$/.test(module.source),
    );
    expect(slices.length).toBeGreaterThan(10);
    expect(undeclaredRepositoryImports(result)).toEqual([]);
    expect(repositoriesDeclaredElsewhere()).toEqual([]);
  });

  it('finds a planted undeclared use of the repositories of another feature', () => {
    const module = (source: string, ...resolved: string[]) => ({
      source,
      dependencies: resolved.map((path) => ({ resolved: path, dependencyTypes: ['local'] })),
    });
    const planted = {
      modules: [
        module(`${CORE}usage/repositories.ts`, `${CORE}catalogue/repositories.ts`),
        module(`${CORE}usage/usage-periods.ts`, `${CORE}usage/repositories.ts`, `${CORE}catalogue/entities.ts`),
        module(`${CORE}usage/record-usage-events.ts`, `${CORE}subscriptions/repositories.ts`),
        module(`${CORE}store.ts`, `${CORE}usage/repositories.ts`),
      ],
    };
    expect(undeclaredRepositoryImports(planted)).toEqual([
      `${CORE}usage/record-usage-events.ts → ${CORE}subscriptions/repositories.ts`,
    ]);
  });

  it('finds a planted folder cycle', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', new Set(['b'])]]))).toEqual([]);
  });

  it('catches a planted violation of each rule', () => {
    const sandbox = mkdtempSync(join(tmpdir(), 'drawdown-architecture-'));
    try {
      cpSync(join(root, '.dependency-cruiser.cjs'), join(sandbox, '.dependency-cruiser.cjs'));
      writeFileSync(join(sandbox, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext' } }));
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(sandbox, path)), { recursive: true });
        writeFileSync(join(sandbox, path), text);
      };
      write(
        'packages/billing-core/src/impure.ts',
        "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n",
      );
      write('packages/billing-core/src/reaches-out.ts', "export * from '../../billing-store/src/store.js';\n");
      write('packages/billing-store/src/store.ts', 'export const store = 1;\n');
      write(
        'apps/billing-service/src/http/route.ts',
        "export * from '../../../../packages/billing-store/src/store.js';\n",
      );
      write('apps/billing-portal/src/page.ts', "export * from '../../billing-service/src/http/route.js';\n");
      write('packages/sdk/src/one.ts', "import { two } from './two.js';\nexport const one = () => two;\n");
      write('packages/sdk/src/two.ts', "import { one } from './one.js';\nexport const two = () => one;\n");
      const broken = new Set(cruise(sandbox, ['packages', 'apps']).summary.violations.map((v) => v.rule.name));
      expect([...broken].sort()).toEqual([
        'clients-talk-to-billing-over-http',
        'core-imports-no-node',
        'core-imports-only-itself',
        'no-module-cycles',
        'only-the-composition-root-imports-the-store',
      ]);
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });
});
