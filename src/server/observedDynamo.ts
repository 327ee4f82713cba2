import type { Config } from '../config.js';
import { createDynamo, type Dynamo, type DynamoOptions } from '../dynamodb/client.js';
import { accessProblem, toServiceError } from '../dynamodb/serviceErrors.js';
import { isTreeError } from '../errors.js';
import { USER_AGENT } from '../version.js';
import type { Logger } from './logger.js';
import { childCache, type Metrics } from './metrics.js';
import { traceDynamoCall } from './tracing.js';

export interface ObservedDynamoOptions {
  config: Pick<Config, 'dynamodbEndpoint' | 'region' | 'dynamodbTimeouts' | 'table'>;
  /** Extra middleware (tests inject faults here). */
  middleware?: DynamoOptions['middleware'];
  logger: Logger;
  metrics: Pick<Metrics, 'dynamodbCalls'>;
}

/**
 * The server's DynamoDB client: every call counted by command and outcome, traced, and logged
 * when DynamoDB is unavailable, with what to fix when it refuses the process's access (refusals of
 * conditions are how writes work, and are not news).
 */
export function observedDynamo(options: ObservedDynamoOptions): Dynamo {
  const { config, logger, metrics } = options;
  const dynamodbCalls = childCache((command: string, outcome: string) =>
    metrics.dynamodbCalls.labels(command, outcome),
  );
  return createDynamo({
    endpoint: config.dynamodbEndpoint,
    region: config.region,
    middleware: options.middleware,
    userAgent: USER_AGENT,
    timeouts: config.dynamodbTimeouts,
    onCall: (call) => {
      const { command, outcome, ms, error } = call;
      dynamodbCalls(command, outcome).inc();
      traceDynamoCall(config.table, call);
      // A start's look for its table, which it creates when missing, is no failure.
      if (error === undefined || (command === 'DescribeTable' && outcome === 'ResourceNotFoundException')) return;
      const problem = accessProblem(error);
      if (problem) {
        const detail = error instanceof Error ? error.message : undefined;
        logger.error({ command, error: outcome, detail }, `DynamoDB call refused: ${problem}`);
      } else if (isTreeError(toServiceError(error), 'SERVICE_UNAVAILABLE')) {
        logger.warn({ command, error: outcome, ms: Math.round(ms) }, 'DynamoDB call failed');
      }
    },
  });
}
