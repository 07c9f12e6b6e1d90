/**
 * The architecture as checks that fail (docs/architecture.md "Rules", ADR 0921): the rules in
 * `.dependency-cruiser.cjs` (a pure core, one composition root that picks the store, clients over
 * HTTP, no module cycles) and no import cycle between folders. Each check is also shown to fail
 * on a planted violation, so a broken configuration cannot pass silently.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** Modules whose imports do not count towards folder cycles: the port aggregates (see the config). */
const PORT_AGGREGATES = /^packages\/billing-core\/src\/shared\/(repository|operation-context)\.ts$/;
const NOT_SOURCE = /(\.test\.ts$|\/test\/|\/bench\/)/;

/** The folder-to-folder import graph of the sources. */
function folderGraph(result: Cruise): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const module of result.modules) {
    if (NOT_SOURCE.test(module.source) || PORT_AGGREGATES.test(module.source)) continue;
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
