/**
 * Benchmark of concurrent writes through GraphQL, on an embedded in-memory DynamoDB Local:
 *
 *   npm run bench:writes                                   # every strategy, 5 s per cell
 *   npm run bench:writes -- --strategies adjacency,path --seconds 2
 *   npm run bench:writes -- --baseline main~3              # also Canopy as of that git ref
 *   npm run bench:writes -- --delay 0                      # ms the proxy holds each call (default 5)
 *
 * Canopy runs in processes of its own (one per strategy, and per version with --baseline: that
 * ref is checked out in a temporary git worktree), each on its own table, behind a proxy that
 * holds every DynamoDB call DELAY ms and can emulate what DynamoDB does and DynamoDB Local does
 * not: cancel a transaction that names an item of another transaction in flight
 * (TransactionCanceledException, reason TransactionConflict). Every tree is built through
 * GraphQL, so any version can be measured. Each cell runs twice: emulation off, then on. Beside
 * them, as a version of its own (`naive`, no strategy), the naive server of bench/naive: its
 * trees loaded as items, the same cells (its reparent moves the subtree's root alone), no verify.
 *
 * - creates: createNode under one parent, by 1 and by 25 concurrent clients; and by 25 clients in
 *   one tree, each under a parent of its own;
 * - renames: updateNode(id, name) of a leaf at depth 5 carrying 200 bytes of data, by 1 client
 *   and by 25, each renaming a leaf of its own, all leaves of one tree under one parent; each
 *   client alternates two names, so that every call changes the name;
 * - moves, one tree: 16 clients, each moving a subtree of its own (10 or 100 nodes, fan-out 3)
 *   from parent A to parent B and back in one request (two aliased reparents); all 16 subtrees
 *   under the same A;
 * - moves, 16 trees: the same, client i in tree i.
 *
 * Per cell: operations/s, p50/p99 latency, operations answered CONFLICT (and other codes), the
 * DynamoDB requests, items written, AWS write units and items read per operation (the answers'
 * extensions; the naive server reports no reads), the transactions the proxy cancelled; after a
 * moves cell of Canopy (its jobs done), `tree verify`'s problems (must be 0). Printed as one
 * table per kind of cell, and written to test-artifacts/bench-writes.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamo } from '../src/dynamodb/client.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { verifyTable } from '../src/storage/maintenance/verifyTable.js';
import { STRATEGY_NAMES, type StrategyName } from '../src/storage/strategies/strategies.js';
import type { TreeSpec } from '../test/support/tree.js';
import { TransactionsInFlight } from '../test/support/transactionConflicts.js';
import { startDelayProxy, type DelayProxy } from './delayProxy.js';
import { createNaiveTable, loadNaiveTree } from './naive/naiveServer.js';
import { CANOPY_NODE_FLAGS, post, send, spawnServer, type Server } from './servers.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(REPO_ROOT, 'test-artifacts', 'bench-writes.json');
const MAX_TREE_DEPTH = 64;
const CREATE_CONCURRENCY = [1, 25];
const MOVERS = 16;
const SUBTREE_SIZES = [10, 100];
const FAN_OUT = 3;
/** Clients of the renames cells; each of their trees has as many leaves. */
const RENAME_CONCURRENCY = [1, 25];
const RENAME_LEAVES = 25;
/** Where the renamed leaves are: depth 5 (the root at 0), with 200 bytes of data (as the contract suite's). */
const RENAME_DEPTH = 5;
const LEAF_DATA = { text: 'd'.repeat(186) };
/** The naive baseline's version name, and its process. */
const NAIVE = 'naive';
const NAIVE_ARGV = ['--import', 'tsx', 'bench/naive/main.ts'];
/** What Ctrl-C must still undo: the server running, the baseline's worktree. */
const ON_INTERRUPT = new Set<() => void>();
process.once('SIGINT', () => {
  for (const undo of ON_INTERRUPT) undo();
  process.exit(130);
});

