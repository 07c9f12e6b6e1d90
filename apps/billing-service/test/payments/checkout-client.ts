/**
 * @module
 * Drives the hosted checkout as a browser's plain form posts would: read the page, post the
 * details form, post the payment form with the page's one-time key, follow 303s by hand.
 */
import { expect } from 'vitest';

export const CARDS = {
  success: '4242 4242 4242 4242',
  challenge: '4000 0038 0000 0446',
  decline: '4000 0000 0000 0002',
  laterDecline: '4000 0027 6000 3184',
} as const;

export interface PageResponse {
  readonly status: number;
  readonly location: string | null;
  readonly text: string;
  readonly headers: Headers;
}

async function send(
  url: string,
  form?: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<PageResponse> {
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: form ? { 'Content-Type': 'application/x-www-form-urlencoded', ...headers } : headers,
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    text: await response.text(),
    headers: response.headers,
  };
}

function hidden(page: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  if (!match) throw new Error(`the page has no ${name} field`);
  return match[1] ?? '';
}

export interface CheckoutClient {
  open(transactionId: string): Promise<PageResponse>;
  details(transactionId: string, details: Record<string, string>): Promise<PageResponse>;
  /** Reads the page, then posts the payment form (with `overrides` for the hidden fields). */
  pay(transactionId: string, card: string, overrides?: Record<string, string>): Promise<PageResponse>;
  /** The payment form's fields as the page issued them. */
  form(transactionId: string, card: string): Promise<Record<string, string>>;
  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<PageResponse>;
  get(path: string): Promise<PageResponse>;
}

export function checkoutClient(baseUrl: string): CheckoutClient {
  const form = async (transactionId: string, card: string) => {
    const page = await send(`${baseUrl}/checkout?_ptxn=${transactionId}`);
    expect(page.status, page.text).toBe(200);
    return {
      submission_key: hidden(page.text, 'submission_key'),
      expected_amount: hidden(page.text, 'expected_amount'),
      cardholder_name: 'Ada Lovelace',
      card_number: card,
      card_expiry: '12/39',
      card_cvc: '123',
    };
  };
  return {
    open: (transactionId) => send(`${baseUrl}/checkout?_ptxn=${transactionId}`),
    details: (transactionId, details) => send(`${baseUrl}/checkout/details?_ptxn=${transactionId}`, details),
    form,
    pay: async (transactionId, card, overrides = {}) =>
      send(`${baseUrl}/checkout/pay?_ptxn=${transactionId}`, { ...(await form(transactionId, card)), ...overrides }),
    post: (path, fields, headers) => send(`${baseUrl}${path}`, fields, headers),
    get: (path) => send(`${baseUrl}${path}`),
  };
}
