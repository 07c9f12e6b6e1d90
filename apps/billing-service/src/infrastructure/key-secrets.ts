import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeySecrets } from '@drawdown/billing-core';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_LENGTH = 40;

/**
 * Key secrets are 40 random base-62 characters (about 238 bits). A secret that strong needs no
 * slow password hash: SHA-256 cannot be brute-forced back to it (ADR 0005).
 */
export const keySecrets: KeySecrets = {
  generateSecret() {
    let secret = '';
    while (secret.length < SECRET_LENGTH) {
      for (const byte of randomBytes(SECRET_LENGTH)) {
        // Rejecting bytes past the last full multiple of 62 keeps every character equally likely.
        if (byte < 248 && secret.length < SECRET_LENGTH) secret += ALPHABET[byte % 62];
      }
    }
    return secret;
  },
  hash(secret) {
    // Every request hashes its token (the key cache's key, ADR 0710): the one-shot form is cheaper.
    return hash('sha256', secret, 'hex');
  },
  matches(hash, candidate) {
    const expected = Buffer.from(hash, 'hex');
    const actual = createHash('sha256').update(candidate, 'utf8').digest();
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
};
