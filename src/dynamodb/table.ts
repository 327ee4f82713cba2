import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import tableDefinition from '../../schema/table.json' with { type: 'json' };
import { callDynamo } from './serviceErrors.js';

/**
 * The table definition kept as data in schema/table.json, under the configured name; its stream
 * (StreamSpecification) only when asked: the job worker of JOB_RUNNER=worker reads it.
 */
export function tableInput(table: string, { stream = false } = {}): CreateTableCommandInput {
  const { StreamSpecification, ...base } = tableDefinition as CreateTableCommandInput;
  return { ...base, TableName: table, ...(stream ? { StreamSpecification } : {}) };
}

/**
 * Creates the table when it is missing and waits until it is active. With `stream`, the table
 * has its stream (schema/table.json's StreamSpecification), enabled on an existing table that
 * has none.
 */
export async function ensureTable(client: DynamoDBClient, table: string, { stream = false } = {}): Promise<void> {
  const wanted = tableInput(table, { stream });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
    if (stream && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: table, StreamSpecification: wanted.StreamSpecification }));
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: table });
    }
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  try {
    await client.send(new CreateTableCommand(wanted));
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
    await callDynamo(() =>
      (client as DynamoDBClient).send(new DescribeTableCommand({ TableName: table }), { abortSignal }),
    );
    return true;
  } catch {
    return false;
  }
}
