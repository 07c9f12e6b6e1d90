/** A service logger whose JSON lines are kept in memory, for tests that read what was logged. */
import { Writable } from 'node:stream';
import { createLogger } from '../../src/operations/logger.js';

export function memoryLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination: stream }) };
}
