import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { startDynamoLocal, type DynamoLocal } from '../../../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../../../src/dynamodb/table.js';
import { freePort } from '../../support/globalSetup.js';

/**
 * The embedded DynamoDB Local as `npm start` runs it (dynamoLocal.ts, quickStart): the first Java
 * records its class-data archive when it stops, the next ones map it, and the data in DATA_DIR is
 * the same; an archive Java crashes on (a partial file) is removed, and Java starts without it.
 */
describe('quickStart', () => {
  let cacheDir: string;
  let dataDir: string;

  beforeEach(() => {
    cacheDir = mkdtempSync(join(tmpdir(), 'canopy-quick-cache-'));
    dataDir = mkdtempSync(join(tmpdir(), 'canopy-quick-data-'));
  });
  afterEach(() => {
    rmSync(cacheDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => startDynamoLocal({ port: await freePort(), dataDir, quickStart: { cacheDir } });
  const cached = (suffix: string) => readdirSync(cacheDir).filter((name) => name.endsWith(suffix));
  /** The options of the java process that holds this test's DATA_DIR. */
  const javaArgs = () =>
    execFileSync('ps', ['-ww', '-eo', 'args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => /^(\S*\/)?java\s/.test(line) && line.includes(dataDir));
  const tables = async (local: DynamoLocal) => {
    const { client } = createDynamo({ endpoint: local.endpoint, region: 'us-east-1' });
    try {
      return (await client.send(new ListTablesCommand({}))).TableNames;
    } finally {
      client.destroy();
    }
  };

  it('records the archive at the first stop, maps it at the next start, and recovers from a damaged one', async () => {
    const first = await start();
    expect(javaArgs().join('\n')).toMatch(/-XX:ArchiveClassesAtExit=/);
    const { client } = createDynamo({ endpoint: first.endpoint, region: 'us-east-1' });
    await ensureTable(client, 'kept');
    client.destroy();
    await first.stop();
    expect(cached('.tmp')).toEqual([]);
    const [archive] = cached('.jsa');
    expect(archive).toBeDefined();

    const second = await start();
    expect(javaArgs().join('\n')).toContain(`-XX:SharedArchiveFile=${join(cacheDir, archive!)}`);
    expect(await tables(second)).toEqual(['kept']);
    await second.stop();

    // Java crashes on a partial archive (SIGBUS): the start removes it, and starts without it.
    const path = join(cacheDir, archive!);
    truncateSync(path, Math.floor(statSync(path).size / 2));
    const third = await start();
    expect(await tables(third)).toEqual(['kept']);
    await third.stop();
    expect(statSync(path).size).toBeGreaterThan(1_000_000);
    expect(cached('.tmp')).toEqual([]);
    expect(javaArgs()).toEqual([]);
  }, 120_000);
});
