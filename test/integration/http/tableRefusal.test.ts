import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { StartRefused } from '../../../src/errors.js';
import { startTestServer, uniqueTable } from '../../support/server.js';

/**
 * A table Canopy cannot use stops the start with a message that says why (StartRefused: exit
 * code 2 under `npm start`), not with an SDK error on every request.
 */
describe('a table with other keys', () => {
  it('is refused at start, naming its keys and the ones Canopy needs', async () => {
    const table = uniqueTable();
    const { client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
    try {
      await client.send(
        new CreateTableCommand({
          TableName: table,
          AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
          KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
          BillingMode: 'PAY_PER_REQUEST',
        }),
      );
    } finally {
      client.destroy();
    }
    const start = startTestServer({ table });
    await expect(start).rejects.toBeInstanceOf(StartRefused);
    await expect(start).rejects.toThrow(
      `table ${table} has the keys id (S, HASH), but Canopy's table has pk (S, HASH), sk (S, RANGE) ` +
        '(schema/table.json): set DYNAMODB_TABLE to a table of its own',
    );
  });
});
