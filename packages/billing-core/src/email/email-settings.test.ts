/**
 * Which kinds are sent (ADR 1504): settings store the kinds turned off, so every kind not turned
 * off is sent, a kind added later included; a list of kinds sent saved by the version before
 * (a process still running it during an upgrade) reads as the kinds it left out.
 */
import { describe, expect, it } from 'vitest';
import { emailKindsOn, withEmailDefaults } from './email-settings.js';
import { EMAIL_KINDS, type EmailSettings } from './entities.js';

describe('email kinds sent', () => {
  it('sends every kind until one is turned off', () => {
    expect(emailKindsOn(withEmailDefaults(undefined))).toEqual([...EMAIL_KINDS]);
    const saved = { disabledEmails: ['receipt', 'trial_ending'], updatedAt: '2026-01-01T00:00:00.000Z' };
    expect(emailKindsOn(withEmailDefaults(saved as unknown as EmailSettings))).toEqual(
      EMAIL_KINDS.filter((kind) => kind !== 'receipt' && kind !== 'trial_ending'),
    );
  });

  it('reads a list of kinds sent, saved by the version before, as the kinds it left out', () => {
    const legacy = { enabledEmails: ['receipt', 'invoice_issued'], updatedAt: '2026-01-01T00:00:00.000Z' };
    const settings = withEmailDefaults(legacy as unknown as EmailSettings);
    expect(settings.disabledEmails).toEqual(
      EMAIL_KINDS.filter((kind) => kind !== 'receipt' && kind !== 'invoice_issued'),
    );
    expect(emailKindsOn(settings)).toEqual(['receipt', 'invoice_issued']);
    expect(settings).not.toHaveProperty('enabledEmails');
  });
});
