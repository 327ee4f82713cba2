import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import { createDynamo, type DynamoOptions } from '../dynamodb/client.js';
import { ensureTable } from '../dynamodb/table.js';
import { seedDemoTree } from '../seed/demoTree.js';
import { storeFor } from '../storeFor.js';
import { createApp } from './createApp.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Nodes of the demo tree this start seeded (0: not asked, or the table had a tree already). */
  seeded: number;
  /** Stops accepting requests, finishes the ones in flight, and releases the client. */
  close(): Promise<void>;
}

export interface StartOptions {
  middleware?: DynamoOptions['middleware'];
}

/** Table, store, demo seed, the job sweeper (never waited for), then the HTTP server. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const dynamo = createDynamo({
    endpoint: config.dynamodbEndpoint,
    region: config.region,
    middleware: options.middleware,
    timeouts: config.dynamodbTimeouts,
  });
  await ensureTable(dynamo.client, config.table);
  const store = storeFor(config, dynamo);
  const seeded = config.seedDemo ? await seedDemoTree(store) : 0;
  const jobs = store.startJobs();

  const httpServer = createServer();
  const { app, apollo } = await createApp(config, store, httpServer);
  httpServer.on('request', app);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, resolve);
  });
  const port = (httpServer.address() as AddressInfo).port;
  return {
    url: `http://${urlHost(config.host)}:${port}`,
    port,
    seeded,
    async close() {
      await apollo.stop();
      await jobs.stop();
      dynamo.client.destroy();
    },
  };
}

/** How a client on this machine reaches an address the server listens on. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
