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

## Customer email

Live email goes to \`DRAWDOWN_SMTP_URL\`; the sandbox captures every email instead (\`GET
/emails\`, \`GET /emails/{email_id}\`). Each account environment has its own email settings,
through \`GET/PATCH /email-settings\` or \`drawdown accounts email-settings show|set\` (ADRs 1502,
1503):

| Setting | Flag of \`accounts email-settings set\` | Default | What it does |
| --- | --- | --- | --- |
| \`sender_name\` | \`--sender-name NAME\` | the seller details' legal name, else the account's name | The From name; line breaks and control characters are refused. |
| \`sender_address\` | \`--sender-address EMAIL\` | (unset) | The From address; live email is skipped (\`no_sender_address\`) until it is set. |
| \`reply_to\` | \`--reply-to EMAIL\` | (unset) | One Reply-To address. |
| \`enabled_emails\` | \`--enabled-emails KIND,…\\|all\\|none\` | every kind | The kinds sent: receipt, invoice_issued, payment_failed, subscription_past_due, subscription_canceled, subscription_cancel_scheduled, subscription_paused, subscription_resumed, subscription_plan_changed, refund_issued, credit_note_issued, renewal_upcoming, trial_ending, card_expiring. A kind turned off still writes its job, \`skipped\` with \`email_turned_off\`. What is stored is the kinds turned off, so a kind added in a later version is on until turned off (ADR 1504). |
| \`renewal_reminder_days\` | \`--renewal-reminder-days DAYS\` | \`7\` | Days (1 to 60) before a charge that the upcoming-renewal, trial-ending and card-expiring reminders go out, on the environment's clock. |
| \`renewal_reminders\` | \`--renewal-reminders yearly\\|all\` | \`yearly\` | Which subscriptions get the upcoming-renewal reminder: those billed yearly (or every 12 months or more), or all. |

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
