import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/server/logger.js';

/** A logger at `info` whose JSON lines land, parsed, in `lines` (for tests that read the logs). */
export function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}