const { values: options } = parseArgs({
  options: {
    strategies: { type: 'string', default: STRATEGY_NAMES.join(',') },
    seconds: { type: 'string', default: '5' },
    baseline: { type: 'string' },
    delay: { type: 'string', default: '5' },
  },
});
const STRATEGIES = options.strategies.split(',') as StrategyName[];
for (const name of STRATEGIES) {
  if (!STRATEGY_NAMES.includes(name))
    throw new Error(`unknown strategy "${name}": one of ${STRATEGY_NAMES.join(', ')}`);
}
const SECONDS = Number(options.seconds);
const DELAY_MS = Number(options.delay);

type Emulation = 'off' | 'on';
type Kind = 'creates' | 'renames' | 'moves, one tree' | 'moves, 16 trees';
const KINDS: Kind[] = ['creates', 'renames', 'moves, one tree', 'moves, 16 trees'];

/** A version of Canopy: the work tree, or the baseline's worktree. */
interface Version {
  name: string;
  dir: string;
}

/** One server process (Canopy, or the naive one: no strategy) and what the bench reaches it with. */
interface Target {
  strategy: StrategyName | null;
  version: Version;
  table: string;
  server: Server;
}

/** What the bench shares across targets. */
interface Rig {
  proxy: DelayProxy;
  inFlight: TransactionsInFlight;
  client: DynamoDBClient;
  doc: DynamoDBDocumentClient;
}

/**
 * One kind of cell at one setting: its clients, and the operation client i sends when `done` of
 * its operations have succeeded.
 */
interface Workload {
  kind: Kind;
  variant: string;
  clients: number;
  operation: (client: number, emulation: Emulation, done: number) => string;
}

/** One operation as a client saw it. */
interface Sample {
  ms: number;
  codes: string[];
  /** Each error's message, in the order of `codes`. */
  messages: string[];
  requests: number;
  itemsWritten: number;
  awsWriteUnits: number;
  itemsRead: number;
}

interface Cell {
  kind: Kind;
  /** null: the naive server. */
  strategy: StrategyName | null;
  version: string;
  variant: string;
  emulation: Emulation;
  operations: number;
  opsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Operations answered with a CONFLICT error. */
  conflicts: number;
  /** Operations answered with an error of another code, by code. */
  otherErrors: Record<string, number>;
  /** The first message seen of each error code (in the JSON only). */
  messages: Record<string, string>;
  requestsPerOp: number;
  itemsWrittenPerOp: number;
  /** The write units AWS would bill (Canopy's `awsWriteUnits`; the naive server's own count, the same way). */
  awsWriteUnitsPerOp: number;
  /** null: not reported (the naive server). */
  itemsReadPerOp: number | null;
  /** Transactions the proxy cancelled during the cell (its jobs included). */
  cancelled: number;
  /** `tree verify`'s problems after a moves cell. */
  problems?: number;
}

async function main() {
  const baseline = options.baseline ? addWorktree(options.baseline) : undefined;
  const removeBaseline = () => {
    if (baseline) removeWorktree(baseline);
  };
  ON_INTERRUPT.add(removeBaseline);
  try {
    report(await measureAll([{ name: 'work tree', dir: REPO_ROOT }, ...(baseline ? [baseline] : [])]));
  } finally {
    ON_INTERRUPT.delete(removeBaseline);
    removeBaseline();
  }
}

/** Every cell of every strategy and version, on one DynamoDB Local behind the proxy. */
async function measureAll(versions: Version[]): Promise<Cell[]> {
  const local = await startDynamoLocal({ port: 9100 + Math.floor(Math.random() * 300) });
  const inFlight = new TransactionsInFlight();
  const proxy = await startDelayProxy(local.endpoint, DELAY_MS, inFlight);
  const { client, doc } = createDynamo({ endpoint: local.endpoint, region: 'local' });
  const cells: Cell[] = [];
  const rig = { proxy, inFlight, client, doc };
  try {
    await warmUp(versions[0]!, rig);
    cells.push(...(await measureNaive(rig)));
    // Each strategy's versions in turns, the first one alternating: neither always runs first.
    for (const [s, strategy] of STRATEGIES.entries()) {
      const turns = [...versions.entries()];
      for (const [i, version] of s % 2 === 0 ? turns : turns.reverse()) {
        const table = `writes_${strategy}_${i === 0 ? 'work' : 'baseline'}`;
        cells.push(...(await measureServer(strategy, version, table, rig)));
      }
    }
  } finally {
    client.destroy();
    await proxy.close();
    await local.stop();
  }
  return cells;
}

