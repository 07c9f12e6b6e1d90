/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it
 * accepts, parsed by `mailparser`, for tests to read what a customer received.
 */
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  readonly envelopeTo: readonly string[];
  readonly mail: ParsedMail;
}

export interface SmtpInbox {
  readonly url: string;
  readonly received: readonly ReceivedMail[];
  /** Messages to `address`, waiting (polling, with a deadline) until at least `count` arrived. */
  waitFor(address: string, count?: number): Promise<ReceivedMail[]>;
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const received: ReceivedMail[] = [];
  const deferredOnce = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    // No reverse DNS of the loopback client: a lookup without a resolver waits for its timeout.
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      // A mailbox that does not exist: refused for good, as a real server answers it.
      if (address.address.startsWith('bounce')) {
        callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
        return;
      }
      // A mailbox that is busy the first time: a temporary refusal, to be retried.
      if (address.address.startsWith('later') && !deferredOnce.has(address.address)) {
        deferredOnce.add(address.address);
        callback(Object.assign(new Error('4.2.1 Mailbox busy, try later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => received.filter((item) => item.envelopeTo.includes(address));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to,
    async waitFor(address, count = 1) {
      const deadline = Date.now() + 15_000;
      while (to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`no ${count} message(s) to ${address} within 15 s`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return to(address);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
