import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../src/dynamodb/dynamoLocal.js';
import { chromiumBinary } from './chromium.js';
import { transpileSources } from './transpiledSources.js';

/**
 * One in-memory DynamoDB Local for the whole run; each test file uses tables of its own. The
 * browser tests' Chromium is unpacked here, once, before any test file runs, and the sources
 * the `tree` processes run are transpiled (transpiledSources.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await chromiumBinary();
  const sources = transpileSources();
  project.provide('treeScript', join(sources, 'src/cli/tree.js'));
  const local = await startDynamoLocal({ port: await freePort(), javaOptions: TEST_JAVA_OPTIONS });
  project.provide('dynamoEndpoint', local.endpoint);
  return async () => {
    await local.stop();
    rmSync(sources, { recursive: true, force: true });
  };
}

/**
 * The suite keeps two cores busy, and DynamoDB Local takes more than half of their time. Java's
 * throughput collector (ParallelGC) costs it about a tenth less CPU than G1, Java's choice on two
 * cores, and the suite runs a tenth faster.
 */
const TEST_JAVA_OPTIONS = ['-XX:+UseParallelGC'];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    /** The `tree` command's entry point, transpiled: `node <treeScript> args...` runs it. */
    treeScript: string;
  }
}
