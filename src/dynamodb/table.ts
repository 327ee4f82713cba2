import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
  type TimeToLiveSpecification,
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
  const { StreamSpecification, TimeToLiveSpecification: _ttl, ...base } = tableDefinition as TableDefinition;
  return { ...base, TableName: table, ...(stream ? { StreamSpecification } : {}) };
}

type TableDefinition = CreateTableCommandInput & { TimeToLiveSpecification: TimeToLiveSpecification };

/**
 * The table's time to live (schema/table.json's TimeToLiveSpecification): DynamoDB removes the
 * items whose `expiresAt` (epoch seconds) passed, the changes past CHANGE_RETENTION_HOURS.
 * Enabled when it is not.
 */
async function ensureTimeToLive(client: DynamoDBClient, table: string): Promise<void> {
  const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: table }));
  if (TimeToLiveDescription?.TimeToLiveStatus === 'ENABLED' || TimeToLiveDescription?.TimeToLiveStatus === 'ENABLING')
    return;
  const { TimeToLiveSpecification } = tableDefinition as TableDefinition;
  await client.send(new UpdateTimeToLiveCommand({ TableName: table, TimeToLiveSpecification }));
}

/**
 * Creates the table when it is missing and waits until it is active, with its time to live.
 * With `stream`, the table has its stream (schema/table.json's StreamSpecification), enabled on
 * an existing table that has none.
 */
export async function ensureTable(client: DynamoDBClient, table: string, { stream = false } = {}): Promise<void> {
  const wanted = tableInput(table, { stream });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
    if (stream && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: table, StreamSpecification: wanted.StreamSpecification }));
      await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: table });
    }
    await ensureTimeToLive(client, table);
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
  await ensureTimeToLive(client, table);
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
