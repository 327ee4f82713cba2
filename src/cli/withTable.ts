import type { Config } from '../config.js';
import { createDynamo, type Dynamo } from '../dynamodb/client.js';
import { startDynamoLocal, type DynamoLocal } from '../dynamodb/dynamoLocal.js';
import { USER_AGENT } from '../version.js';

/**
 * Runs `use` on the configuration's table: at DYNAMODB_ENDPOINT, in DynamoDB in AWS_REGION in
 * production, or else in the embedded DynamoDB Local's files in DATA_DIR, started for it and
 * stopped after it, as is the client. `endpoint`: the one used (undefined: the SDK's regional one).
 */
export async function withTable<T>(
  config: Config,
  use: (dynamo: Dynamo, endpoint: string | undefined) => Promise<T>,
): Promise<T> {
  let local: DynamoLocal | undefined;
  let endpoint = config.dynamodbEndpoint;
  if (config.embeddedDynamo) {
    local = await startDynamoLocal({ port: config.dynamodbLocalPort, host: config.host, dataDir: config.dataDir });
    if (local.warning) console.error(local.warning);
    endpoint = local.endpoint;
  }
  const dynamo = createDynamo({
    endpoint,
    region: config.region,
    timeouts: config.dynamodbTimeouts,
    userAgent: USER_AGENT,
  });
  try {
    return await use(dynamo, endpoint);
  } finally {
    dynamo.client.destroy();
    await local?.stop();
  }
}
