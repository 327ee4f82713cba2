/**
 * Fault injection on the real SDK client. A middleware inside the SDK retry loop
 * (finalizeRequest, low priority: after the cost meter, so injected failures are counted)
 * throws service-shaped errors per attempt; one at the initialize step rewrites BatchGetItem
 * results to carry UnprocessedKeys. DynamoDB Local never throttles or reports transaction
 * conflicts on its own, so this is the only way to exercise those paths.
 *
 * Each test switches a fault policy on after its fixture is built, and off at the end; the
 * fixture trees live in per-test namespaces of one table.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES_UNDER_TEST, startTestServer, type GraphQLResponse, type TestServer } from '../../support/server.js';
import type { DynamoOptions } from '../../../src/dynamodb/client.js';
import { TreeModel } from '../../support/model.js';
import { compareWithModel, read, snapshot, type Snapshot } from '../../support/invariants.js';

type MiddlewareStack = Parameters<NonNullable<DynamoOptions['middleware']>>[0];

/** One attempt of one SDK call, as the injector sees it. */
interface Attempt {
  command: string;
  /** Ordinal of the SDK call (all its attempts share it), from 1. */
  call: number;
  /** Attempt number within the call, from 1. */
  attempt: number;
  /** Actions of a TransactWriteItems request (for CancellationReasons). */
  transactItems: number;
}

interface FaultPolicy {
  /** Throw here to fail the attempt before it is sent. */
  before?(attempt: Attempt): void;
  /** Throw here to fail the attempt after DynamoDB applied it (a lost response). */
  after?(attempt: Attempt): void;
  /** How BatchGetItem answers: with half of the keys unprocessed, or all of them. */
  unprocessed?: 'half' | 'all';
}

class FaultInjector {
  policy: FaultPolicy | null = null;
  /** Attempts seen (every command, faulted or not). */
  attempts = 0;
  /** Attempts per command name. */
  readonly perCommand = new Map<string, number>();
  /** Attempts per SDK call, by invocation id. */
  readonly perCall = new Map<string, number>();
  injected = 0;
  /** Keys moved to UnprocessedKeys. */
  heldKeys = 0;
  private calls = 0;
  private readonly callOrdinals = new Map<string, number>();

  reset(policy: FaultPolicy | null): void {
    this.policy = policy;
    this.attempts = 0;
    this.perCommand.clear();
    this.perCall.clear();
    this.injected = 0;
    this.heldKeys = 0;
  }

  readonly install = (stack: MiddlewareStack): void => {
    stack.add(
      (next, context) => async (args) => {
        const command = String(context.commandName ?? 'unknown');
        const request = args.request as { headers?: Record<string, string>; body?: unknown };
        const invocation = request.headers?.['amz-sdk-invocation-id'] ?? `anon-${this.calls + 1}`;
        if (!this.callOrdinals.has(invocation)) this.callOrdinals.set(invocation, ++this.calls);
        const attempt: Attempt = {
          command,
          call: this.callOrdinals.get(invocation)!,
          attempt: (this.perCall.get(invocation) ?? 0) + 1,
          transactItems: countTransactItems(request.body),
        };
        this.attempts += 1;
        this.perCall.set(invocation, attempt.attempt);
        this.perCommand.set(command, (this.perCommand.get(command) ?? 0) + 1);
        const policy = this.policy;
        if (policy?.before) this.countThrow(() => policy.before!(attempt));
        const result = await next(args);
        if (policy?.after) this.countThrow(() => policy.after!(attempt));
        return result;
      },
      { step: 'finalizeRequest', priority: 'low', name: 'testFaultInjector' },
    );
    stack.add(
      (next, context) => async (args) => {
        const mode = this.policy?.unprocessed;
        if (!mode || context.commandName !== 'BatchGetItemCommand') return next(args);
        const input = args.input as { RequestItems: Record<string, { Keys: unknown[] }> };
        if (mode === 'all') {
          const result = await next(args);
          const output = result.output as Record<string, any>;
          output.Responses = Object.fromEntries(Object.keys(input.RequestItems).map((table) => [table, []]));
          output.UnprocessedKeys = input.RequestItems;
          for (const request of Object.values(input.RequestItems)) this.heldKeys += request.Keys.length;
          return result;
        }
        // Send the first half (rounded up) for real; report the rest as unprocessed, the way
        // DynamoDB answers when it runs out of capacity part-way.
        const sent: Record<string, unknown> = {};
        const held: Record<string, unknown> = {};
        for (const [table, request] of Object.entries(input.RequestItems)) {
          const keep = Math.ceil(request.Keys.length / 2);
          sent[table] = { ...request, Keys: request.Keys.slice(0, keep) };
          if (request.Keys.length > keep) held[table] = { ...request, Keys: request.Keys.slice(keep) };
          this.heldKeys += request.Keys.length - keep;
        }
        const result = await next({ ...args, input: { ...input, RequestItems: sent } });
        const output = result.output as Record<string, any>;
        output.UnprocessedKeys = { ...(output.UnprocessedKeys ?? {}), ...held };
        return result;
      },
      { step: 'initialize', priority: 'low', name: 'testUnprocessedKeys' },
    );
  };

