/**
 * @module
 * Percentiles, the printed table and the JSON results file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';

/** The p-th percentile (nearest rank) of numbers; null for none. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? null;
}

/** Rounds for display and JSON: two decimals. */
export function round(value) {
  return value === null || value === undefined ? null : Math.round(value * 100) / 100;
}

/** The machine, as far as it explains the figures. */
export function machine() {
  const processors = cpus();
  return {
    cpu: processors[0]?.model ?? 'unknown',
    cores: processors.length,
    loadAverage: loadavg().map(round),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** Prints rows of cells as an aligned plain-text table with a header rule. */
export function formatTable(header, rows) {
  const all = [header, ...rows].map((row) =>
    row.map((cell) => (cell === null || cell === undefined ? '–' : String(cell))),
  );
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  const line = (row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  const [first, ...rest] = all;
  return [line(first ?? []), widths.map((width) => '-'.repeat(width)).join('  '), ...rest.map(line)].join('\n');
}

export function writeJson(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}
