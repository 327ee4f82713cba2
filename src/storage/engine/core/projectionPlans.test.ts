import { describe, expect, it } from 'vitest';
import { plan } from '../../../../test/support/transactionSteps.js';
import { storedNode, testNode } from '../../../../test/support/nodes.js';
import type { MovedNode, Place, StoredNode } from '../../strategy.js';
import type { JsonObject } from '../../treeStore.js';
import { adjacency } from '../../strategies/adjacency/adjacency.js';
import { closure } from '../../strategies/closure/closure.js';
import { levelKey } from '../../strategies/path/levelKeys.js';
import { path } from '../../strategies/path/path.js';
import {
  placeOf,
  planProjectionCreate,
  planProjectionDelete,
  planProjectionMove,
  subtreePlaces,
} from './projectionPlans.js';

/** A place of path-keeping strategies (they keep no lineage). */
const at = (path: string[]): Place => ({ path, lineage: [], keys: path.map(() => '') });

function stored(id: string, parentId: string | null, rev: number, nodePath?: string[]): StoredNode {
  return storedNode(testNode(id, parentId, nodePath ? { path: nodePath } : {}), rev);
}

/*
 * x (under r, m) moves with its child y under q, a root:  r ── m ── x ── y   becomes   q ── x ── y
 */
const x = stored('x', 'm', 4, ['r', 'm']);
const y = stored('y', 'x', 2, ['r', 'm', 'x']);
const moved: MovedNode[] = [
  { stored: x, place: at(['r', 'm']), newPlace: at(['q']) },
  { stored: y, place: at(['r', 'm', 'x']), newPlace: at(['q', 'x']) },
];
const level = (p: string[], id: string) => {
  const key = levelKey(p, id);
  return `${key.pk} ${key.sk}`;
};

describe('planProjectionMove', () => {
  it('writes nothing under adjacency: a move stays O(1) whatever the subtree', () => {
    expect(plan((tx) => planProjectionMove(tx, adjacency, moved)).steps).toEqual([]);
  });

  it("under path, replaces each node's level item and rewrites its path where it still holds the old one", () => {
    const { steps } = plan((tx) => planProjectionMove(tx, path, moved));
    expect(steps).toEqual([
      { kind: 'Delete', key: level(['r', 'm'], 'x') },
      { kind: 'Put', key: level(['q'], 'x') },
      {
        kind: 'Update',
        key: 'N#x NODE',
        update: 'SET path = ["q"]',
        condition: 'attribute_exists(pk) AND path = ["r","m"] AND rev = 4',
      },
      { kind: 'Delete', key: level(['r', 'm', 'x'], 'y') },
      { kind: 'Put', key: level(['q', 'x'], 'y') },
      {
        kind: 'Update',
        key: 'N#y NODE',
        update: 'SET path = ["q","x"]',
        condition: 'attribute_exists(pk) AND path = ["r","m","x"] AND rev = 2',
      },
    ]);
  });

  it('under closure, writes only the rows that change: the rows inside the subtree stay', () => {
    const { steps } = plan((tx) => planProjectionMove(tx, closure, moved));
    const rows = steps.filter((s) => s.key.includes(' D#')).map((s) => `${s.kind} ${s.key}`);
    expect(rows).toEqual([
      'Delete N#r D#002#x',
      'Delete N#m D#001#x',
      'Put N#q D#001#x',
      'Delete N#r D#003#y',
      'Delete N#m D#002#y',
      'Put N#q D#002#y',
    ]);
    // y's row under x (distance 1) is the same before and after: not written.
    expect(steps.some((s) => s.key === 'N#x D#001#y')).toBe(false);
  });
});

describe('planProjectionCreate and planProjectionDelete', () => {
  const n = stored('n', 'm', 1).node;

  it("put a new node's items", () => {
    expect(
      plan((tx) => planProjectionCreate(tx, closure, n, at(['r', 'm']))).steps.map((s) => `${s.kind} ${s.key}`),
    ).toEqual(['Put N#r D#002#n', 'Put N#m D#001#n']);
    expect(plan((tx) => planProjectionCreate(tx, adjacency, n, at(['r', 'm']))).steps).toEqual([]);
  });

  it('put a copy of the node in the items that carry one: closure rows, past distance 3 without childCount', () => {
    const puts = (items: unknown[]) =>
      items.map((item) => (item as { Put: { Item: Record<string, unknown> } }).Put.Item);
    const rows = puts(plan((tx) => planProjectionCreate(tx, closure, n, at(['a', 'b', 'c', 'd']))).items);
    expect(rows.map((row) => `${String(row.sk)} ${typeof row.name === 'string' ? row.name : '-'}`)).toEqual([
      'D#004#n n',
      'D#003#n n',
      'D#002#n n',
      'D#001#n n',
    ]);
    expect(rows[1]).toMatchObject({ parentId: 'm', position: 'a0', childCount: 0, version: 1 });
    expect(rows[0]).toMatchObject({ parentId: 'm', position: 'a0', version: 1 });
    expect(rows[0]).not.toHaveProperty('childCount');
    expect(rows[0]).not.toHaveProperty('data');
    const [levelItem] = puts(plan((tx) => planProjectionCreate(tx, path, n, at(['r', 'm']))).items);
    expect(levelItem).toMatchObject({ name: 'n', path: ['r', 'm'] });
  });

  it('delete the items of a place, on the condition that the node still keeps that place', () => {
    const { steps } = plan((tx) => planProjectionDelete(tx, path, [{ stored: y, place: at(['r', 'm', 'x']) }]));
    expect(steps).toEqual([
      { kind: 'ConditionCheck', key: 'N#y NODE', condition: 'path = ["r","m","x"]' },
      { kind: 'Delete', key: level(['r', 'm', 'x'], 'y') },
    ]);
    expect(plan((tx) => planProjectionDelete(tx, adjacency, [{ stored: y, place: at([]) }])).steps).toEqual([]);
  });
});

describe('places', () => {
  it("reads a node's place from its kept path, or empty where the strategy keeps none", () => {
    expect(placeOf(path, y)).toEqual(at(['r', 'm', 'x']));
    expect(placeOf(adjacency, stored('z', 'x', 1))).toEqual(at([]));
    expect(() => placeOf(closure, stored('z', 'x', 1))).toThrow(
      'node "z" has no stored place; rebuild the projections',
    );
  });

  it('derives the places of a subtree read level by level from its root: ancestors, positions, path keys', () => {
    const z = stored('z', 'y', 1);
    const xPlace = { path: ['r', 'm'], lineage: ['a1', 'a2', 'a3'], keys: ['m-key', 'x-key'] };
    const keyOf = (node: { data: JsonObject | null }) => (typeof node.data?.slug === 'string' ? node.data.slug : '');
    const slugged = (s: StoredNode): StoredNode => ({ ...s, node: { ...s.node, data: { slug: `${s.node.id}-key` } } });
    expect(subtreePlaces(x, xPlace, [[slugged(y)], [z]], keyOf).map((p) => [p.stored.node.id, p.place])).toEqual([
      ['x', xPlace],
      ['y', { path: ['r', 'm', 'x'], lineage: ['a1', 'a2', 'a3', 'a0'], keys: ['m-key', 'x-key', 'y-key'] }],
      [
        'z',
        { path: ['r', 'm', 'x', 'y'], lineage: ['a1', 'a2', 'a3', 'a0', 'a0'], keys: ['m-key', 'x-key', 'y-key', ''] },
      ],
    ]);
    expect(() => subtreePlaces(x, at([]), [[z]], keyOf)).toThrow('subtree read out of order at z');
  });
});