/** How long DynamoDB Local is warmed up before the first cell. */
const WARM_UP_SECONDS = 15;

/**
 * DynamoDB Local's JVM compiles its hot paths in its first seconds of work: creates by 25
 * clients, unmeasured, on a table of their own, so that the first server measured does not pay
 * for it.
 */
async function warmUp(version: Version, rig: Rig): Promise<void> {
  const env = {
    TREE_STRATEGY: STRATEGIES[0]!,
    DYNAMODB_TABLE: 'writes_warm_up',
    DYNAMODB_ENDPOINT: rig.proxy.endpoint,
  };
  const port = 6000 + Math.floor(Math.random() * 900);
  const argv = [...CANOPY_NODE_FLAGS, '--import', 'tsx', 'src/main.ts'];
  const server = await spawnServer('warm-up', argv, { ...env, SEED_DEMO: 'false' }, { cwd: version.dir, port });
  const kill = () => server.child.kill('SIGKILL');
  ON_INTERRUPT.add(kill);
  try {
    process.stdout.write(`warming DynamoDB Local up for ${WARM_UP_SECONDS} s...`);
    await createRoot(server.url, 'warm-up');
    const operation = 'mutation { createNode(input: { parentId: "warm-up", name: "n" }) { id } }';
    const deadline = performance.now() + WARM_UP_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (performance.now() < deadline) await timed(server.url, operation);
      }),
    );
    process.stdout.write(' done\n');
  } finally {
    ON_INTERRUPT.delete(kill);
    kill();
  }
}

/** Starts the version's server on its table, builds its trees, and measures every cell on it. */
async function measureServer(strategy: StrategyName, version: Version, table: string, rig: Rig): Promise<Cell[]> {
  const env = {
    TREE_STRATEGY: strategy,
    DYNAMODB_TABLE: table,
    DYNAMODB_ENDPOINT: rig.proxy.endpoint,
    SEED_DEMO: 'false',
    JOB_LEASE_SECONDS: '30',
  };
  const argv = [...CANOPY_NODE_FLAGS, '--import', 'tsx', 'src/main.ts'];
  const port = 6000 + Math.floor(Math.random() * 900);
  const server = await spawnServer(`${strategy} (${version.name})`, argv, env, { cwd: version.dir, port });
  const target: Target = { strategy, version, table, server };
  return measureTarget(target, canopyBuilder(server.url), rig);
}

/** The naive server on a table of its own, its trees loaded as items: every cell on it. */
async function measureNaive(rig: Rig): Promise<Cell[]> {
  const table = 'writes_naive';
  await createNaiveTable(rig.client, table);
  const env = { NAIVE_TABLE: table, DYNAMODB_ENDPOINT: rig.proxy.endpoint };
  const port = 6000 + Math.floor(Math.random() * 900);
  const server = await spawnServer(NAIVE, NAIVE_ARGV, env, { port });
  const target: Target = { strategy: null, version: { name: NAIVE, dir: REPO_ROOT }, table, server };
  return measureTarget(target, naiveBuilder(rig.doc, table), rig);
}

/** Builds the target's trees, then measures every cell on it; kills its process in the end. */
async function measureTarget(target: Target, builder: TreeBuilder, rig: Rig): Promise<Cell[]> {
  const { server } = target;
  const kill = () => server.child.kill('SIGKILL');
  ON_INTERRUPT.add(kill);
  try {
    process.stdout.write(`${server.name}: building the trees...`);
    await buildTrees(builder);
    process.stdout.write(' done\n');
    const cells: Cell[] = [];
    for (const workload of workloads()) {
      for (const emulation of ['off', 'on'] as const) cells.push(await measureCell(target, workload, emulation, rig));
    }
    return cells;
  } finally {
    ON_INTERRUPT.delete(kill);
    kill();
  }
}

