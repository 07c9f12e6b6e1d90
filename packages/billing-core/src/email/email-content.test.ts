import { describe, expect, it } from 'vitest';
import { composeEmail, headerSafe } from './email-content.js';
import { afterEmailAttempt, messageIdOf } from './email-delivery.js';
import { EMAIL_LANGUAGES, EMAIL_WORDS } from './email-words.js';
import { EMAIL_KINDS, type EmailJob } from './entities.js';

const JOB: EmailJob = {
  id: 'eml_01aaaaaaaaaaaaaaaaaaaaaaaa',
  kind: 'receipt',
  status: 'pending',
  eventId: 'evt_01aaaaaaaaaaaaaaaaaaaaaaaa',
  customerId: 'ctm_01aaaaaaaaaaaaaaaaaaaaaaaa',
  recipient: 'ada@example.com',
  locale: 'ja',
  skipReason: null,
  facts: {
    customerName: 'Ada\r\nBcc: x@evil.example',
    currencyCode: 'JPY',
    amount: '123456789012345678',
    transactionId: 'txn_01aaaaaaaaaaaaaaaaaaaaaaaa',
    invoiceNumber: '2026-00001',
    subscriptionId: null,
    adjustmentId: null,
    productNames: ['Plan'],
    date: '2026-03-01T00:00:00.000Z',
    payUrl: null,
  },
  messageId: messageIdOf('eml_01aaaaaaaaaaaaaaaaaaaaaaaa'),
  attempts: 0,
  lastError: null,
  message: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  nextAttemptAt: '2026-03-01T00:00:00.000Z',
  sentAt: null,
};

describe('composeEmail', () => {
  it('formats an amount beyond a double exactly, in the customer’s language', () => {
    const content = composeEmail(JOB, 'Shop', { document: null, pay: null });
    expect(content.language).toBe('ja');
    expect(content.subject).toBe('Shopからの領収書');
    expect(content.intro).toContain('￥123,456,789,012,345,678');
  });

  it('keeps line breaks of a seller or customer name out of the subject and greeting', () => {
    const content = composeEmail(JOB, 'Shop\r\nBcc: x@evil.example', { document: null, pay: null });
    expect(content.subject).not.toMatch(/[\r\n]/);
    expect(content.greeting).not.toMatch(/[\r\n]/);
    expect(headerSafe('a\u2028b\tc')).toBe('a b c');
  });

  it('names a failed payment’s next try in the customer’s language', () => {
    const job: EmailJob = {
      ...JOB,
      kind: 'payment_failed',
      locale: 'de',
      facts: { ...JOB.facts, currencyCode: 'EUR', amount: '1999', nextTryAt: '2026-03-04T10:00:00.000Z' },
    };
    const content = composeEmail(job, 'Shop', { document: null, pay: 'https://portal.example/session?token=t' });
    expect(content.intro).toContain('Wir versuchen es am 4. März 2026 erneut.');
    expect(content.rows).toContainEqual({ label: 'Nächster Versuch am', value: '4. März 2026' });
    expect(content.actions).toEqual([
      { label: 'Zahlungsmethode aktualisieren', url: 'https://portal.example/session?token=t' },
    ]);
    const last = composeEmail({ ...job, facts: { ...job.facts, nextTryAt: null } }, 'Shop', {
      document: null,
      pay: null,
    });
    expect(last.intro).not.toContain('erneut');
  });

  it('says what a plan change charged now and credited, and when the next charge is', () => {
    const job: EmailJob = {
      ...JOB,
      kind: 'subscription_plan_changed',
      locale: 'en',
      facts: {
        ...JOB.facts,
        currencyCode: 'USD',
        amount: '0',
        credit: '1250',
        productNames: ['Starter'],
        billing: 'now',
        date: '2026-04-01T00:00:00.000Z',
      },
    };
    const content = composeEmail(job, 'Shop', { document: null, pay: null });
    expect(content.rows).toEqual([
      { label: 'Charged now', value: '$0.00' },
      { label: 'Credited to your balance', value: '$12.50' },
      { label: 'Invoice number', value: '2026-00001' },
      { label: 'Next charge on', value: 'April 1, 2026' },
      { label: 'New plan', value: 'Starter' },
    ]);
    expect(content.intro).toBe(
      'Your subscription has been changed. The change is charged now; your next regular charge is on April 1, 2026.',
    );
  });

  it('has every kind’s words in all five languages', () => {
    for (const language of EMAIL_LANGUAGES) {
      for (const kind of EMAIL_KINDS) {
        expect(EMAIL_WORDS[language].subjects[kind], `${language} ${kind}`).not.toBe('');
      }
    }
  });
});

describe('afterEmailAttempt', () => {
  it('retries a deferred attempt after the schedule’s delay, then fails after the last', () => {
    const first = afterEmailAttempt(JOB, { kind: 'deferred', error: '451 busy' }, 1_000, [500]);
    expect(first.dueAt).toBe(1_500);
    expect(first.job).toMatchObject({ status: 'pending', attempts: 1, lastError: '451 busy' });
    const second = afterEmailAttempt(first.job, { kind: 'deferred', error: '451 busy' }, 2_000, [500]);
    expect(second).toMatchObject({ dueAt: null, job: { status: 'failed', attempts: 2 } });
  });

  it('fails a refused attempt at once and keeps the server’s words', () => {
    const refused = afterEmailAttempt(JOB, { kind: 'refused', error: '550 no such user' }, 1_000, [500, 500]);
    expect(refused).toMatchObject({ dueAt: null, job: { status: 'failed', lastError: '550 no such user' } });
  });
});
