import { ConfigError } from '../config.js';
import { JavaMissing } from '../dynamodb/dynamoLocal.js';
import type { Logger } from './logger.js';

/**
 * How a start that failed ends, as the process's exit code. A refusal of the configuration
 * (ConfigError: an invalid variable, a port that is taken, a TREE_STRATEGY the table was not built
 * for) is printed whole on stderr, one line per problem and no stack, with exit code 2, as the
 * first check of the configuration does; so is a machine without Java for the embedded DynamoDB
 * Local (JavaMissing, saying how to install it or do without). Anything else is a fatal log
 * line, and exit code 1.
 */
export function failedStart(error: unknown, logger: Logger, stderr: (text: string) => void = writeStderr): number {
  if (error instanceof ConfigError || error instanceof JavaMissing) {
    stderr(`${error.message}\n`);
    return 2;
  }
  logger.fatal({ error: error instanceof Error ? error.message : String(error) }, 'failed to start');
  return 1;
}

const writeStderr = (text: string): void => void process.stderr.write(text);
