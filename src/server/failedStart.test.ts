import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.js';
import { failedStart } from './failedStart.js';
import { createLogger } from './logger.js';

function logged(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

describe('failedStart', () => {
  it('prints a refused configuration whole on stderr, and answers exit code 2', () => {
    const { logger, lines } = logged();
    let stderr = '';
    const refusal = new ConfigError(['TREE_STRATEGY is closure, but ...']);
    expect(failedStart(refusal, logger, (text) => (stderr += text))).toBe(2);
    expect(stderr).toBe('invalid configuration:\n  - TREE_STRATEGY is closure, but ...\n');
    expect(lines).toEqual([]);
  });

  it('logs anything else as fatal, and answers exit code 1', () => {
    const { logger, lines } = logged();
    let stderr = '';
    expect(failedStart(new Error('listen EADDRINUSE'), logger, (text) => (stderr += text))).toBe(1);
    expect(stderr).toBe('');
    expect(lines).toEqual([expect.objectContaining({ level: 60, msg: 'failed to start', error: 'listen EADDRINUSE' })]);
  });
});
