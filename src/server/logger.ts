import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config.js';

export type { Logger };

/**
 * The process's logger: JSON lines on stdout (pino), one object per event, for a log pipeline to
 * parse. `destination` is for tests.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'canopy' }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
