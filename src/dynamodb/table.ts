import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type AttributeDefinition,
  type CreateTableCommandInput,
  type KeySchemaElement,
  type TimeToLiveSpecification,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import tableDefinition from '../../schema/table.json' with { type: 'json' };
import { callDynamo } from './serviceErrors.js';
import { StartRefused } from '../errors.js';

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
 * an existing table that has none. What stops it for a reason the person starting Canopy can fix
 * (no credentials, a role that may not, a table with other keys) is a StartRefused saying so.
 */
export async function ensureTable(client: DynamoDBClient, table: string, { stream = false } = {}): Promise<void> {
  try {
    await ensureTableAs(client, table, stream);
  } catch (error) {
    throw (await refusalOf(client, table, error)) ?? error;
  }
}

async function ensureTableAs(client: DynamoDBClient, table: string, stream: boolean): Promise<void> {
  const wanted = tableInput(table, { stream });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: table }));
    checkKeys(table, Table?.KeySchema ?? [], Table?.AttributeDefinitions ?? []);
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

/** Refuses a table whose keys are not Canopy's (schema/table.json): its items could not be told apart. */
function checkKeys(table: string, keys: KeySchemaElement[], attributes: AttributeDefinition[]): void {
  const describe = (schema: KeySchemaElement[], types: AttributeDefinition[]) =>
    schema
      .map(
        (k) =>
          `${k.AttributeName} (${types.find((a) => a.AttributeName === k.AttributeName)?.AttributeType}, ${k.KeyType})`,
      )
      .join(', ');
  const def = tableDefinition as TableDefinition;
  const want = describe(def.KeySchema ?? [], def.AttributeDefinitions ?? []);
  const have = describe(keys, attributes);
  if (have !== want) {
    throw new StartRefused(
      `table ${table} has the keys ${have || '(none)'}, but Canopy's table has ${want} (schema/table.json): ` +
        'set DYNAMODB_TABLE to a table of its own',
    );
  }
}

/**
 * What a failure while making sure of the table means to the person starting Canopy: no
 * credentials, or a role that may not describe, create or update the table. Undefined: none of these.
 */
async function refusalOf(client: DynamoDBClient, table: string, error: unknown): Promise<StartRefused | undefined> {
  if (error instanceof StartRefused) return error;
  const name = error instanceof Error ? error.name : '';
  const region = await client.config.region();
  if (name === 'CredentialsProviderError') {
    return new StartRefused(
      `no AWS credentials to reach DynamoDB in ${region}: give the AWS SDK a profile (AWS_PROFILE), a role ` +
        '(on ECS, Lambda or EC2), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; or set DYNAMODB_ENDPOINT ' +
        'to use a DynamoDB Local',
    );
  }
  if (name === 'AccessDeniedException' || name === 'UnrecognizedClientException') {
    const message = error instanceof Error ? error.message : String(error);
    return new StartRefused(
      `DynamoDB in ${region} refused to let this process use table ${table}: ${message}. ` +
        'Give its role the DynamoDB actions of the stack (docs/deploy.md) on the table; a table that does not ' +
        'exist yet needs dynamodb:CreateTable too, or create it from schema/table.json',
    );
  }
  return undefined;
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
