import { StartRefused } from '../errors.js';
import type { Logger } from './logger.js';

/**
 * How a start that failed ends, as the process's exit code. A start refused for a reason its
 * person can fix (StartRefused: an invalid variable, a port that is taken, a TREE_STRATEGY the
 * table was not built for, no Java, no AWS credentials, a table Canopy cannot use) is printed
 * whole on stderr, no stack, with exit code 2; anything else is a fatal log line, and exit code 1.
 */
export function failedStart(error: unknown, logger: Logger, stderr: (text: string) => void = writeStderr): number {
  if (error instanceof StartRefused) {
    stderr(`${error.message}\n`);
    return 2;
  }
  logger.fatal({ error: error instanceof Error ? error.message : String(error) }, 'failed to start');
  return 1;
}

const writeStderr = (text: string): void => void process.stderr.write(text);
