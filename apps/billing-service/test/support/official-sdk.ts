/**
 * @module
 * The official Paddle Node SDK as the tests use it: a real client pointed at a harness
 * environment's address, and the code of the error an SDK call was refused with.
 */
import { ApiError, type Environment, Paddle } from '@paddle/paddle-node-sdk';

/** The official SDK pointed at `baseUrl` (a harness's live or sandbox address), its own logging off. */
export function officialSdk(key: string, baseUrl: string): Paddle {
  return new Paddle(key, { environment: baseUrl as Environment, logLevel: 'none' as never });
}

/** The error code an SDK call was refused with; throws when the call succeeds or fails otherwise. */
export async function sdkRefusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return String(error.code);
    throw error;
  }
  throw new Error('expected the call to be refused');
}
