import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import tableDefinition from '../../schema/table.json' with { type: 'json' };
import { callDynamo } from './serviceErrors.js';

/** The table definition kept as data in schema/table.json, under the configured name. */
export function tableInput(table: string): CreateTableCommandInput {
  return { ...(tableDefinition as CreateTableCommandInput), TableName: table };
}

/** Creates the table when it is missing and waits until it is active. */
export async function ensureTable(client: DynamoDBClient, table: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  try {
    await client.send(new CreateTableCommand(tableInput(table)));
  } catch (error) {
    // Another process created it first.
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: table });
}

/** How long the readiness probe waits for DynamoDB, retries included, before it says "not ready". */
const READINESS_DEADLINE_MS = 2000;

/** True when the table answers a DescribeTable within READINESS_DEADLINE_MS (the readiness probe). */
export async function tableAnswers(client: DynamoDBClient | DynamoDBDocumentClient, table: string): Promise<boolean> {
  try {
    const abortSignal = AbortSignal.timeout(READINESS_DEADLINE_MS);
    await callDynamo(() => (client as DynamoDBClient).send(new DescribeTableCommand({ TableName: table }), { abortSignal }));
    return true;
  } catch {
    return false;
  }
}
