/**
 * @module
 * Sending one email over SMTP with nodemailer (ADR 1500), to the server `--smtp-url` names: TLS
 * from the start with `smtps://`, STARTTLS when offered with `smtp://`, authentication from the
 * URL's user and password. Each attempt is bounded in time; the answer is sorted into what the
 * job's next state needs: accepted, refused for good (a 5xx), or to retry (4xx, no connection,
 * timeouts).
 */
import nodemailer from 'nodemailer';

export interface OutgoingEmail {
  readonly from: { readonly name: string; readonly address: string };
  readonly replyTo: string | null;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
  readonly language: string;
  readonly logo: { readonly content: Buffer; readonly contentType: string; readonly cid: string } | null;
}

export type SendResult =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'refused'; readonly error: string }
  | { readonly kind: 'deferred'; readonly error: string };

export interface MailTransport {
  send(email: OutgoingEmail): Promise<SendResult>;
  close(): void;
}

export interface SmtpOptions {
  /** How long connecting, the greeting and each exchange may take before the attempt is retried later. */
  readonly timeoutMs: number;
}

function describe(error: unknown): { responseCode: number | undefined; text: string } {
  const details = error as { responseCode?: unknown; response?: unknown; code?: unknown; message?: unknown };
  const responseCode = typeof details.responseCode === 'number' ? details.responseCode : undefined;
  const text =
    typeof details.response === 'string'
      ? details.response
      : `${typeof details.code === 'string' ? `${details.code}: ` : ''}${String(details.message ?? error)}`;
  return { responseCode, text: text.slice(0, 500) };
}

export function createSmtpTransport(url: string, options: SmtpOptions): MailTransport {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    // Headers are never taken from the message's own text; addresses are objects, never parsed lists.
    disableFileAccess: true,
    disableUrlAccess: true,
  } as nodemailer.TransportOptions);
  return {
    async send(email) {
      try {
        const info = await transport.sendMail({
          from: { name: email.from.name, address: email.from.address },
          to: { name: '', address: email.to },
          envelope: { from: email.from.address, to: [email.to] },
          ...(email.replyTo ? { replyTo: { name: '', address: email.replyTo } } : {}),
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: email.messageId,
          headers: { 'Content-Language': email.language, 'Auto-Submitted': 'auto-generated' },
          attachments: email.logo
            ? [
                {
                  filename: 'logo',
                  content: email.logo.content,
                  contentType: email.logo.contentType,
                  cid: email.logo.cid,
                },
              ]
            : [],
        });
        if (info.rejected.length > 0) return { kind: 'refused', error: `recipient refused: ${String(info.response)}` };
        return { kind: 'accepted' };
      } catch (error) {
        const { responseCode, text } = describe(error);
        // A 5xx is the server's final word (unknown mailbox, policy): retrying changes nothing.
        if (responseCode !== undefined && responseCode >= 500) return { kind: 'refused', error: text };
        return { kind: 'deferred', error: text };
      }
    },
    close() {
      transport.close();
    },
  };
}