/** Every cell of a server, in the order they run. */
function workloads(): Workload[] {
  const creates = CREATE_CONCURRENCY.map((clients) => ({
    kind: 'creates' as const,
    variant: `${clients} client${clients === 1 ? '' : 's'}`,
    clients,
    operation: (_: number, emulation: Emulation) =>
      `mutation { createNode(input: { parentId: "${createParent(clients, emulation)}", name: "n" }) { id } }`,
  }));
  // The same in one tree, each client under a parent of its own: under a strategy that keeps
  // paths, they share no item; under adjacency, the root's item (its chain guard).
  const wide = {
    kind: 'creates' as const,
    variant: `${WIDE} clients, ${WIDE} parents`,
    clients: WIDE,
    operation: (client: number, emulation: Emulation) =>
      `mutation { createNode(input: { parentId: "${wideParent(client, emulation)}", name: "n" }) { id } }`,
  };
  const renames = RENAME_CONCURRENCY.map((clients) => ({
    kind: 'renames' as const,
    variant: `${clients} client${clients === 1 ? '' : 's'}`,
    clients,
    operation: (client: number, emulation: Emulation, done: number) => {
      const id = renamedLeaf(clients, emulation, client);
      return `mutation { updateNode(id: "${id}", name: "${leafName(id, done)}") { id } }`;
    },
  }));
  const moves = (['one', 'many'] as const).flatMap((trees) =>
    SUBTREE_SIZES.map((size) => ({
      kind: trees === 'one' ? ('moves, one tree' as const) : ('moves, 16 trees' as const),
      variant: `${size} nodes`,
      clients: MOVERS,
      operation: (client: number) => moveThereAndBack(treeOf(trees, size, client), client),
    })),
  );
  return [...creates, wide, ...renames, ...moves];
}

/** One request: the client's subtree moved from A to B, and back. */
function moveThereAndBack(tree: string, client: number): string {
  const id = subtreeRoot(tree, client);
  return (
    `mutation { a: reparent(id: "${id}", newParentId: "${tree}-B") { id } ` +
    `b: reparent(id: "${id}", newParentId: "${tree}-A") { id } }`
  );
}

/** The parent of one creates cell (a root of its own). */
const createParent = (clients: number, emulation: Emulation) => `create-${clients}-${emulation}`;
/** Clients, and parents, of the creates cell in one tree under many parents. */
const WIDE = 25;
/** The tree of that cell, and the parent of its client `client` (a child of its root). */
const wideRoot = (emulation: Emulation) => `wide-${emulation}`;
const wideParent = (client: number, emulation: Emulation) => `${wideRoot(emulation)}-${client}`;
/** The tree of a renames cell, its nodes down to the leaves' parent, and client `client`'s leaf. */
const renameRoot = (clients: number, emulation: Emulation) => `rename-${clients}-${emulation}`;
const renameChain = (clients: number, emulation: Emulation, depth: number) =>
  depth === 0 ? renameRoot(clients, emulation) : `${renameRoot(clients, emulation)}-${depth}`;
const renamedLeaf = (clients: number, emulation: Emulation, client: number) =>
  `${renameRoot(clients, emulation)}-leaf${client}`;
/** The leaf's name once `done` renames of it have succeeded: built "-b", then "-a", "-b"... */
const leafName = (id: string, done: number) => `${id}-${done % 2 === 0 ? 'a' : 'b'}`;
/** The tree client `client` moves its subtree in: one for all, or one each. */
const treeOf = (trees: 'one' | 'many', size: number, client: number) =>
  trees === 'one' ? `one${size}` : `many${size}-${client}`;
const subtreeRoot = (tree: string, client: number) => `${tree}-s${client}`;

/** A tree of a moves cell: its root's id, the size of its subtrees, the clients that own one. */
interface MoveTree {
  id: string;
  size: number;
  clients: number[];
}

function moveTrees(): MoveTree[] {
  const everyClient = Array.from({ length: MOVERS }, (_, client) => client);
  return SUBTREE_SIZES.flatMap((size) => [
    { id: treeOf('one', size, 0), size, clients: everyClient },
    ...everyClient.map((client) => ({ id: treeOf('many', size, client), size, clients: [client] })),
  ]);
}

/** How a server's trees are made: roots, then nodes under a node made before; then `finish`. */
interface TreeBuilder {
  root(id: string): Promise<void>;
  /** The nodes, parents first; a node without parentId goes under `parentId`. */
  nodes(parentId: string, nodes: NewNode[]): Promise<void>;
  /** Returns once every tree stands. */
  finish(): Promise<void>;
}

