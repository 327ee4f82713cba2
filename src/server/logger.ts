import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config, LogFormat, LogLevel } from '../config.js';

export type { Logger };

/** Bytes of log lines held before a write, and how long a line waits at most. */
const LOG_BUFFER_BYTES = 4096;
const LOG_FLUSH_MS = 250;

/**
 * The process's logger: JSON lines on stdout (pino), one object per event, for a log pipeline to
 * parse. `destination` is for tests.
 *
 * Lines are buffered (pino's asynchronous destination): one write per 4 KiB of lines, or every
 * 250 ms, instead of a blocking write per request (3% of a lookup's CPU). pino writes what is
 * left when the process exits; a process killed with SIGKILL loses at most the last 250 ms.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'canopy' }, timestamp: pino.stdTimeFunctions.isoTime };
  if (destination) return pino(options, destination);
  const stdout = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => stdout.flush(), LOG_FLUSH_MS).unref();
  return pino(options, stdout);
}

/**
 * LOG_FORMAT resolved for where the lines go: `auto` is pretty for a person at a terminal
 * (stdout a TTY, NODE_ENV not production), JSON for a log pipeline otherwise.
 */
export function logFormatFor(format: LogFormat, where: { isTTY: boolean; production: boolean }): 'pretty' | 'json' {
  if (format !== 'auto') return format;
  return where.isTTY && !where.production ? 'pretty' : 'json';
}

/**
 * One readable line per event (pino-pretty): the time, the level, the message, then the event's
 * fields as JSON. Written synchronously, in this thread (no worker transport): a process that
 * exits right after a line (a refused start, a fatal error) has written it.
 */
export function prettyStream(destination: number | NodeJS.WritableStream = 1, colorize = false): DestinationStream {
  return pretty({
    sync: true,
    destination,
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
}

/** The logger of a process on its stdout (the server, the worker): LOG_LEVEL, in the format LOG_FORMAT resolves to. */
export function processLogger(config: Pick<Config, 'logLevel' | 'logFormat' | 'production'>): Logger {
  const isTTY = process.stdout.isTTY === true;
  const format = logFormatFor(config.logFormat, { isTTY, production: config.production });
  return createLogger(config.logLevel, format === 'pretty' ? prettyStream(1, isTTY) : undefined);
}
