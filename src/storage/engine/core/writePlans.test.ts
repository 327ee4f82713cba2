import { describe, expect, it } from 'vitest';
import type { TransactionBuilder } from '../../../dynamodb/transactionBuilder.js';
import { plan } from '../../../../test/support/transactionSteps.js';
import { storedNode, testNode } from '../../../../test/support/nodes.js';
import { adjacency } from '../../strategies/adjacency/adjacency.js';
import type { TreeNode } from '../../treeStore.js';
import { edgeItem, nodeItem } from './items.js';
import {
  CHAIN_GUARDS,
  guardChainNode,
  planCreate,
  planDeleteClaimed,
  planDeleteSubtree,
  planDetachForDelete,
  planHold,
  planJoin,
  planMove,
  planReleaseHold,
  planUpdate,
  NO_COPIES,
} from './writePlans.js';

const NOW = '2026-02-01T00:00:00.000Z';

const node = (id: string, parentId: string | null, position: string, extra: Partial<TreeNode> = {}): TreeNode =>
  testNode(id, parentId, { name: id.toUpperCase(), position, ...extra });
const stored = storedNode;

/*
 * The fixture tree:
 *
 *   r (root, a0)
 *   └── m (a0)
 *       └── p (a1)
 *           ├── s1 (a0)
 *           ├── x  (a1)
 *           └── s2 (a2)
 *   q (root, a1)
 */
const r = stored(node('r', null, 'a0', { childCount: 1 }), 3);
const m = stored(node('m', 'r', 'a0', { childCount: 1 }), 2);
const p = stored(node('p', 'm', 'a1', { childCount: 3 }), 5);
const s1 = stored(node('s1', 'p', 'a0'));
const x = stored(node('x', 'p', 'a1', { version: 4, data: { k: 'v' } }), 7);
const s2 = stored(node('s2', 'p', 'a2'));
const q = stored(node('q', null, 'a1'));

const EXISTS = 'attribute_exists(pk)';
const CLOCK = 1000;
/** Still under `parentId`, alive. */
const where = (parentId: string | null) =>
  `${EXISTS} AND attribute_not_exists(deleting) AND ` +
  (parentId === null ? 'attribute_not_exists(parentId)' : `parentId = "${parentId}"`);
/** The same, and not held by a deepening move. */
const guard = (parentId: string | null) => `${where(parentId)} AND (attribute_not_exists(hold) OR hold < ${CLOCK})`;
const unchanged = (rev: number) => `${EXISTS} AND attribute_not_exists(deleting) AND rev = ${rev}`;
const bump = (delta: number) => `ADD childCount ${delta}, rev 1`;

describe('guardChainNode', () => {
  it('checks that the node exists, is not being deleted, and has the parent it was read with', () => {
    const { steps } = plan((tx) => {
      guardChainNode(tx, m, CLOCK);
      guardChainNode(tx, r, CLOCK);
    });
    expect(steps).toEqual([
      { kind: 'ConditionCheck', key: 'N#m NODE', condition: guard('r') },
      { kind: 'ConditionCheck', key: 'N#r NODE', condition: guard(null) },
    ]);
  });
});

