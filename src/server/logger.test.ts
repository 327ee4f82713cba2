import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logFormatFor, prettyStream } from './logger.js';

describe('logFormatFor', () => {
  it.each([
    ['auto', true, false, 'pretty'],
    ['auto', false, false, 'json'],
    ['auto', true, true, 'json'],
    ['auto', false, true, 'json'],
    ['pretty', false, true, 'pretty'],
    ['json', true, false, 'json'],
  ] as const)('LOG_FORMAT=%s, stdout a TTY: %s, production: %s → %s', (format, isTTY, production, expected) => {
    expect(logFormatFor(format, { isTTY, production })).toBe(expected);
  });
});

describe('prettyStream', () => {
  it('writes one readable line per event: time, level, message, then the fields as JSON', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const logger = createLogger('info', prettyStream(sink));
    logger.info({ strategy: 'closure', seeded: 28 }, 'Canopy ready');
    logger.debug('below the level');
    logger.warn('unknown variable TREE_STRATEGI: did you mean TREE_STRATEGY?');
    await new Promise((resolve) => setImmediate(resolve));
    expect(text.split('\n')).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Canopy ready \{"strategy":"closure","seeded":28\}$/),
      expect.stringMatching(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: unknown variable TREE_STRATEGI: did you mean TREE_STRATEGY\?$/,
      ),
      '',
    ]);
  });
});
