import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoLocal } from './dynamoLocal.js';

/** A port that already answers: refused before Java starts, with the line that uses what listens there. */
describe('startDynamoLocal on a port that answers', () => {
  let squatter: Server;
  let port: number;
  let dataDir: string;

  beforeAll(async () => {
    squatter = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    port = (squatter.address() as AddressInfo).port;
    dataDir = mkdtempSync(join(tmpdir(), 'canopy-port-'));
  });

  afterAll(() => {
    squatter.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says a DynamoDB Local or another program listens there, and gives the exact DYNAMODB_ENDPOINT line', async () => {
    await expect(startDynamoLocal({ port, dataDir })).rejects.toThrow(
      `port ${port} is already in use: a DynamoDB Local (a running server or tree command, perhaps) ` +
        `or another program listens there. To use that DynamoDB Local, set DYNAMODB_ENDPOINT=http://127.0.0.1:${port}; ` +
        'otherwise set DYNAMODB_LOCAL_PORT to a free port',
    );
  });

  it('names the live process whose lock in DATA_DIR says it runs DynamoDB Local on that port', async () => {
    // The process that runs the tests: alive, and not this one.
    writeFileSync(join(dataDir, 'canopy.lock'), JSON.stringify({ pid: process.ppid, port }));
    await expect(startDynamoLocal({ port, dataDir })).rejects.toThrow(
      `port ${port} is already in use by process ${process.ppid} (a running server or tree command), ` +
        `whose DynamoDB Local holds ${dataDir}: stop it, or set DYNAMODB_ENDPOINT=http://127.0.0.1:${port} ` +
        'to use its DynamoDB Local',
    );
    // A lock of another port says nothing about this one.
    writeFileSync(join(dataDir, 'canopy.lock'), JSON.stringify({ pid: process.ppid, port: port + 1 }));
    await expect(startDynamoLocal({ port, dataDir })).rejects.toThrow(/listens there\. To use that DynamoDB Local/);
  });
});
