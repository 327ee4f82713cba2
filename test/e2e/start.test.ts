import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/globalSetup.js';
import { outsideAddress, reaches } from '../support/network.js';
import {
  REPO_ROOT,
  START_TIMEOUT_MS,
  STOP_TIMEOUT_MS,
  shared,
  freshDataDir,
  spawnStart,
  status,
  startReady,
  gql,
  stop,
  javaFor,
  expectNoJavaWithin,
  expectGroupGoneWithin,
  killLeftovers,
  killAllLeftovers,
  killTestLeftovers,
  type Started,
} from '../support/npmStart.js';

/**
 * The real `npm start`, as a user runs it: the server on the embedded DynamoDB Local, with its
 * files in DATA_DIR. Every test checks that no Java process outlives the server, however it ends.
 * The production build, a DynamoDB Local that dies and stops before the server is ready:
 * startEdges.test.ts, in the long suite.
 */

afterEach(killTestLeftovers);
afterAll(killAllLeftovers);
const ROOTS = /* GraphQL */ `
  query {
    roots(first: 100) {
      nodes { id name childCount }
      pageInfo { hasNextPage }
    }
  }
`;

const SUBTREE = /* GraphQL */ `
  query ($id: ID!) {
    node(id: $id) {
      descendants(minDepth: 0, first: 1000) {
        nodes { id depth }
        pageInfo { hasNextPage }
      }
    }
  }
`;

interface TreeCensus {
  roots: string[];
  nodes: number;
  maxDepth: number;
}

async function census(started: Started): Promise<TreeCensus> {
  const roots = await gql(started, ROOTS);
  expect(roots.errors).toBeUndefined();
  expect(roots.data.roots.pageInfo.hasNextPage).toBe(false);
  const rootIds: string[] = roots.data.roots.nodes.map((node: { id: string }) => node.id);
  let nodes = 0;
  let maxDepth = 0;
  for (const id of rootIds) {
    const subtree = await gql(started, SUBTREE, { id });
    expect(subtree.errors).toBeUndefined();
    expect(subtree.data.node.descendants.pageInfo.hasNextPage).toBe(false);
    for (const node of subtree.data.node.descendants.nodes as Array<{ depth: number }>) {
      nodes += 1;
      maxDepth = Math.max(maxDepth, node.depth);
    }
  }
  return { roots: rootIds, nodes, maxDepth };
}

/**
 * Runs the server (`main`) or a `tree` command with `env` to its end, from the sources the suite
 * transpiled (test/support/transpiledSources.ts): exit code, stderr.
 */
