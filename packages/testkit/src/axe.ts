/**
 * @module
 * Accessibility checks for browser tests: axe-core run inside a page, every rule it has by default
 * (WCAG 2.0, 2.1 and 2.2 A and AA, and its best practices). The script is injected through
 * `evaluate` (the DevTools protocol), so a page's Content-Security-Policy does not stop it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What the check needs of a page: playwright-core's `Page.evaluate` with a script text. */
export interface ScriptablePage {
  evaluate(script: string): Promise<unknown>;
}

/**
 * The page's axe violations, one line each (rule, impact, the elements), empty when it has none.
 * The script is injected once per document: a page whose content is replaced in place
 * (`setContent`, `document.open`) keeps its window and with it axe, and injecting it again took
 * 0.3-0.8 s each time on the shared machine. A navigation starts a new window, without axe.
 */
export async function axeViolations(page: ScriptablePage): Promise<string[]> {
  if ((await page.evaluate('typeof axe === "object" && typeof axe.run === "function"')) !== true)
    await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    '(async () => (await axe.run(document, { resultTypes: ["violations"] })).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) })))()',
  )) as readonly { id: string; impact: string | null; help: string; targets: string[] }[];
  return violations.map((v) => `${v.id} (${v.impact ?? 'no impact'}): ${v.help}: ${v.targets.join(', ')}`);
}
