/**
 * The IAM actions of every DynamoDB call Canopy makes, by the SDK command that makes it: the one
 * source of the policies the deployable stack grants (infra/canopyStack.ts). A test reads every
 * command the code sends and fails when one is missing here, so a new call cannot reach
 * production without its permission. TransactWriteItems has no action of its own: IAM checks
 * each of its actions as PutItem, UpdateItem, DeleteItem or ConditionCheckItem.
 */
export const ACTIONS_OF_COMMAND = {
  BatchGetCommand: ['dynamodb:BatchGetItem'],
  BatchWriteCommand: ['dynamodb:BatchWriteItem'],
  DeleteCommand: ['dynamodb:DeleteItem'],
  PutCommand: ['dynamodb:PutItem'],
  QueryCommand: ['dynamodb:Query'],
  ScanCommand: ['dynamodb:Scan'],
  UpdateCommand: ['dynamodb:UpdateItem'],
  TransactWriteCommand: [
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
  DescribeTableCommand: ['dynamodb:DescribeTable'],
  DescribeTimeToLiveCommand: ['dynamodb:DescribeTimeToLive'],
  CreateTableCommand: ['dynamodb:CreateTable'],
  UpdateTableCommand: ['dynamodb:UpdateTable'],
  UpdateTimeToLiveCommand: ['dynamodb:UpdateTimeToLive'],
  DescribeStreamCommand: ['dynamodb:DescribeStream'],
  GetShardIteratorCommand: ['dynamodb:GetShardIterator'],
  GetRecordsCommand: ['dynamodb:GetRecords'],
} as const satisfies Record<string, readonly string[]>;

export type DynamoCommand = keyof typeof ACTIONS_OF_COMMAND;

/**
 * The commands that make the table (ensureTable, on a table that is missing, without its stream
 * or its time to live): a stack that makes the table itself grants none of them.
 */
export const TABLE_SETUP_COMMANDS: readonly DynamoCommand[] = [
  'CreateTableCommand',
  'UpdateTableCommand',
  'UpdateTimeToLiveCommand',
];

/** The commands of `tree worker`, which tails the table's stream (a Lambda's event source reads it for it). */
export const STREAM_COMMANDS: readonly DynamoCommand[] = [
  'DescribeStreamCommand',
  'GetShardIteratorCommand',
  'GetRecordsCommand',
];

/** The actions a server or a worker needs on its table: every call but the table's setup and the stream's tailing. */
export const TABLE_ACTIONS: readonly string[] = [
  ...new Set(
    (Object.keys(ACTIONS_OF_COMMAND) as DynamoCommand[])
      .filter((command) => !TABLE_SETUP_COMMANDS.includes(command) && !STREAM_COMMANDS.includes(command))
      .flatMap((command) => ACTIONS_OF_COMMAND[command]),
  ),
].sort();