async function runToExit(env: NodeJS.ProcessEnv, script: 'main' | 'tree', ...args: string[]) {
  const tree = inject('treeScript');
  const path = script === 'tree' ? tree : join(dirname(tree), '..', 'main.js');
  const child = spawn(process.execPath, [path, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stderr };
}

// One server's life, in order: first start on an empty DATA_DIR, a write, SIGTERM, a restart.
describe('npm start, then a restart on the same DATA_DIR', () => {
  let server: Started;
  let seeded: TreeCensus;

  beforeAll(async () => {
    server = await startReady(freshDataDir());
    shared.add(server);
  }, START_TIMEOUT_MS);

  afterAll(() => killLeftovers((started) => started === server));

  it('refuses an invalid configuration with every problem, no stack, and exit code 2; warns of typos', async () => {
    const env = {
      ...process.env,
      // A typo: read by no one, named after the problems.
      AUHT: 'jwt',
      TREE_STRATEGY: 'foo',
      PORT: 'abc',
      MAX_TREE_DEPTH: '200',
      SEED_DEMO: 'nope',
      DYNAMODB_ENDPOINT: 'not-a-url',
    };
    const { code, stderr } = await runToExit(env, 'main');
    expect(code).toBe(2);
    for (const name of ['PORT', 'DYNAMODB_ENDPOINT', 'TREE_STRATEGY', 'MAX_TREE_DEPTH', 'SEED_DEMO']) {
      expect(stderr).toMatch(new RegExp(`^  - ${name} must be `, 'm'));
    }
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).toMatch(/^warning: unknown variable AUHT: did you mean AUTH\?$/m);
  });

  it('refuses to start in production without AUTH, or with the built-in cursor secret', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(await freePort()),
      DATA_DIR: freshDataDir(),
    };
    delete env.AUTH;
    delete env.CURSOR_SECRET;
    const { code, stderr } = await runToExit(env, 'main');
    expect(code).toBe(2);
    expect(stderr).toMatch(/^ {2}- AUTH must be set with NODE_ENV=production: jwt, apikey, or none/m);
    expect(stderr).toMatch(/^ {2}- CURSOR_SECRET must be set with NODE_ENV=production/m);
  });

  it('without Java, says how to install it or to use DynamoDB Local in Docker, and exits 2', async () => {
    // A PATH with no java on it (node itself is run by its full path).
    const env = { ...process.env, PATH: freshDataDir(), PORT: String(await freePort()), DATA_DIR: freshDataDir() };
    const runs = [await runToExit(env, 'main'), await runToExit(env, 'tree', 'verify')];
    for (const { code, stderr } of runs) {
      expect(code).toBe(2);
      expect(stderr).toMatch(/needs Java 17 or later, and there is no `java` on the PATH/);
      expect(stderr).toMatch(/^ {2}Debian, Ubuntu: {2}sudo apt-get install -y openjdk-17-jre-headless$/m);
      expect(stderr).toMatch(/^ {2}DYNAMODB_ENDPOINT=http:\/\/127\.0\.0\.1:8000 npm start$/m);
      expect(stderr).not.toMatch(/^\s+at /m);
    }
  });

  it('in production without DYNAMODB_ENDPOINT uses AWS, never Java: no credentials, exit 2', async () => {
    // No java on the PATH, no AWS credentials anywhere (no profile in an empty HOME, no instance role).
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: freshDataDir(),
      HOME: freshDataDir(),
      NODE_ENV: 'production',
      AUTH: 'none',
      CURSOR_SECRET: 'a production secret',
      AWS_REGION: 'eu-west-1',
      AWS_EC2_METADATA_DISABLED: 'true',
      PORT: String(await freePort()),
    };
    for (const name of [
      'DYNAMODB_ENDPOINT',
      'AWS_PROFILE',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
    ])
      delete env[name];
    const { code, stderr } = await runToExit(env, 'main');
    expect(stderr).toMatch(/^no AWS credentials to reach DynamoDB in eu-west-1: give the AWS SDK a profile/m);
    expect(stderr).not.toMatch(/java|DynamoDB Local needs/);
    expect(code).toBe(2);
  });

  it('refuses to start when the DynamoDB Local port is taken, before starting it, with exit code 2', async () => {
    const squatter = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    try {
      const started = await spawnStart(freshDataDir(), (squatter.address() as AddressInfo).port);
      const { code } = await started.exited;
      expect(code).toBe(2);
      expect(started.output()).toMatch(/^ {2}- DYNAMODB_LOCAL_PORT: port \d+ is already in use/m);
    } finally {
      squatter.close();
    }
  });

  it.skipIf(!outsideAddress)('listens on this machine only by default: the server and its DynamoDB Local', async () => {
    expect(await reaches('127.0.0.1', server.port)).toBe(true);
    expect(await reaches('127.0.0.1', server.dynamoPort)).toBe(true);
    expect(await reaches(outsideAddress!, server.port)).toBe(false);
    expect(await reaches(outsideAddress!, server.dynamoPort)).toBe(false);
  });

  it('answers /healthz and /readyz', async () => {
    expect(await status(server, '/healthz')).toBe(200);
    expect(await status(server, '/readyz')).toBe(200);
  });

  it('seeds the demo tree into the empty table and reports the cost of a query', async () => {
    const roots = await gql(server, ROOTS);
    expect(roots.errors).toBeUndefined();
    expect(roots.data.roots.nodes.length).toBeGreaterThan(0);
    expect(roots.extensions?.dynamodb?.requests).toBeGreaterThan(0);
    seeded = await census(server);
    expect(seeded.nodes).toBeGreaterThanOrEqual(20);
    expect(seeded.nodes).toBeLessThanOrEqual(60);
    expect(seeded.maxDepth).toBe(3);
    // One log line says what started, and the SDK's Node version warning is not printed.
    const logged = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; level?: number });
    const ready = logged.find((line) => line.msg?.startsWith('Canopy '));
    expect(ready?.level).toBe(30);
    expect(ready?.msg).toMatch(
      new RegExp(
        `^Canopy \\d+\\.\\d+\\.\\d+ ready at http://127\\.0\\.0\\.1:${server.port}/graphql; ` +
          'strategy adjacency; federation off; ' +
          'auth none \\(anyone who reaches the port may read and change every tree\\); ' +
          `table tree on the embedded DynamoDB Local at 127\\.0\\.0\\.1:${server.dynamoPort}, files in .+; ` +
          `demo tree seeded \\(${seeded.nodes} nodes\\)$`,
      ),
    );
    expect(server.output()).not.toMatch(/NodeVersionSupportWarning|DeprecationWarning/);
  });

  /** `npm run tree -- verify` on the server's DATA_DIR with its own embedded DynamoDB Local on `port`. */
  const treeVerifyBeside = async (port: number) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: server.dataDir, DYNAMODB_LOCAL_PORT: String(port) };
    for (const name of Object.keys(env))
      if (name.startsWith('VITEST') || name === 'DYNAMODB_ENDPOINT') delete env[name];
    return runToExit(env, 'tree', 'verify');
  };

  it('keeps a tree command off the data it holds: refused, and told where its DynamoDB Local answers', async () => {
    const { code, stderr } = await treeVerifyBeside(await freePort());
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`is in use by process \\d+ .*DYNAMODB_ENDPOINT=http://localhost:${server.dynamoPort}`),
    );
  });

  it('tells a tree command on its DYNAMODB_LOCAL_PORT which process listens there, and how to use it', async () => {
    const { code, stderr } = await treeVerifyBeside(server.dynamoPort);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `port ${server.dynamoPort} is already in use by process \\d+ \\(a running server or tree command\\).*` +
          `set DYNAMODB_ENDPOINT=http://127\\.0\\.0\\.1:${server.dynamoPort} to use its DynamoDB Local`,
      ),
    );
  });

  it('serves GraphiQL to a browser', async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('GraphiQL');
  });

  it('creates a node', async () => {
    const created = await gql(
      server,
      `mutation { createNode(input: { id: "kept-across-restart", name: "Kept" }) { id } }`,
    );
    expect(created).toMatchObject({ data: { createNode: { id: 'kept-across-restart' } } });
  });

  it(
    'exits on SIGTERM and stops its DynamoDB Local',
    async () => {
      expect(javaFor(server.dataDir)).toHaveLength(1);
      const exit = await stop(server, 'SIGTERM');
      expect(exit).toEqual({ code: 0, signal: null });
      await expectGroupGoneWithin(server, 2_000);
      await expectNoJavaWithin(server.dataDir, 2_000);
    },
    STOP_TIMEOUT_MS + 5_000,
  );

  it(
    'keeps the data across a restart and does not seed the demo tree twice',
    async () => {
      const again = await startReady(server.dataDir);
      const kept = await gql(again, `{ node(id: "kept-across-restart") { id name parentId } }`);
      expect(kept).toMatchObject({ data: { node: { id: 'kept-across-restart', name: 'Kept', parentId: null } } });
      const after = await census(again);
      expect(after.roots.length).toBe(seeded.roots.length + 1);
      expect(after.nodes).toBe(seeded.nodes + 1);
      await stop(again);
      await expectGroupGoneWithin(again, 2_000);
      await expectNoJavaWithin(again.dataDir, 2_000);
    },
    START_TIMEOUT_MS + STOP_TIMEOUT_MS,
  );
});
