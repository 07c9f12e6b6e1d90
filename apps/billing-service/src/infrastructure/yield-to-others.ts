/**
 * @module
 * The service's `yieldToOthers` port: resolves on the next turn of the event loop, after the
 * I/O already waiting (other requests), so long work in slices never holds the process (ADR 0900).
 */
import { setImmediate } from 'node:timers/promises';

export function yieldToOthers(): Promise<void> {
  return setImmediate();
}