describe('planCreate', () => {
  const created = node('new', 'p', 'a0V');
  const slot = { position: 'a0V', neighbours: [s1.node, x.node] };

  it("writes the node and its edge, bumps the parent, guards the neighbours; the chain is the strategy's", () => {
    const { steps, items } = plan((tx) => planCreate(tx, { node: created, chain: [r, m, p], slot, copies: NO_COPIES }));
    expect(steps).toEqual([
      { kind: 'Put', key: 'N#new NODE', condition: 'attribute_not_exists(pk)' },
      { kind: 'Put', key: 'N#p E#a0V#new', condition: 'attribute_not_exists(pk)' },
      { kind: 'Update', key: 'N#p NODE', update: bump(1), condition: EXISTS },
      { kind: 'Update', key: 'N#m E#a1#p', update: bump(1), condition: EXISTS },
      { kind: 'ConditionCheck', key: 'N#p E#a0#s1', condition: EXISTS },
      { kind: 'ConditionCheck', key: 'N#p E#a1#x', condition: EXISTS },
    ]);
    expect(items[0]?.Put?.Item).toEqual(nodeItem(created, 1));
    expect(items[1]?.Put?.Item).toEqual(edgeItem(created, 1));
  });

  it("with the adjacency list's chain guard: the parent's guard merges into its childCount update", () => {
    const { steps } = plan((tx) => {
      planCreate(tx, { node: created, chain: [r, m, p], slot, copies: NO_COPIES });
      adjacency.guardChain(tx, [r, m, p], CLOCK, CHAIN_GUARDS);
    });
    expect(steps).toEqual([
      { kind: 'Put', key: 'N#new NODE', condition: 'attribute_not_exists(pk)' },
      { kind: 'Put', key: 'N#p E#a0V#new', condition: 'attribute_not_exists(pk)' },
      { kind: 'Update', key: 'N#p NODE', update: bump(1), condition: guard('m') },
      { kind: 'Update', key: 'N#m E#a1#p', update: bump(1), condition: EXISTS },
      { kind: 'ConditionCheck', key: 'N#p E#a0#s1', condition: EXISTS },
      { kind: 'ConditionCheck', key: 'N#p E#a1#x', condition: EXISTS },
      { kind: 'ConditionCheck', key: 'N#r NODE', condition: guard(null) },
      { kind: 'ConditionCheck', key: 'N#m NODE', condition: guard('r') },
    ]);
  });

  it('creates a root with only its own items and its neighbour guards', () => {
    const root = node('new', null, 'a2');
    const { steps } = plan((tx) => {
      planCreate(tx, { node: root, chain: [], slot: { position: 'a2', neighbours: [q.node] }, copies: NO_COPIES });
      adjacency.guardChain(tx, [], CLOCK, CHAIN_GUARDS);
    });
    expect(steps).toEqual([
      { kind: 'Put', key: 'N#new NODE', condition: 'attribute_not_exists(pk)' },
      { kind: 'Put', key: 'ROOTS E#a2#new', condition: 'attribute_not_exists(pk)' },
      { kind: 'ConditionCheck', key: 'ROOTS E#a1#q', condition: EXISTS },
    ]);
  });
});

describe('planUpdate', () => {
  it('sets the changes, bumps version and rev, conditioned on nothing having changed', () => {
    const { steps, items } = plan((tx) => {
      const updated = planUpdate(tx, { target: x, name: 'renamed', data: { a: 1 }, now: NOW, copies: NO_COPIES });
      expect(updated).toEqual({ ...x.node, name: 'renamed', data: { a: 1 }, version: 5, updatedAt: NOW });
    });
    const update = `SET name = "renamed", version = 5, updatedAt = "${NOW}", data = {"a":1} ADD rev 1`;
    expect(steps).toEqual([
      { kind: 'Update', key: 'N#x NODE', update, condition: unchanged(7) },
      { kind: 'Update', key: 'N#p E#a1#x', update, condition: EXISTS },
    ]);
    expect(items).toHaveLength(2);
  });

  it("writes the change to the projection's copies of the node too, without their rev", () => {
    const copies = () => [{ key: { pk: 'N#m', sk: 'D#002#x' }, lacks: [] }];
    const { steps } = plan((tx) => planUpdate(tx, { target: x, name: 'renamed', now: NOW, copies }));
    expect(steps[2]).toEqual({
      kind: 'Update',
      key: 'N#m D#002#x',
      update: `SET name = "renamed", version = 5, updatedAt = "${NOW}", data = {"k":"v"}`,
      condition: EXISTS,
    });
    expect(steps).toHaveLength(3);
  });

  it('leaves out of a copy the fields it does not carry, and a copy with nothing left to change', () => {
    const copies = () => [{ key: { pk: 'N#m', sk: 'D#005#x' }, lacks: ['childCount', 'data'] as const }];
    const renamed = plan((tx) => planUpdate(tx, { target: x, name: 'renamed', now: NOW, copies })).steps;
    expect(renamed[2]).toEqual({
      kind: 'Update',
      key: 'N#m D#005#x',
      update: `SET name = "renamed", version = 5, updatedAt = "${NOW}"`,
      condition: EXISTS,
    });
    const cleared = plan((tx) => planUpdate(tx, { target: x, data: null, now: NOW, copies })).steps;
    expect(cleared[2]).toMatchObject({ update: `SET name = "X", version = 5, updatedAt = "${NOW}"` });
    const adopted = plan((tx) => planJoin(tx, { parent: x, count: 2, copies })).steps;
    expect(adopted.map((step) => step.key)).not.toContain('N#m D#005#x');
  });

  it('keeps what is not given and removes data set to null', () => {
    const { steps } = plan((tx) => {
      const updated = planUpdate(tx, { target: x, data: null, now: NOW, copies: NO_COPIES });
      expect(updated).toMatchObject({ name: 'X', data: null, version: 5 });
    });
    expect(steps[0]?.update).toBe(`SET name = "X", version = 5, updatedAt = "${NOW}" ADD rev 1 REMOVE data`);
  });
});