/**
 * Through GraphQL (createNode, createNodes), then waits for their IMPORT jobs. One write after
 * the other: roots are siblings, and every IMPORT job starts and ends with a write of the table's
 * one list of open jobs, so writes in parallel would contend (CONFLICT) even here.
 */
function canopyBuilder(url: string): TreeBuilder {
  return {
    root: (id) => createRoot(url, id),
    nodes: (parentId, nodes) => createNodes(url, parentId, nodes),
    finish: () => waitForJobs(url),
  };
}

/** The naive server has no batch create: its trees are gathered, then loaded as items. */
function naiveBuilder(doc: DynamoDBDocumentClient, table: string): TreeBuilder {
  const roots: TreeSpec[] = [];
  const byId = new Map<string, TreeSpec>();
  return {
    root: async (id) => {
      const spec = { id, name: id };
      roots.push(spec);
      byId.set(id, spec);
    },
    nodes: async (parentId, nodes) => {
      for (const node of nodes) {
        const spec: TreeSpec = { id: node.id, name: node.name, ...(node.data ? { data: node.data } : {}) };
        (byId.get(node.parentId ?? parentId)!.children ??= []).push(spec);
        byId.set(node.id, spec);
      }
    },
    finish: () => loadNaiveTree(doc, table, roots),
  };
}

/**
 * A root per creates cell; per renames cell a chain down to depth RENAME_DEPTH - 1 and under it
 * the leaves; per moves cell its trees, each a root with children A and B, and under A the
 * subtree of each of its clients.
 */
async function buildTrees(builder: TreeBuilder): Promise<void> {
  for (const clients of CREATE_CONCURRENCY) {
    for (const emulation of ['off', 'on'] as const) await builder.root(createParent(clients, emulation));
  }
  for (const emulation of ['off', 'on'] as const) {
    await builder.root(wideRoot(emulation));
    const parents = Array.from({ length: WIDE }, (_, client) => ({ id: wideParent(client, emulation), name: 'p' }));
    await builder.nodes(wideRoot(emulation), parents);
  }
  for (const clients of RENAME_CONCURRENCY) {
    for (const emulation of ['off', 'on'] as const) {
      const at = (depth: number) => renameChain(clients, emulation, depth);
      await builder.root(at(0));
      const chain = Array.from({ length: RENAME_DEPTH - 1 }, (_, i) => ({
        id: at(i + 1),
        name: at(i + 1),
        ...(i === 0 ? {} : { parentId: at(i) }),
      }));
      await builder.nodes(at(0), chain);
      const leaves = Array.from({ length: RENAME_LEAVES }, (_, client) => {
        const id = renamedLeaf(clients, emulation, client);
        return { id, name: leafName(id, 1), data: LEAF_DATA };
      });
      await builder.nodes(at(RENAME_DEPTH - 1), leaves);
    }
  }
  for (const { id, size, clients } of moveTrees()) {
    await builder.root(id);
    await builder.nodes(id, [
      { id: `${id}-A`, name: 'A' },
      { id: `${id}-B`, name: 'B' },
    ]);
    for (const client of clients) await builder.nodes(`${id}-A`, subtree(subtreeRoot(id, client), size));
  }
  await builder.finish();
}

interface NewNode {
  id: string;
  name: string;
  parentId?: string;
  data?: Record<string, unknown>;
}

/** `size` nodes, breadth first, fan-out FAN_OUT: node k's parent is (k - 1) / FAN_OUT. */
function subtree(root: string, size: number): NewNode[] {
  const id = (k: number) => (k === 0 ? root : `${root}-${k}`);
  return Array.from({ length: size }, (_, k) => ({
    id: id(k),
    name: id(k),
    ...(k === 0 ? {} : { parentId: id(Math.floor((k - 1) / FAN_OUT)) }),
  }));
}

async function createRoot(url: string, id: string): Promise<void> {
  await post(url, 'mutation($input: CreateNodeInput!) { createNode(input: $input) { id } }', {
    input: { id, name: id },
  });
}

async function createNodes(url: string, parentId: string, nodes: NewNode[]): Promise<void> {
  await post(url, 'mutation($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id } } }', {
    input: { parentId, nodes },
  });
}

