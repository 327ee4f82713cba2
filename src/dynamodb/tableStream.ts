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
  const streamArn = await streamArnOf(options.client, options.table);
  let stopped = false;
  const shards = shardReader({ ...options, streamArn, stopped: () => stopped });
  await shards.list(true);
  const loop = readUntilStopped(shards, options, () => stopped);
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** The table's stream, or an error saying how to enable one. */
async function streamArnOf(client: DynamoDBClient, table: string): Promise<string> {
  const description = await client.send(new DescribeTableCommand({ TableName: table }));
  const streamArn = description.Table?.LatestStreamArn;
  if (!streamArn || description.Table?.StreamSpecification?.StreamEnabled === false) {
    throw new Error(
      `table ${table} has no stream: enable one (StreamViewType NEW_IMAGE, as schema/table.json does), ` +
        `e.g. aws dynamodb update-table --table-name ${table} ` +
        '--stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE',
    );
  }
  return streamArn;
}

/** The shards of a stream, each with its iterator. */
interface ShardReader {
  /** Takes an iterator for each shard not known yet (at the start: from the latest record, closed ones left out). */
  list(atStart: boolean): Promise<void>;
  /** One read of every shard; whether any had records. */
  read(): Promise<boolean>;
  /** Whether every shard known is read to its end. */
  allRead(): boolean;
}

interface ShardReaderOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  onRecords(records: TableStreamRecord[]): void;
  /** Whether the tail was stopped (the shards left are not read). */
  stopped(): boolean;
}

/** A reader of a stream's shards, which keeps their iterators. */
function shardReader(options: ShardReaderOptions): ShardReader {
  const { streams, streamArn } = options;
  /** Shard id -> its iterator (null once the shard is read to its end, or was closed at the start). */
  const iterators = new Map<string, string | null>();
  const iteratorOf = async (shard: Shard, atStart: boolean): Promise<string | null> => {
    if (atStart && shard.SequenceNumberRange?.EndingSequenceNumber !== undefined) return null;
    const type = atStart ? 'LATEST' : 'TRIM_HORIZON';
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: type }),
    );
    return ShardIterator ?? null;
  };
  return {
    async list(atStart) {
      for (const shard of await shardsOf(streams, streamArn)) {
        if (!iterators.has(shard.ShardId!)) iterators.set(shard.ShardId!, await iteratorOf(shard, atStart));
      }
    },
    async read() {
      let any = false;
      for (const [id, iterator] of iterators) {
        if (iterator === null || options.stopped()) continue;
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
    },
    allRead: () => [...iterators.values()].every((it) => it === null),
  };
}

/** Every shard of a stream, page after page. */
async function shardsOf(streams: DynamoDBStreamsClient, streamArn: string): Promise<Shard[]> {
  const shards: Shard[] = [];
  let after: string | undefined;
  do {
    const page = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: after }));
    shards.push(...(page.StreamDescription?.Shards ?? []));
    after = page.StreamDescription?.LastEvaluatedShardId;
  } while (after);
  return shards;
}

/**
 * Reads the shards until stopped: lists them again every SHARDS_EVERY_MS (or once all are read),
 * waits `idleMs` when none had anything new, and a pause of at least a second after a failure.
 */
async function readUntilStopped(
  shards: ShardReader,
  options: Pick<TailOptions, 'idleMs' | 'onError'>,
  stopped: () => boolean,
): Promise<void> {
  const { idleMs } = options;
  let listedAt = Date.now();
  while (!stopped()) {
    try {
      if (Date.now() - listedAt > SHARDS_EVERY_MS || shards.allRead()) {
        listedAt = Date.now();
        await shards.list(false);
      }
      if (!(await shards.read()) && !stopped()) await sleep(idleMs);
    } catch (error) {
      options.onError(error);
      await sleep(Math.max(idleMs, 1000));
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