describe("planMove, with the adjacency list's chain guard", () => {
  /** A move as the truth's mutations compose it under the adjacency list. */
  const move = (tx: TransactionBuilder, args: Omit<Parameters<typeof planMove>[1], 'copies'>) => {
    const moved = planMove(tx, { ...args, copies: NO_COPIES });
    adjacency.guardChain(tx, args.chain, CLOCK, CHAIN_GUARDS);
    return moved;
  };

  it('reorders within the same parent without touching childCount', () => {
    const { steps, items } = plan((tx) => {
      const moved = move(tx, {
        moving: x,
        oldParent: p,
        chain: [r, m, p],
        slot: { position: 'a3', neighbours: [s2.node] },
        now: NOW,
      });
      expect(moved).toEqual({ ...x.node, position: 'a3', version: 5, updatedAt: NOW });
    });
    expect(steps).toEqual([
      {
        kind: 'Update',
        key: 'N#x NODE',
        update: `SET position = "a3", version = 5, updatedAt = "${NOW}", parentId = "p" ADD rev 1`,
        condition: unchanged(7),
      },
      { kind: 'Delete', key: 'N#p E#a1#x', condition: EXISTS },
      { kind: 'Put', key: 'N#p E#a3#x', condition: 'attribute_not_exists(pk)' },
      { kind: 'ConditionCheck', key: 'N#p E#a2#s2', condition: EXISTS },
      { kind: 'ConditionCheck', key: 'N#r NODE', condition: guard(null) },
      { kind: 'ConditionCheck', key: 'N#m NODE', condition: guard('r') },
      { kind: 'ConditionCheck', key: 'N#p NODE', condition: guard('m') },
    ]);
    expect(steps.some((s) => s.update?.includes('childCount'))).toBe(false);
    expect(items[2]?.Put?.Item).toEqual(edgeItem({ ...x.node, position: 'a3', version: 5, updatedAt: NOW }, 8));
  });

  it('moves to another parent: the old one loses a child, the new one gains it (node item and edge copy)', () => {
    const { steps } = plan((tx) =>
      move(tx, { moving: x, oldParent: p, chain: [q], slot: { position: 'a0', neighbours: [] }, now: NOW }),
    );
    expect(steps).toEqual([
      {
        kind: 'Update',
        key: 'N#x NODE',
        update: `SET position = "a0", version = 5, updatedAt = "${NOW}", parentId = "q" ADD rev 1`,
        condition: unchanged(7),
      },
      { kind: 'Delete', key: 'N#p E#a1#x', condition: EXISTS },
      { kind: 'Put', key: 'N#q E#a0#x', condition: 'attribute_not_exists(pk)' },
      { kind: 'Update', key: 'N#p NODE', update: bump(-1), condition: EXISTS },
      { kind: 'Update', key: 'N#m E#a1#p', update: bump(-1), condition: EXISTS },
      { kind: 'Update', key: 'N#q NODE', update: bump(1), condition: guard(null) },
      { kind: 'Update', key: 'ROOTS E#a1#q', update: bump(1), condition: EXISTS },
    ]);
  });

  it('moves to root: removes parentId and writes the edge into the roots collection', () => {
    const { steps } = plan((tx) => {
      const moved = move(tx, {
        moving: x,
        oldParent: p,
        chain: [],
        slot: { position: 'a2', neighbours: [q.node] },
        now: NOW,
      });
      expect(moved.parentId).toBeNull();
    });
    expect(steps).toEqual([
      {
        kind: 'Update',
        key: 'N#x NODE',
        update: `SET position = "a2", version = 5, updatedAt = "${NOW}" ADD rev 1 REMOVE parentId`,
        condition: unchanged(7),
      },
      { kind: 'Delete', key: 'N#p E#a1#x', condition: EXISTS },
      { kind: 'Put', key: 'ROOTS E#a2#x', condition: 'attribute_not_exists(pk)' },
      { kind: 'Update', key: 'N#p NODE', update: bump(-1), condition: EXISTS },
      { kind: 'Update', key: 'N#m E#a1#p', update: bump(-1), condition: EXISTS },
      { kind: 'ConditionCheck', key: 'ROOTS E#a1#q', condition: EXISTS },
    ]);
  });

  it("merges the chain guard into the old parent when it is on the new parent's chain", () => {
    // x moves down under its sibling s1: p is both the old parent and on the new chain.
    const { steps } = plan((tx) =>
      move(tx, { moving: x, oldParent: p, chain: [r, m, p, s1], slot: { position: 'a0', neighbours: [] }, now: NOW }),
    );
    expect(steps).toEqual([
      {
        kind: 'Update',
        key: 'N#x NODE',
        update: `SET position = "a0", version = 5, updatedAt = "${NOW}", parentId = "s1" ADD rev 1`,
        condition: unchanged(7),
      },
      { kind: 'Delete', key: 'N#p E#a1#x', condition: EXISTS },
      { kind: 'Put', key: 'N#s1 E#a0#x', condition: 'attribute_not_exists(pk)' },
      { kind: 'Update', key: 'N#p NODE', update: bump(-1), condition: guard('m') },
      { kind: 'Update', key: 'N#m E#a1#p', update: bump(-1), condition: EXISTS },
      { kind: 'Update', key: 'N#s1 NODE', update: bump(1), condition: guard('p') },
      { kind: 'Update', key: 'N#p E#a0#s1', update: bump(1), condition: EXISTS },
      { kind: 'ConditionCheck', key: 'N#r NODE', condition: guard(null) },
      { kind: 'ConditionCheck', key: 'N#m NODE', condition: guard('r') },
    ]);
  });

  it('merges a neighbour guard into the edge update of the old parent when x moves up beside it', () => {
    // x moves up under m, right after its old parent p: p's edge copy is both updated and a neighbour.
    const { steps } = plan((tx) =>
      move(tx, { moving: x, oldParent: p, chain: [r, m], slot: { position: 'a2', neighbours: [p.node] }, now: NOW }),
    );
    expect(steps.map((s) => [s.kind, s.key])).toEqual([
      ['Update', 'N#x NODE'],
      ['Delete', 'N#p E#a1#x'],
      ['Put', 'N#m E#a2#x'],
      ['Update', 'N#p NODE'],
      ['Update', 'N#m E#a1#p'],
      ['Update', 'N#m NODE'],
      ['Update', 'N#r E#a0#m'],
      ['ConditionCheck', 'N#r NODE'],
    ]);
    expect(steps[4]?.condition).toBe(EXISTS);
    expect(steps[5]?.condition).toBe(guard('r'));
  });
});