/** Waits until the server lists no RUNNING job (every page of them). */
async function waitForJobs(url: string): Promise<void> {
  const query =
    'query($after: String) { jobs(first: 100, after: $after) { nodes { status } pageInfo { hasNextPage endCursor } } }';
  for (;;) {
    let running = false;
    let after: string | null = null;
    do {
      const answer = await post(url, query, { after });
      const { jobs } = answer.data as {
        jobs: { nodes: Array<{ status: string }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      };
      running ||= jobs.nodes.some((job) => job.status === 'RUNNING');
      after = jobs.pageInfo.hasNextPage ? jobs.pageInfo.endCursor : null;
    } while (after !== null && !running);
    if (!running) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Runs the workload for SECONDS with the emulation as asked, waits for its jobs (still under
 * it; Canopy's), and after moves on Canopy runs `tree verify`.
 */
async function measureCell(target: Target, workload: Workload, emulation: Emulation, rig: Rig): Promise<Cell> {
  process.stdout.write(`${target.server.name}: ${workload.kind}, ${workload.variant}, emulation ${emulation}...`);
  const cancelledBefore = rig.inFlight.cancelled;
  rig.proxy.emulateConflicts(emulation === 'on');
  const { samples, seconds } = await runClients(target.server.url, workload, emulation);
  if (target.strategy !== null) await waitForJobs(target.server.url); // the naive server has no jobs
  rig.proxy.emulateConflicts(false);
  const cell: Cell = {
    kind: workload.kind,
    strategy: target.strategy,
    version: target.version.name,
    variant: workload.variant,
    emulation,
    ...summarize(samples, seconds),
    cancelled: rig.inFlight.cancelled - cancelledBefore,
  };
  if (target.strategy === null) cell.itemsReadPerOp = null;
  else if (workload.kind.startsWith('moves')) {
    const { problems } = await verifyTable(rig.doc, target.table, target.strategy, MAX_TREE_DEPTH);
    cell.problems = problems.length;
    for (const p of problems.slice(0, 3)) console.error(`\n  verify: ${p.nodeId}: ${p.problem}`);
  }
  process.stdout.write(` ${cell.opsPerSecond} ops/s\n`);
  return cell;
}

/** The workload's clients, each sending its operation again and again until SECONDS have passed. */
async function runClients(
  url: string,
  workload: Workload,
  emulation: Emulation,
): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: workload.clients }, async (_, client) => {
      for (let done = 0; performance.now() < deadline;) {
        const sample = await timed(url, workload.operation(client, emulation, done));
        samples.push(sample);
        if (sample.codes.length === 0) done++;
      }
    }),
  );
  return { samples, seconds: (performance.now() - started) / 1000 };
}

/** One operation: its latency, its errors' codes, and the DynamoDB cost the server reported. */
async function timed(url: string, operation: string): Promise<Sample> {
  const started = performance.now();
  try {
    const answer = await send(url, operation);
    const errors = (answer.errors ?? []) as Array<{ message?: string; extensions?: { code?: string } }>;
    // awsWriteUnits too, which servers.ts's Answer does not name.
    const cost = answer.extensions?.dynamodb as Partial<Omit<Sample, 'ms' | 'codes' | 'messages'>> | undefined;
    return {
      ms: performance.now() - started,
      codes: errors.map((e) => e.extensions?.code ?? 'NO_CODE'),
      messages: errors.map((e) => e.message ?? ''),
      requests: cost?.requests ?? 0,
      itemsWritten: cost?.itemsWritten ?? 0,
      awsWriteUnits: cost?.awsWriteUnits ?? 0,
      itemsRead: cost?.itemsRead ?? 0,
    };
  } catch (error) {
    const ms = performance.now() - started;
    const none = { requests: 0, itemsWritten: 0, awsWriteUnits: 0, itemsRead: 0 };
    return { ms, codes: ['NO_ANSWER'], messages: [String(error)], ...none };
  }
}

type Summary = Omit<Cell, 'kind' | 'strategy' | 'version' | 'variant' | 'emulation' | 'cancelled' | 'problems'>;

