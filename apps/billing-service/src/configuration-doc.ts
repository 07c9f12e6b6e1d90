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

## Documents and logos

Invoice and credit note PDFs are rendered, and seller logos decoded, on the document threads
(\`DRAWDOWN_DOCUMENT_WORKERS\`), never on the thread that answers the APIs (ADR 1491). With all of
them busy, up to \`DRAWDOWN_DOCUMENT_QUEUE\` documents wait; one more is answered
\`documents_busy\` (503, \`Retry-After: 1\`). A logo (\`PATCH /seller-details\`, \`drawdown accounts
seller-details set --logo\`) is a PNG or JPEG file of at most 256 KiB and 16 to 2,048 pixels a
side whose header declares at most 4 MiB of decoded pixels (width × height × bytes per pixel:
1,024 × 1,024 in 8-bit RGBA) and, for a JPEG, at most 100 scans. These limits are fixed; a file
over them is refused with \`logo_too_large\` before it is decoded (ADR 1490).

Besides these, \`serve\` takes \`--demo\` (make the demo account after the server listens, once per
installation), \`--demo-live-key\` (give it a live key too) and \`--keys-file FILE\` (write its keys
to a new file readable by its owner, instead of printing them); \`init\` takes the last two.
\`drawdown backup FILE\` writes a new file readable by its owner only (0600), as the keys file and
the database are (docs/deployment.md, "Files and permissions").
`;
}