describe('planDeleteSubtree', () => {
  it('deletes every node item and edge, conditioned on each node being unchanged, and decrements the parent', () => {
    const { steps } = plan((tx) =>
      planDeleteSubtree(tx, { root: p, descendants: [s1, x, s2], parent: m, copies: NO_COPIES }),
    );
    expect(steps).toHaveLength(2 * 4 + 2);
    expect(steps).toEqual([
      { kind: 'Delete', key: 'N#p NODE', condition: unchanged(5) },
      { kind: 'Delete', key: 'N#m E#a1#p', condition: EXISTS },
      { kind: 'Delete', key: 'N#s1 NODE', condition: unchanged(1) },
      { kind: 'Delete', key: 'N#p E#a0#s1', condition: EXISTS },
      { kind: 'Delete', key: 'N#x NODE', condition: unchanged(7) },
      { kind: 'Delete', key: 'N#p E#a1#x', condition: EXISTS },
      { kind: 'Delete', key: 'N#s2 NODE', condition: unchanged(1) },
      { kind: 'Delete', key: 'N#p E#a2#s2', condition: EXISTS },
      { kind: 'Update', key: 'N#m NODE', update: bump(-1), condition: EXISTS },
      { kind: 'Update', key: 'N#r E#a0#m', update: bump(-1), condition: EXISTS },
    ]);
  });

  it('deletes a leaf root in two actions', () => {
    const { steps } = plan((tx) =>
      planDeleteSubtree(tx, { root: q, descendants: [], parent: null, copies: NO_COPIES }),
    );
    expect(steps).toEqual([
      { kind: 'Delete', key: 'N#q NODE', condition: unchanged(1) },
      { kind: 'Delete', key: 'ROOTS E#a1#q', condition: EXISTS },
    ]);
  });
});

