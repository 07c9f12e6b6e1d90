/**
 * @module
 * A failed call to eBay, carrying the HTTP status and eBay's own message so /health can show what went wrong.
 */

/** An eBay API call that did not succeed. */
export class EbayApiError extends Error {
  override readonly name = 'EbayApiError';
  constructor(
    readonly operation: 'token' | 'search',
    readonly status: number,
    detail: string,
  ) {
    super(`eBay ${operation} failed with HTTP ${status}${detail === '' ? '' : `: ${detail}`}`);
  }
}

/** Extracts eBay's first error message (`errors[0].message` or `error_description`) from a response body. */
export async function ebayErrorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null) {
      if ('errors' in body && Array.isArray(body.errors)) {
        const first: unknown = body.errors[0];
        if (typeof first === 'object' && first !== null && 'message' in first && typeof first.message === 'string') {
          return first.message;
        }
      }
      if ('error_description' in body && typeof body.error_description === 'string') return body.error_description;
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.slice(0, 200);
}
