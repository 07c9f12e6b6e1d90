#!/usr/bin/env node
// Builds the SQLite extension `drawdown_bm25` (native/bm25-cached.c, ADR 0233) into build/, with the C compiler
// that also built better-sqlite3 and SQLite's own extension headers from better-sqlite3's sources. Run by
// `npm ci` / `npm install` (this package's `install` script) and safe to run again.
//
// Without a C compiler (or on Windows) nothing is built and the catalogue ranks with FTS5's own bm25(): the
// same answers, each ranked lookup counting its phrases' rows again. So a failed build warns and exits 0.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const source = join(root, 'native', 'bm25-cached.c');
// The file src/catalogue/bm25-extension.ts loads (SQLite and dlopen take the name as it is on every platform).
const target = join(root, 'build', 'drawdown-bm25.so');

function skip(reason) {
  console.warn(
    `price-search: the drawdown_bm25 SQLite extension was not built (${reason}); the catalogue ranks with FTS5's bm25(), with the same answers at a higher cost per lookup (ADR 0233)`,
  );
  process.exit(0);
}

if (process.platform === 'win32') skip('no build recipe for Windows');
let headers;
try {
  headers = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'deps', 'sqlite3');
} catch {
  skip('better-sqlite3 is not installed');
}
if (!existsSync(join(headers, 'sqlite3ext.h'))) skip(`no sqlite3ext.h in ${headers}`);

mkdirSync(dirname(target), { recursive: true });
rmSync(target, { force: true });
const compiler = process.env.CC || 'cc';
const linkFlags = process.platform === 'darwin' ? ['-dynamiclib'] : ['-shared'];
const result = spawnSync(compiler, ['-O2', '-fPIC', ...linkFlags, '-I', headers, '-o', target, source, '-lm'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (result.error !== undefined) skip(`${compiler}: ${result.error.message}`);
if (result.status !== 0) skip(`${compiler} exited with ${result.status}`);
console.log(`price-search: built ${target}`);