  private countThrow(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.injected += 1;
      throw error;
    }
  }
}

function countTransactItems(body: unknown): number {
  if (typeof body !== 'string' || !body.includes('TransactItems')) return 0;
  try {
    return (JSON.parse(body) as { TransactItems?: unknown[] }).TransactItems?.length ?? 0;
  } catch {
    return 0;
  }
}

function serviceError(name: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), {
    name,
    $fault: 'client',
    $metadata: { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 },
    ...extra,
  });
}

const throttling = () => serviceError('ThrottlingException', 'Rate of requests exceeds the allowed throughput.');
const throughputExceeded = () =>
  serviceError(
    'ProvisionedThroughputExceededException',
    'The level of configured provisioned throughput for the table was exceeded.',
  );
const transactionConflict = (items: number) =>
  serviceError(
    'TransactionCanceledException',
    'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
    {
      CancellationReasons: Array.from({ length: Math.max(items, 1) }, (_, i) =>
        i === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
      ),
    },
  );
const connectionReset = () =>
  Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });

const WRITE_COMMANDS = new Set([
  'TransactWriteItemsCommand',
  'UpdateItemCommand',
  'PutItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

const NODE = 'id name parentId depth rootId childCount version';
const CREATE = `mutation Create($input: CreateNodeInput!) { createNode(input: $input) { ${NODE} } }`;
const REPARENT =
  'mutation Reparent($id: ID!, $newParentId: ID) { ' + `reparent(id: $id, newParentId: $newParentId) { ${NODE} } }`;
const UPDATE = `mutation Update($id: ID!, $name: String) { updateNode(id: $id, name: $name) { ${NODE} } }`;
const DELETE = `mutation Delete($id: ID!) { deleteNode(id: $id) { deletedCount } }`;
const NODE_QUERY = `query One($id: ID!) { node(id: $id) { ${NODE} } }`;
const NODES_QUERY = `query Many($ids: [ID!]!) { nodes(ids: $ids) { id name parentId } }`;
const CHILDREN_QUERY = `query Kids($id: ID!) { node(id: $id) { id children(first: 50) { nodes { id } } } }`;

/**
 * A fixture tree, built through the API with faults off:
 *   r ── a ── a1 ── a11
 *   │    └── a2
 *   ├── b ── b1
 *   └── c
 */
async function buildFixture(
  server: TestServer,
  prefix: string,
): Promise<{ model: TreeModel; id: (name: string) => string }> {
  const model = new TreeModel();
  const id = (name: string) => `${prefix}${name}`;
  const layout: Array<[string, string | null]> = [
    ['r', null],
    ['a', 'r'],
    ['b', 'r'],
    ['c', 'r'],
    ['a1', 'a'],
    ['a2', 'a'],
    ['b1', 'b'],
    ['a11', 'a1'],
  ];
  for (const [name, parent] of layout) {
    const input = { id: id(name), parentId: parent === null ? null : id(parent), name };
    await read(server, `create ${name}`, CREATE, { input });
    model.create({ id: input.id, parentId: input.parentId, name, data: null });
  }
  return { model, id };
}

function expectMatchesModel(snap: Snapshot, model: TreeModel, label: string): void {
  expect(compareWithModel(snap, model), label).toEqual([]);
}

function expectCode(response: GraphQLResponse, code: string, label: string): void {
  const context = `${label}: HTTP ${response.status} ${JSON.stringify(response.body)}`;
  expect(response.status, context).toBe(200);
  expect(response.body.errors?.[0]?.extensions?.code, context).toBe(code);
  expect(
    response.body.errors?.map((e) => e.extensions?.code),
    context,
  ).not.toContain('INTERNAL_SERVER_ERROR');
}

function expectOk<T = any>(response: GraphQLResponse<T>, label: string): T {
  const context = `${label}: HTTP ${response.status} ${JSON.stringify(response.body)}`;
  expect(response.status, context).toBe(200);
  expect(response.body.errors, context).toBeUndefined();
  return response.body.data as T;
}

describe.each(STRATEGIES_UNDER_TEST)('DynamoDB faults inside the SDK retry loop (%s)', (strategy) => {
  const injector = new FaultInjector();
  let server: TestServer;
  let namespace = 0;
  const prefix = () => `f${++namespace}_`;

  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: injector.install });
  });
  afterEach(() => injector.reset(null));
  afterAll(async () => {
    await server?.close();
  });

  /** Runs one request alone and returns it with the attempts the injector saw meanwhile. */
  async function measured(query: string, variables: Record<string, unknown>) {
    const before = injector.attempts;
    const started = Date.now();
    const response = await server.gql(query, variables);
    return { response, attempts: injector.attempts - before, ms: Date.now() - started };
  }

  // The SDK's own retry loop, below every strategy: under one of them (the suite's time).
  describe.runIf(strategy === STRATEGIES_UNDER_TEST[0])('persistent throttling', () => {
    it(
      'answers SERVICE_UNAVAILABLE after the SDK’s 3 attempts per call, and counts them',
      { timeout: 60_000 },
      async () => {
        const { id } = await buildFixture(server, prefix());
        injector.reset({
          before: (a) => {
            throw a.call % 2 === 0 ? throttling() : throughputExceeded();
          },
        });
        for (const [label, query, variables] of [
          ['node', NODE_QUERY, { id: id('a') }],
          ['children', CHILDREN_QUERY, { id: id('r') }],
          ['createNode', CREATE, { input: { id: id('new'), parentId: id('r'), name: 'new' } }],
        ] as const) {
          const { response, attempts, ms } = await measured(query, variables);
          expectCode(response, 'SERVICE_UNAVAILABLE', label);
          expect(ms, `${label} took ${ms} ms`).toBeLessThan(20_000);
          // Every call the server made got exactly the SDK's 3 attempts, and the cost report
          // counts each attempt.
          expect(
            [...injector.perCall.values()].every((n) => n === 3),
            `${label}: attempts per call ${JSON.stringify([...injector.perCall.values()])}`,
          ).toBe(true);
          expect(attempts % 3, `${label}: ${attempts} attempts`).toBe(0);
          expect(response.body.extensions?.dynamodb?.requests, `${label}: cost report`).toBe(attempts);
          injector.perCall.clear();
        }
        injector.reset(null);
        const after = await server.gql(NODE_QUERY, { id: id('new') });
        expect(expectOk(after, 'the refused create').node).toBeNull();
      },
    );
  });

  // Retried by the SDK below every strategy, like persistent throttling: under one of them.
  describe.runIf(strategy === STRATEGIES_UNDER_TEST[0])('throttling on every third call', () => {
    it('still gives correct answers for reads and writes', { timeout: 120_000 }, async () => {
      const { model, id } = await buildFixture(server, prefix());
      const ids = model.ids();
      // The first attempt of every third SDK call is throttled, and the second one too on every
      // ninth: never all three, so every call must eventually succeed.
      injector.reset({
        before: (a) => {
          if (a.call % 3 === 0 && (a.attempt === 1 || (a.attempt === 2 && a.call % 9 === 0))) throw throttling();
        },
      });
      expectMatchesModel(await snapshot(server, ids), model, 'snapshot under throttling');

      const { response, attempts } = await measured(REPARENT, { id: id('a1'), newParentId: id('c') });
      expect(expectOk(response, 'reparent').reparent).toMatchObject({ id: id('a1'), parentId: id('c'), depth: 2 });
      expect(response.body.extensions?.dynamodb?.requests, 'cost report counts retries').toBe(attempts);
      model.move(id('a1'), id('c'));

      expectOk(await server.gql(CREATE, { input: { id: id('n'), parentId: id('b1'), name: 'n' } }), 'create');
      model.create({ id: id('n'), parentId: id('b1'), name: 'n', data: null });
      expectOk(await server.gql(UPDATE, { id: id('b'), name: 'bee' }), 'update');
      model.update(id('b'), { name: 'bee' });
      expect(expectOk(await server.gql(DELETE, { id: id('a') }), 'delete').deleteNode).toEqual({ deletedCount: 2 });
      model.remove(id('a'));

      expectMatchesModel(await snapshot(server, [...ids, id('n')]), model, 'after writes under throttling');
      expect(injector.injected, 'faults were injected').toBeGreaterThan(0);
    });
  });

  describe('transaction conflicts', () => {
    /** The first two attempts of every TransactWriteItems are cancelled with TransactionConflict. */
    function conflictTwiceThenPass(): FaultPolicy {
      let failedInARow = 0;
      return {
        before: (a) => {
          if (a.command !== 'TransactWriteItemsCommand') return;
          if (failedInARow < 2) {
            failedInARow += 1;
            throw transactionConflict(a.transactItems);
          }
          failedInARow = 0;
        },
      };
    }

    it(
      'a move, a create and a delete that conflict twice each succeed, applied exactly once',
      { timeout: 60_000 },
      async () => {
        const { model, id } = await buildFixture(server, prefix());
        const before = await snapshot(server, model.ids());
        injector.reset(conflictTwiceThenPass());

        const moved = expectOk(await server.gql(REPARENT, { id: id('a1'), newParentId: id('c') }), 'reparent').reparent;
        expect(moved.version, 'the move bumped the version once').toBe(before.get(id('a1'))!.version + 1);
        model.move(id('a1'), id('c'));
        expect(injector.injected).toBe(2);

        expectOk(await server.gql(CREATE, { input: { id: id('n'), parentId: id('c'), name: 'n' } }), 'create');
        model.create({ id: id('n'), parentId: id('c'), name: 'n', data: null });
        expect(injector.injected).toBe(4);

        const deleted = expectOk(await server.gql(DELETE, { id: id('b1') }), 'delete').deleteNode;
        expect(deleted).toEqual({ deletedCount: 1 });
        model.remove(id('b1'));
        expect(injector.injected).toBe(6);

        injector.reset(null);
        const after = await snapshot(server, [...before.keys(), id('n')]);
        expectMatchesModel(after, model, 'after conflicted writes');
        expect(after.get(id('a'))!.childCount).toBe(1);
        expect(after.get(id('c'))!.childCount).toBe(2);
        expect(after.get(id('b'))!.childCount).toBe(0);
        expect(after.get(id('a1'))!.version).toBe(before.get(id('a1'))!.version + 1);
      },
    );

    // Every transaction is cancelled, so nothing of a strategy's plan commits: the bounded wait
    // of transactWrite.ts, under one strategy (each waits it out: 5 s).
    it.runIf(strategy === STRATEGIES_UNDER_TEST[0])(
      'persistent conflicts end in CONFLICT and change nothing',
      { timeout: 60_000 },
      async () => {
        const { model, id } = await buildFixture(server, prefix());
        const ids = [...model.ids(), id('n')];
        const before = await snapshot(server, ids);
        injector.reset({
          before: (a) => {
            if (a.command === 'TransactWriteItemsCommand') throw transactionConflict(a.transactItems);
          },
        });
        // Side by side: each waits its bounded contention time (transactWrite.ts) on its own.
        const writes = [
          ['reparent', REPARENT, { id: id('a1'), newParentId: id('c') }],
          ['createNode', CREATE, { input: { id: id('n'), parentId: id('c'), name: 'n' } }],
          ['deleteNode', DELETE, { id: id('a') }],
        ] as const;
        await Promise.all(
          writes.map(async ([label, query, variables]) => {
            const started = Date.now();
            expectCode(await server.gql(query, variables), 'CONFLICT', label);
            expect(Date.now() - started, `${label} gave up in bounded time`).toBeLessThan(20_000);
          }),
        );
        expect(
          injector.perCommand.get('TransactWriteItemsCommand') ?? 0,
          'transactions were attempted',
        ).toBeGreaterThan(0);
        injector.reset(null);
        expect(await snapshot(server, ids), 'nothing changed').toEqual(before);
      },
    );
  });

  describe('BatchGetItem with UnprocessedKeys', () => {
    it('partial answers are retried: results complete and in order', { timeout: 60_000 }, async () => {
      const { model, id } = await buildFixture(server, prefix());
      injector.reset({ unprocessed: 'half' });
      const asked = [
        id('a11'),
        id('missing'),
        id('r'),
        id('b'),
        id('a11'),
        id('c'),
        id('a'),
        id('b1'),
        id('a2'),
        id('a1'),
        id('gone'),
      ];
      const data = expectOk(await server.gql(NODES_QUERY, { ids: asked }), 'nodes(ids)');
      expect(data.nodes.map((n: { id: string } | null) => n?.id ?? null)).toEqual(
        asked.map((x) => (model.has(x) ? x : null)),
      );
      expect(data.nodes.map((n: { name: string } | null) => n?.name ?? null)).toEqual(
        asked.map((x) => (model.has(x) ? model.get(x).name : null)),
      );
      expect(injector.heldKeys, 'keys were held back').toBeGreaterThan(0);
      expectMatchesModel(await snapshot(server, model.ids()), model, 'snapshot with partial batch reads');
    });

    it('keys that stay unprocessed end in SERVICE_UNAVAILABLE in bounded time', { timeout: 60_000 }, async () => {
      const { id } = await buildFixture(server, prefix());
      injector.reset({ unprocessed: 'all' });
      const started = Date.now();
      const response = await server.gql(NODES_QUERY, { ids: [id('a'), id('b'), id('c')] });
      expectCode(response, 'SERVICE_UNAVAILABLE', 'nodes(ids)');
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(injector.perCommand.get('BatchGetItemCommand') ?? 0, 'retried a bounded number of times').toBeGreaterThan(
        1,
      );
    });
  });

  describe('network errors', () => {
    it('a connection reset before the request is sent is retried', { timeout: 60_000 }, async () => {
      const { model, id } = await buildFixture(server, prefix());
      const ids = model.ids();
      // Every fourth call: a request fans out to dozens of parallel calls, and the SDK's retry
      // quota (500 tokens, 14 per transient retry) must not be the thing under test here.
      injector.reset({
        before: (a) => {
          if (a.attempt === 1 && a.call % 4 === 0) throw connectionReset();
        },
      });
      expectMatchesModel(await snapshot(server, ids), model, 'snapshot with resets');
      expectOk(await server.gql(REPARENT, { id: id('b'), newParentId: id('a2') }), 'reparent');
      model.move(id('b'), id('a2'));
      expectOk(await server.gql(CREATE, { input: { id: id('n'), parentId: id('b'), name: 'n' } }), 'create');
      model.create({ id: id('n'), parentId: id('b'), name: 'n', data: null });
      expectMatchesModel(await snapshot(server, [...ids, id('n')]), model, 'after writes with resets');
      expect(injector.injected).toBeGreaterThan(0);
    });

    it('a write whose response is lost is retried and applied exactly once', { timeout: 60_000 }, async () => {
      const { model, id } = await buildFixture(server, prefix());
      const ids = [...model.ids(), id('n')];
      const before = await snapshot(server, ids);
      // DynamoDB applies the first attempt of every write, then the connection drops.
      injector.reset({
        after: (a) => {
          if (a.attempt === 1 && WRITE_COMMANDS.has(a.command)) throw connectionReset();
        },
      });

      const moved = expectOk(await server.gql(REPARENT, { id: id('a1'), newParentId: id('c') }), 'reparent').reparent;
      model.move(id('a1'), id('c'));
      expect(moved.version, 'version bumped once').toBe(before.get(id('a1'))!.version + 1);

      const created = expectOk(
        await server.gql(CREATE, { input: { id: id('n'), parentId: id('c'), name: 'n' } }),
        'create',
      ).createNode;
      expect(created).toMatchObject({ id: id('n'), parentId: id('c') });
      model.create({ id: id('n'), parentId: id('c'), name: 'n', data: null });

      const renamed = expectOk(await server.gql(UPDATE, { id: id('b'), name: 'bee' }), 'update').updateNode;
      expect(renamed.version, 'version bumped once').toBe(before.get(id('b'))!.version + 1);
      model.update(id('b'), { name: 'bee' });

      expect(expectOk(await server.gql(DELETE, { id: id('a2') }), 'delete').deleteNode).toEqual({ deletedCount: 1 });
      model.remove(id('a2'));
      expect(injector.injected, 'responses were dropped').toBeGreaterThan(0);

      injector.reset(null);
      const after = await snapshot(server, ids);
      expectMatchesModel(after, model, 'after writes with lost responses');
      expect(after.get(id('c'))!.childCount).toBe(2);
      expect(after.get(id('a'))!.childCount).toBe(0);
    });
  });
});
