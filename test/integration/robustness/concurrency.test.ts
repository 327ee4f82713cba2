/**
 * Two server processes share one table and receive structural writes all at once. No model
 * can predict which writes win, so the test checks what must hold whatever the interleaving:
 * the result is still a forest (every parent exists, no cycle), every derived field and
 * connection agrees with the parent pointers, both processes give the same answers, and every
 * refused write was refused with a typed code (HTTP 200, never INTERNAL_SERVER_ERROR).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGIES_UNDER_TEST, startTestServer, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { allRoots, checkForest, snapshot } from '../../support/invariants.js';
import { prng } from '../../support/prng.js';

const REPARENT = `mutation Reparent($id: ID!, $newParentId: ID, $before: ID, $after: ID) {
  reparent(id: $id, newParentId: $newParentId, before: $before, after: $after) { id parentId depth version }
}`;
const CREATE = `mutation Create($input: CreateNodeInput!) { createNode(input: $input) { id parentId depth } }`;
const DELETE = `mutation Delete($id: ID!) { deleteNode(id: $id) { deletedCount } }`;

/** Rounds of 80 concurrent moves, each from the tree the previous round left (`npm run test:soak`: 6). */
const ROUNDS = Number(process.env.CONCURRENCY_ROUNDS ?? 1);

const TYPED_CODES = ['CYCLE', 'CONFLICT', 'VERSION_CONFLICT', 'NOT_FOUND', 'BAD_USER_INPUT', 'DEPTH_LIMIT'];

/** A fresh seed per run (CONCURRENCY_SEED replays one); every failure message names it. */
const baseSeed = Number(process.env.CONCURRENCY_SEED ?? Date.now() % 2 ** 31);

interface Write {
  kind: 'reparent' | 'create' | 'delete';
  server: TestServer;
  query: string;
  variables: Record<string, unknown>;
  /** The only code this write may fail with, when the outcome is certain whatever the order. */
  mustFailWith?: string;
}

interface Outcome {
  write: Write;
  response: GraphQLResponse;
  ok: boolean;
  code?: string;
}

/** Builds a random tree of `count` nodes (each under an earlier one), alternating servers. */
async function buildTree(
  servers: TestServer[],
  prefix: string,
  count: number,
  random: () => number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    const parentId = i === 0 ? null : ids[Math.floor(random() * ids.length)]!;
    const server = servers[i % servers.length]!;
    const response = await server.gql(CREATE, { input: { id, parentId, name: `node ${i}` } });
    expect(response.body.errors, `creating ${id}`).toBeUndefined();
    ids.push(id);
  }
  return ids;
}

