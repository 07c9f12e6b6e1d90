/** Prints a result as JSON for scripts, or as aligned `label: value` lines for people. */
export function printResult(json: boolean, value: Record<string, unknown>, lines: readonly [string, string][]): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  const width = Math.max(...lines.map(([label]) => label.length));
  for (const [label, text] of lines) process.stdout.write(`${`${label}:`.padEnd(width + 2)}${text}\n`);
}