function summarize(samples: Sample[], seconds: number): Summary {
  const n = Math.max(1, samples.length);
  const latencies = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  const perOp = (field: 'requests' | 'itemsWritten' | 'awsWriteUnits' | 'itemsRead') =>
    round(samples.reduce((sum, s) => sum + s[field], 0) / n);
  const otherErrors: Record<string, number> = {};
  const messages: Record<string, string> = {};
  for (const sample of samples) {
    for (const code of new Set(sample.codes)) if (code !== 'CONFLICT') otherErrors[code] = (otherErrors[code] ?? 0) + 1;
    sample.codes.forEach((code, i) => (messages[code] ??= sample.messages[i]!));
  }
  return {
    operations: samples.length,
    opsPerSecond: round(samples.length / seconds),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    conflicts: samples.filter((s) => s.codes.includes('CONFLICT')).length,
    otherErrors,
    messages,
    requestsPerOp: perOp('requests'),
    itemsWrittenPerOp: perOp('itemsWritten'),
    awsWriteUnitsPerOp: perOp('awsWriteUnits'),
    itemsReadPerOp: perOp('itemsRead'),
  };
}

/** To one decimal. */
const round = (x: number) => Math.round(x * 10) / 10;

/** One table per kind of cell on stdout; every cell as JSON in test-artifacts/. */
function report(cells: Cell[]): void {
  console.log(`\nDynamoDB Local, ${DELAY_MS} ms per DynamoDB call, ${SECONDS} s per cell`);
  for (const kind of KINDS) {
    const rows = cells.filter((c) => c.kind === kind);
    console.log(`\n${kind}\n`);
    console.log(alignedTable(rows.map(tableRow), kind.startsWith('moves')));
  }
  mkdirSync(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
  const run = { strategies: STRATEGIES, seconds: SECONDS, delayMs: DELAY_MS, baseline: options.baseline ?? null };
  writeFileSync(RESULTS, JSON.stringify({ run, cells }, null, 2) + '\n');
  console.log(`\nwritten to ${RESULTS}`);
}

const HEADER = [
  'strategy',
  'version',
  'cell',
  'emulation',
  'ops/s',
  'p50 ms',
  'p99 ms',
  'CONFLICT',
  'other errors',
  'requests/op',
  'written/op',
  'AWS WU/op',
  'read/op',
  'cancelled',
  'problems',
];

function tableRow(c: Cell): string[] {
  const others = Object.entries(c.otherErrors).map(([code, count]) => `${code} ${count}`);
  return [
    c.strategy ?? '-',
    c.version,
    c.variant,
    c.emulation,
    String(c.opsPerSecond),
    String(c.p50Ms),
    String(c.p99Ms),
    String(c.conflicts),
    others.join(', ') || '0',
    String(c.requestsPerOp),
    String(c.itemsWrittenPerOp),
    String(c.awsWriteUnitsPerOp),
    String(c.itemsReadPerOp ?? '-'),
    String(c.cancelled),
    String(c.problems ?? '-'),
  ];
}

/** Columns padded to their widest cell: text left, numbers right; `problems` only for moves. */
function alignedTable(rows: string[][], withProblems: boolean): string {
  const columns = withProblems ? HEADER.length : HEADER.length - 1;
  const all = [HEADER, ...rows].map((row) => row.slice(0, columns));
  const widths = all[0]!.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const numeric = (i: number) => i >= 4 && i !== 8;
  return all
    .map((row) => row.map((text, i) => (numeric(i) ? text.padStart(widths[i]!) : text.padEnd(widths[i]!))).join('  '))
    .join('\n');
}

/** The git ref checked out in a temporary worktree, with this repository's node_modules. */
function addWorktree(ref: string): Version {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-baseline-'));
  try {
    execFileSync('git', ['worktree', 'add', '--detach', dir, ref], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { name: ref, dir };
}

/** Removes the worktree (its node_modules link first, so that nothing can follow it). */
function removeWorktree(version: Version): void {
  unlinkSync(join(version.dir, 'node_modules'));
  execFileSync('git', ['worktree', 'remove', '--force', version.dir], { cwd: REPO_ROOT, stdio: 'ignore' });
  rmSync(version.dir, { recursive: true, force: true });
}

await main();
