/**
 * @module
 * Runs one connector call under a deadline. The call gets an AbortSignal; if it ignores the signal, the race
 * still settles at the deadline, so a stuck connector can never hold a query.
 */

/** Raised when a call did not finish within its deadline. */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
  constructor(readonly deadlineMs: number) {
    super(`no answer within ${deadlineMs} ms`);
  }
}

/** Calls `work` with a signal that aborts after `deadlineMs`; rejects with DeadlineExceededError at the deadline. */
export async function runWithDeadline<T>(work: (signal: AbortSignal) => Promise<T>, deadlineMs: number): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineExceededError(deadlineMs);
      controller.abort(error);
      reject(error);
    }, deadlineMs);
  });
  try {
    return await Promise.race([work(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
