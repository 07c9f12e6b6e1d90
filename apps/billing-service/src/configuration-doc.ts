/**
 * @module
 * `docs/configuration.md`, rendered from the settings schema: the table cannot drift from what
 * the service reads (a test compares the checked-in file with this rendering).
 */
import { configurationTable } from './config.js';

export function configurationDocument(): string {
  return `# Configuration

<!-- Generated from apps/billing-service/src/config.ts by \`npm run docs\`; do not edit by hand. -->

Every setting can be given as a flag (\`drawdown serve --live-port 9080\`) or as an environment
variable (\`DRAWDOWN_LIVE_PORT=9080\`); a flag wins over the variable, the variable over the
default. Every \`drawdown\` command reads the same settings (the storage ones matter to all of
them). Boolean settings are flags without a value, or the variable set to \`true\`.

${configurationTable()}

Besides these, \`serve\` takes \`--demo\` (make the demo account after the server listens, once per
installation), \`--demo-live-key\` (give it a live key too) and \`--keys-file FILE\` (write its keys
to a new file readable by its owner, instead of printing them); \`init\` takes the last two.
\`drawdown backup FILE\` writes a new file readable by its owner only (0600), as the keys file and
the database are (docs/deployment.md, "Files and permissions").
`;
}
