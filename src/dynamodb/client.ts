import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addCostMiddleware } from './costMeter.js';

type MiddlewareStack = DynamoDBClient['middlewareStack'];

export interface DynamoOptions {
  endpoint: string | undefined;
  region: string;
  /** Extra middleware (tests inject faults here, inside the SDK retry loop). */
  middleware?: (stack: MiddlewareStack) => void;
}

export interface Dynamo {
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
}

/**
 * The SDK retry policy is pinned (standard mode, 3 attempts) so that the request counts in the
 * cost report and in tests do not move with SDK defaults.
 */
export function createDynamo(options: DynamoOptions): Dynamo {
  const local = options.endpoint !== undefined && /localhost|127\.0\.0\.1|\[::1\]/.test(options.endpoint);
  const client = new DynamoDBClient({
    region: options.region,
    endpoint: options.endpoint,
    maxAttempts: 3,
    retryMode: 'standard',
    // DynamoDB Local accepts any credentials; real endpoints use the default provider chain.
    ...(local ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  addCostMiddleware(client.middlewareStack);
  options.middleware?.(client.middlewareStack);
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { client, doc };
}