/** Sends every write at once and checks each answer's shape. */
async function sendAll(writes: Write[], seed: number): Promise<Outcome[]> {
  const responses = await Promise.all(writes.map((w) => w.server.gql(w.query, w.variables)));
  return responses.map((response, i) => {
    const write = writes[i]!;
    const context =
      `seed ${seed}: ${write.kind} ${JSON.stringify(write.variables)} ` +
      `-> HTTP ${response.status} ${JSON.stringify(response.body)}`;
    expect(response.status, context).toBe(200);
    const errors = response.body.errors;
    if (!errors) {
      expect(response.body.data, context).toBeTruthy();
      expect(write.mustFailWith, context).toBeUndefined();
      return { write, response, ok: true };
    }
    const code = errors[0]?.extensions?.code as string | undefined;
    expect(errors, context).toHaveLength(1);
    expect(TYPED_CODES, context).toContain(code);
    if (write.mustFailWith) expect(code, context).toBe(write.mustFailWith);
    expect(
      Object.values(response.body.data ?? {}).every((v) => v === null),
      context,
    ).toBe(true);
    return { write, response, ok: false, code };
  });
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

describe.each(STRATEGIES_UNDER_TEST)('concurrent writes from two processes on one table (%s)', (strategy) => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    // With AWS's transaction conflicts (transactionConflicts.ts): DynamoDB Local never raises them.
    a = await startTestServer({ strategy, emulateConflicts: true });
    b = await startTestServer({ strategy, table: a.table, emulateConflicts: true });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it(
    'rounds of 80 concurrent reparents (opposite pairs, moves under descendants) leave a consistent tree',
    { timeout: 150_000 },
    async () => {
      const seed = baseSeed;
      const random = prng(seed);
      const servers = [a, b];
      const ids = await buildTree(servers, 'c_', 12, random);
      let current = await snapshot(a, ids);
      expect(checkForest(current), `seed ${seed}: the starting tree`).toEqual([]);
      const anyId = () => ids[Math.floor(random() * ids.length)]!;
      const reparent = (server: TestServer, variables: Record<string, unknown>, mustFailWith?: string): Write => ({
        kind: 'reparent',
        server,
        query: REPARENT,
        variables,
        mustFailWith,
      });

      // Each round starts from the tree the previous one left.
      for (let round = 1; round <= ROUNDS; round++) {
        const initial = current;
        const below = (id: string): string[] => initial.get(id)!.descendants.map((d) => d.id);
        const writes: Write[] = [];
        // Opposite pairs, each half on a different process: they cannot both commit as sent.
        for (let i = 0; i < 12; i++) {
          const x = anyId();
          let y = anyId();
          if (y === x) y = ids[(ids.indexOf(x) + 1) % ids.length]!;
          writes.push(reparent(a, { id: x, newParentId: y }), reparent(b, { id: y, newParentId: x }));
        }
        // Under one of its own descendants (as of the round's start; other moves may change that).
        for (let i = 0; i < 16; i++) {
          const candidates = ids.filter((id) => below(id).length > 0);
          const x = candidates[Math.floor(random() * candidates.length)] ?? anyId();
          const under = below(x);
          const y = under[Math.floor(random() * under.length)] ?? anyId();
          writes.push(reparent(servers[i % 2]!, { id: x, newParentId: y }));
        }
        // Under itself: a cycle whatever else happens.
        for (let i = 0; i < 4; i++) {
          const x = anyId();
          writes.push(reparent(servers[i % 2]!, { id: x, newParentId: x }, 'CYCLE'));
        }
        // Anything else: random targets, some to the top level, some placed before/after a sibling.
        while (writes.length < 80) {
          const x = anyId();
          const roll = random();
          const target = roll < 0.1 ? null : anyId();
          const variables: Record<string, unknown> = { id: x, newParentId: target };
          if (roll > 0.7 && target !== null) {
            const siblings = initial
              .get(target)!
              .children.map((c) => c.id)
              .filter((c) => c !== x);
            const sibling = siblings[Math.floor(random() * siblings.length)];
            if (sibling) variables[roll > 0.85 ? 'before' : 'after'] = sibling;
          }
          writes.push(reparent(servers[writes.length % 2]!, variables));
        }

        const outcomes = await sendAll(shuffle(writes, random), seed);
        const context =
          `seed ${seed}, round ${round}, ` +
          `outcomes: ${JSON.stringify(outcomes.map((o) => [o.write.variables, o.code ?? 'ok']))}`;
        expect(outcomes.filter((o) => o.ok).length, `no move succeeded; ${context}`).toBeGreaterThan(0);

        const [fromA, fromB] = await Promise.all([snapshot(a, ids), snapshot(b, ids)]);
        expect(checkForest(fromA), context).toEqual([]);
        for (const id of ids) {
          expect(fromA.get(id), `${id} vanished; ${context}`).toBeTruthy();
          expect(fromA.get(id)!.version, `${id}.version went back`).toBeGreaterThanOrEqual(initial.get(id)!.version);
        }
        // Both processes read the same tree (no process-local state).
        expect(fromB, `the second process disagrees with the first; ${context}`).toEqual(fromA);
        const roots = (await allRoots(a)).filter((id) => id.startsWith('c_'));
        const pointerRoots = ids.filter((id) => fromA.get(id)!.parentId === null);
        expect([...roots].sort(), `roots listing vs parent pointers; ${context}`).toEqual(pointerRoots.sort());
        expect(new Set(roots).size, 'roots listing has duplicates').toBe(roots.length);
        current = fromA;
      }
    },
  );

  it('siblings created concurrently can still be named in before/after', { timeout: 60_000 }, async () => {
    const parent = 's_p';
    expect((await a.gql(CREATE, { input: { id: parent, name: 'parent' } })).body.errors).toBeUndefined();
    // Six appends at once, from both processes: each asks for "last".
    const appended = Array.from({ length: 6 }, (_, i) => `s_k${i}`);
    const created = await Promise.all(
      appended.map((id, i) => [a, b][i % 2]!.gql(CREATE, { input: { id, parentId: parent, name: id } })),
    );
    for (const response of created) expect(response.body.errors).toBeUndefined();
    const childrenOf = async () => (await snapshot(a, [parent])).get(parent)!.children.map((c) => c.id);
    let order = await childrenOf();
    expect([...order].sort()).toEqual(appended);
    // Then, one at a time, a node before and a node after each of them (ids that sort after
    // theirs, so that a tie in position broken by id would put them on the wrong side).
    for (const [i, sibling] of appended.entries()) {
      const before = `s_z${i}b`;
      const after = `s_a${i}a`;
      expect(
        (await a.gql(CREATE, { input: { id: before, parentId: parent, name: before, before: sibling } })).body.errors,
      ).toBeUndefined();
      expect(
        (await b.gql(CREATE, { input: { id: after, parentId: parent, name: after, after: sibling } })).body.errors,
      ).toBeUndefined();
      const expected = [...order];
      expected.splice(expected.indexOf(sibling), 0, before);
      expected.splice(expected.indexOf(sibling) + 1, 0, after);
      order = await childrenOf();
      expect(order, `before/after ${sibling}`).toEqual(expected);
    }
  });

  it('concurrent deletes, moves and creates leave no orphans', { timeout: 120_000 }, async () => {
    const servers = [a, b];
    // Each round on a fresh tree of its own.
    for (let round = 1; round <= ROUNDS; round++) {
      const seed = baseSeed + round;
      const random = prng(seed);
      const prefix = `d${round}_`;
      const ids = await buildTree(servers, prefix, 10, random);
      const anyId = () => ids[Math.floor(random() * ids.length)]!;

      const writes: Write[] = [];
      const created: string[] = [];
      for (let i = 0; i < 8; i++) {
        writes.push({ kind: 'delete', server: servers[i % 2]!, query: DELETE, variables: { id: anyId() } });
      }
      for (let i = 0; i < 12; i++) {
        const x = anyId();
        const target = random() < 0.1 ? null : anyId();
        writes.push({
          kind: 'reparent',
          server: servers[(i + 1) % 2]!,
          query: REPARENT,
          variables: { id: x, newParentId: target },
        });
      }
      for (let i = 0; i < 12; i++) {
        const id = `${prefix}new${i}`;
        created.push(id);
        writes.push({
          kind: 'create',
          server: servers[i % 2]!,
          query: CREATE,
          variables: { input: { id, parentId: anyId(), name: `new ${i}` } },
        });
      }

      const outcomes = await sendAll(shuffle(writes, random), seed);
      const all = [...ids, ...created];
      const [fromA, fromB] = await Promise.all([snapshot(a, all), snapshot(b, all)]);
      const context =
        `seed ${seed}, ` +
        `outcomes: ${JSON.stringify(outcomes.map((o) => [o.write.kind, o.write.variables, o.code ?? 'ok']))}`;
      expect(checkForest(fromA), context).toEqual([]);
      expect(fromB, `the second process disagrees with the first; ${context}`).toEqual(fromA);

      for (const outcome of outcomes) {
        const variables = outcome.write.variables as { id?: string; input?: { id: string } };
        if (outcome.write.kind === 'create' && !outcome.ok) {
          expect(fromA.get(variables.input!.id), `a refused create left a node behind; ${context}`).toBeNull();
        }
        if (outcome.write.kind === 'delete' && outcome.ok) {
          expect(fromA.get(variables.id!), `a deleted node is still there; ${context}`).toBeNull();
          expect(outcome.response.body.data.deleteNode.deletedCount).toBeGreaterThanOrEqual(1);
        }
      }
      // Every live node is reachable from a listed root.
      const live = all.filter((id) => fromA.get(id));
      const roots = (await allRoots(a)).filter((id) => id.startsWith(prefix));
      const reachable = new Set(roots.flatMap((r) => [r, ...(fromA.get(r)?.descendants.map((d) => d.id) ?? [])]));
      expect([...reachable].sort(), `reachable from roots vs live nodes; ${context}`).toEqual(live.sort());
    }
  });
});
