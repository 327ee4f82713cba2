import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type DynamoDBStreamsClient,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';

/** One record of the stream, in the Streams API's shape (the same as a Lambda event's records). */
export interface TableStreamRecord {
  eventName?: string;
  dynamodb?: {
    Keys?: Record<string, { S?: string } | undefined>;
    NewImage?: Record<string, { S?: string } | undefined>;
  };
}

export interface TailOptions {
  client: DynamoDBClient;
  streams: DynamoDBStreamsClient;
  table: string;
  /** Given each page of records, in stream order per shard. */
  onRecords(records: TableStreamRecord[]): void;
  /** How long to wait before reading the shards again once they had nothing new (ms). */
  idleMs: number;
  /** Told of a failed read (the tail goes on after a pause). */
  onError(error: unknown): void;
}

export interface TableTail {
  /** Stops reading (after the read in progress). */
  stop(): Promise<void>;
}

/** How often the stream's shards are listed again (new shards open as the table splits, and every few hours). */
const SHARDS_EVERY_MS = 10_000;

/**
 * Reads the table's stream from now on, every shard, until stopped: the shards open when it
 * starts from their latest record, the shards that open later from their first. A shard read to
 * its end (closed) is dropped; an iterator that expired (15 minutes unused) is taken again from
 * the shard's first record still kept. Fails at once, saying how to enable it, when the table
 * has no stream.
 */
export async function tailTableStream(options: TailOptions): Promise<TableTail> {
  const { client, streams, table, idleMs } = options;
  const description = await client.send(new DescribeTableCommand({ TableName: table }));
  const streamArn = description.Table?.LatestStreamArn;
  if (!streamArn || description.Table?.StreamSpecification?.StreamEnabled === false) {
    throw new Error(
      `table ${table} has no stream: enable one (StreamViewType NEW_IMAGE, as schema/table.json does), ` +
        `e.g. aws dynamodb update-table --table-name ${table} ` +
        '--stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE',
    );
  }

  /** Shard id -> its iterator (null once the shard is read to its end, or was closed at the start). */
  const iterators = new Map<string, string | null>();
  const listShards = async (atStart: boolean) => {
    const shards: Shard[] = [];
    let after: string | undefined;
    do {
      const page = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: after }),
      );
      shards.push(...(page.StreamDescription?.Shards ?? []));
      after = page.StreamDescription?.LastEvaluatedShardId;
    } while (after);
    for (const shard of shards) {
      const id = shard.ShardId!;
      if (iterators.has(id)) continue;
      if (atStart && shard.SequenceNumberRange?.EndingSequenceNumber !== undefined) {
        iterators.set(id, null);
        continue;
      }
      const type = atStart ? 'LATEST' : 'TRIM_HORIZON';
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: id, ShardIteratorType: type }),
      );
      iterators.set(id, ShardIterator ?? null);
    }
  };

  let stopped = false;
  /** One read of every shard; whether any had records. */
  const readShards = async (): Promise<boolean> => {
    let any = false;
    for (const [id, iterator] of iterators) {
      if (iterator === null || stopped) continue;
      try {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        const records = (page.Records ?? []) as TableStreamRecord[];
        if (records.length > 0) options.onRecords(records);
        any ||= records.length > 0;
        iterators.set(id, page.NextShardIterator ?? null);
      } catch (error) {
        if (error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException)
          iterators.delete(id);
        else throw error;
      }
    }
    return any;
  };

  await listShards(true);
  const loop = (async () => {
    let listedAt = Date.now();
    while (!stopped) {
      try {
        if (Date.now() - listedAt > SHARDS_EVERY_MS || [...iterators.values()].every((it) => it === null)) {
          listedAt = Date.now();
          await listShards(false);
        }
        if (!(await readShards()) && !stopped) await sleep(idleMs);
      } catch (error) {
        options.onError(error);
        await sleep(Math.max(idleMs, 1000));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