describe('the delete job plans', () => {
  it('detaches the root and marks it deleting', () => {
    const { steps } = plan((tx) => planDetachForDelete(tx, { root: p, parent: m, jobId: 'job-1', copies: NO_COPIES }));
    expect(steps).toEqual([
      { kind: 'Update', key: 'N#p NODE', update: 'SET deleting = "job-1" ADD rev 1', condition: unchanged(5) },
      { kind: 'Delete', key: 'N#m E#a1#p', condition: EXISTS },
      { kind: 'Update', key: 'N#m NODE', update: bump(-1), condition: EXISTS },
      { kind: 'Update', key: 'N#r E#a0#m', update: bump(-1), condition: EXISTS },
    ]);
  });

  it('holds a node whose subtree a move takes deeper, and releases it with the move', () => {
    expect(plan((tx) => planHold(tx, p, CLOCK, CLOCK + 5000)).steps).toEqual([
      {
        kind: 'Update',
        key: 'N#p NODE',
        update: `SET hold = ${CLOCK + 5000}`,
        condition:
          `${EXISTS} AND attribute_not_exists(deleting) AND rev = ${p.rev} ` +
          `AND (attribute_not_exists(hold) OR hold < ${CLOCK})`,
      },
    ]);
    expect(plan((tx) => planReleaseHold(tx, p, 6000)).steps).toEqual([
      { kind: 'Update', key: 'N#p NODE', update: 'REMOVE hold', condition: 'hold = 6000' },
    ]);
  });

  it("deletes the nodes the job claims and their edges, except the root's edge (already gone)", () => {
    const { steps } = plan((tx) => planDeleteClaimed(tx, { nodes: [s1, p], jobId: 'job-1', rootId: 'p' }));
    expect(steps).toEqual([
      { kind: 'Delete', key: 'N#s1 NODE', condition: 'claim = "job-1"' },
      { kind: 'Delete', key: 'N#p E#a0#s1' },
      { kind: 'Delete', key: 'N#p NODE', condition: 'claim = "job-1"' },
    ]);
  });
});
