import { describe, expect, it } from 'vitest';
import { keyString, type Item, type Key } from '../../dynamodb/keys.js';
import { closureSk } from '../strategies/closure/closureKeys.js';
import { encodePath, levelKey, levelPk } from '../strategies/path/levelKeys.js';
import type { StrategyName } from '../strategies/strategies.js';
import { chainsOf } from '../engine/core/chains.js';
import { verifyItems, type Problem } from './verify.js';

/**
 * Tables built by hand, item by item, in the layout the strategies write: node items, edge
 * copies in the parent's collection (or ROOTS), and the level items or closure rows.
 *
 *   r ── a ── a1 ── a11        s ── s1
 *     │    └─ a2
 *     └─ b
 */
const TREE: Array<[id: string, parent: string | null]> = [
  ['r', null],
  ['a', 'r'],
  ['a1', 'a'],
  ['a11', 'a1'],
  ['a2', 'a'],
  ['b', 'r'],
  ['s', null],
  ['s1', 's'],
];
const MAX_DEPTH = 8;
const NOW = '2026-01-01T00:00:00.000Z';

type Row = Item & Key;

function chainOf(id: string): string[] {
  const chain: string[] = [];
  for (let parent = TREE.find(([n]) => n === id)?.[1] ?? null; parent !== null;) {
    chain.unshift(parent);
    parent = TREE.find(([n]) => n === parent)?.[1] ?? null;
  }
  return chain;
}

/** The attributes a node item and its edge copy share. */
function attributes(id: string, parent: string | null, position: string): Item {
  return {
    id,
    ...(parent !== null ? { parentId: parent } : {}),
    name: `name of ${id}`,
    position,
    version: 1,
    childCount: TREE.filter(([, p]) => p === id).length,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

/** The node item of `id` and every item that carries a copy of it (edge, level item, rows). */
const copiesOf = (table: Table, id: string): Row[] =>
  table.items.filter((item) => item.id === id && 'childCount' in item);

interface Table {
  items: Row[];
  /** The item at (pk, sk); throws when absent. */
  get(pk: string, sk: string): Row;
  remove(pk: string, sk: string): void;
}

function healthy(strategy: StrategyName): Table {
  const items: Row[] = [];
  TREE.forEach(([id, parent], index) => {
    const position = `a${index}`;
    const chain = chainOf(id);
    const own = attributes(id, parent, position);
    items.push({ pk: `N#${id}`, sk: 'NODE', ...own, rev: 1, ...(strategy !== 'adjacency' ? { path: chain } : {}) });
    items.push({ pk: parent === null ? 'ROOTS' : `N#${parent}`, sk: `E#${position}#${id}`, ...own, rev: 1 });
    // Level items, and closure rows up to distance 3, carry a copy of their node.
    if (strategy === 'path') items.push({ ...levelKey(chain, id), id, path: chain, ...own });
    if (strategy === 'closure') {
      chain.forEach((ancestor, i) => {
        const distance = chain.length - i;
        items.push({ pk: `N#${ancestor}`, sk: closureSk(distance, id), id, ...(distance <= 3 ? own : {}) });
      });
    }
  });
  const find = (pk: string, sk: string) => items.findIndex((item) => item.pk === pk && item.sk === sk);
  return {
    items,
    get(pk, sk) {
      const item = items[find(pk, sk)];
      if (!item) throw new Error(`no item ${pk} ${sk}`);
      return item;
    },
    remove(pk, sk) {
      const index = find(pk, sk);
      if (index < 0) throw new Error(`no item ${pk} ${sk}`);
      items.splice(index, 1);
    },
  };
}

const edgeSkOf = (id: string) => `E#a${TREE.findIndex(([n]) => n === id)}#${id}`;
const check = (table: Table, strategy: StrategyName): Problem[] => verifyItems(table.items, strategy, MAX_DEPTH);
const namedNodes = (problems: Problem[]): string[] => [...new Set(problems.map((p) => p.nodeId))].sort();
const problemsOf = (problems: Problem[], id: string): string[] =>
  problems.filter((p) => p.nodeId === id).map((p) => p.problem);

describe('chainsOf', () => {
  const nodes = (pairs: Array<[string, string | null]>) =>
    new Map(pairs.map(([id, parentId]) => [id, parentId === null ? { id } : { id, parentId }]));

  it('gives every node its ancestors, root first', () => {
    const facts = chainsOf(nodes(TREE), MAX_DEPTH);
    expect(facts.get('r')).toEqual({ id: 'r', parentId: null, chain: [] });
    expect(facts.get('a11')).toEqual({ id: 'a11', parentId: 'a1', chain: ['r', 'a', 'a1'] });
    expect(facts.get('s1')).toEqual({ id: 's1', parentId: 's', chain: ['s'] });
    expect(facts.size).toBe(TREE.length);
  });

  it('reports an orphan and everything below it, naming the missing ancestor', () => {
    const facts = chainsOf(
      nodes([
        ['x', 'gone'],
        ['y', 'x'],
        ['z', null],
      ]),
      MAX_DEPTH,
    );
    expect(facts.get('x')).toMatchObject({ chain: null, problem: 'orphan: ancestor gone does not exist' });
    expect(facts.get('y')).toMatchObject({ chain: null, problem: 'orphan: ancestor gone does not exist' });
    expect(facts.get('z')).toEqual({ id: 'z', parentId: null, chain: [] });
  });

  it('reports a cycle, and the nodes hanging below it', () => {
    const facts = chainsOf(
      nodes([
        ['x', 'y'],
        ['y', 'x'],
        ['self', 'self'],
        ['below', 'x'],
      ]),
      MAX_DEPTH,
    );
    expect(facts.get('x')).toMatchObject({ chain: null, problem: 'cycle through x' });
    expect(facts.get('y')).toMatchObject({ chain: null, problem: 'cycle through y' });
    expect(facts.get('self')).toMatchObject({ chain: null, problem: 'cycle through self' });
    expect(facts.get('below')?.chain).toBeNull();
    expect(facts.get('below')?.problem).toMatch(/^cycle through /);
  });

  it('stops walking far below the depth limit', () => {
    const pairs: Array<[string, string | null]> = Array.from({ length: 12 }, (_, i) => [
      `c${i}`,
      i === 0 ? null : `c${i - 1}`,
    ]);
    const facts = chainsOf(nodes(pairs), 4);
    expect(facts.get('c4')?.chain).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(facts.get('c11')).toMatchObject({ chain: null, problem: 'deeper than 4' });
  });
});

describe.each(['adjacency', 'path', 'closure'] as const)('verifyItems, %s', (strategy) => {
  it('finds nothing wrong in a healthy table', () => {
    const table = healthy(strategy);
    expect(check(table, strategy)).toEqual([]);
    // Item order does not matter.
    expect(verifyItems([...table.items].reverse(), strategy, MAX_DEPTH)).toEqual([]);
  });

  it('reports orphans when a node item is missing', () => {
    const table = healthy(strategy);
    table.remove('N#a', 'NODE');
    const problems = check(table, strategy);
    for (const id of ['a1', 'a11', 'a2']) {
      expect(problemsOf(problems, id)).toContain('orphan: ancestor a does not exist');
    }
    // a's edge copy (and its projection items) are left with no node behind them.
    expect(problemsOf(problems, 'a')).toContain(`stray edge item N#r ${edgeSkOf('a')}`);
    expect(problemsOf(problems, 'a').every((p) => p.startsWith('stray '))).toBe(true);
    expect(namedNodes(problems)).toEqual(['a', 'a1', 'a11', 'a2']);
  });

  it('reports a cycle', () => {
    const table = healthy(strategy);
    table.get('N#a', 'NODE').parentId = 'a11';
    const problems = check(table, strategy);
    for (const id of ['a', 'a1', 'a11', 'a2']) {
      expect(problemsOf(problems, id).some((p) => p.startsWith('cycle through '))).toBe(true);
    }
    expect(namedNodes(problems)).toEqual(['a', 'a1', 'a11', 'a2']);
  });

  it('reports a wrong childCount', () => {
    const table = healthy(strategy);
    for (const copy of copiesOf(table, 'r')) copy.childCount = 5;
    expect(check(table, strategy)).toEqual([{ nodeId: 'r', problem: 'childCount 5, but 2 children' }]);
  });

  it('reports a missing edge copy (and the parent that counts it)', () => {
    const table = healthy(strategy);
    table.remove('N#r', edgeSkOf('b'));
    expect(check(table, strategy)).toEqual([
      { nodeId: 'r', problem: 'childCount 2, but 1 children' },
      { nodeId: 'b', problem: 'has no edge item in its parent collection' },
    ]);
  });

  it('reports an edge copy that differs from its node', () => {
    const table = healthy(strategy);
    table.get('N#a', edgeSkOf('a2')).name = 'renamed in the copy only';
    expect(check(table, strategy)).toEqual([{ nodeId: 'a2', problem: 'edge copy differs from the node' }]);
  });

  it('ignores the internal rev and the order of attributes when comparing an edge copy', () => {
    const table = healthy(strategy);
    const edge = table.get('N#a', edgeSkOf('a2'));
    table.remove('N#a', edgeSkOf('a2'));
    table.items.push(Object.fromEntries(Object.entries({ ...edge, rev: 9 }).reverse()) as Row);
    expect(check(table, strategy)).toEqual([]);
  });

  it('reports stray edge items', () => {
    const table = healthy(strategy);
    // A copy of a1 left in b's collection, and an edge for a node that does not exist.
    table.items.push({ ...table.get('N#a', edgeSkOf('a1')), pk: 'N#b' });
    table.items.push({ pk: 'ROOTS', sk: 'E#zz#ghost', id: 'ghost', name: 'ghost', position: 'zz', version: 1 });
    expect(check(table, strategy)).toEqual([
      { nodeId: 'b', problem: 'childCount 0, but 1 children' },
      { nodeId: 'a1', problem: `stray edge item N#b ${edgeSkOf('a1')}` },
      { nodeId: 'ghost', problem: 'stray edge item ROOTS E#zz#ghost' },
    ]);
  });

  it('skips the nodes of a delete in progress, and what is left of them', () => {
    const table = healthy(strategy);
    // Delete job on a: its subtree is marked, a11 is gone already, a's edge copy is detached.
    for (const id of ['a', 'a1', 'a11', 'a2']) table.get(`N#${id}`, 'NODE').deleting = 'job-1';
    table.remove('N#a11', 'NODE');
    table.remove('N#r', edgeSkOf('a'));
    for (const copy of copiesOf(table, 'r')) copy.childCount = 1;
    table.get('N#a1', 'NODE').name = 'half-written';
    table.items.push({ pk: 'JOBS', sk: 'DELETE#a', jobId: 'job-1', nodeId: 'a', createdAt: NOW });
    expect(check(table, strategy)).toEqual([]);
  });

  it('skips the subtree of a running delete job, whose root alone is marked', () => {
    const table = healthy(strategy);
    table.get('N#a', 'NODE').deleting = 'job-1';
    for (const id of ['a', 'a1', 'a11', 'a2']) table.get(`N#${id}`, 'NODE').claim = 'job-1';
    table.remove('N#a11', 'NODE');
    table.remove('N#r', edgeSkOf('a'));
    for (const copy of copiesOf(table, 'r')) copy.childCount = 1;
    table.items.push({ pk: 'JOBS', sk: 'JOB#job-1', id: 'job-1', kind: 'DELETE', status: 'RUNNING', nodeId: 'a' });
    expect(check(table, strategy)).toEqual([]);
  });

  it('reports a node claimed by a job that is not running', () => {
    const table = healthy(strategy);
    table.get('N#a1', 'NODE').claim = 'job-9';
    expect(check(table, strategy)).toEqual([{ nodeId: 'a1', problem: 'claimed by job job-9, which is not running' }]);
  });

  it('reports a live node under a node that is being deleted', () => {
    const table = healthy(strategy);
    table.get('N#a1', 'NODE').deleting = 'job-1';
    expect(check(table, strategy)).toEqual([{ nodeId: 'a11', problem: 'lives under a node that is being deleted' }]);
  });

  it('reports a node deeper than the limit', () => {
    const table = healthy(strategy);
    expect(verifyItems(table.items, strategy, 2)).toEqual([{ nodeId: 'a11', problem: 'depth 3 is over 2' }]);
  });

  if (strategy === 'adjacency') {
    it('does not look at stored paths or projection items of other strategies', () => {
      const table = healthy('closure');
      table.get('N#a11', 'NODE').path = ['s'];
      table.items.push(...healthy('path').items.filter((item) => item.pk.startsWith('L#')));
      expect(check(table, 'adjacency')).toEqual([]);
    });
  } else {
    it('reports a wrong or missing stored path', () => {
      const table = healthy(strategy);
      table.get('N#a11', 'NODE').path = ['r', 'b', 'a1'];
      delete table.get('N#s1', 'NODE').path;
      expect(check(table, strategy)).toEqual([
        { nodeId: 'a11', problem: 'stored path ["r","b","a1"], expected ["r","a","a1"]' },
        { nodeId: 's1', problem: 'stored path null, expected ["s"]' },
      ]);
    });
  }

  if (strategy === 'path') {
    it('reports a missing level item', () => {
      const table = healthy(strategy);
      const key = levelKey(['r', 'a'], 'a1');
      table.remove(key.pk, key.sk);
      expect(check(table, strategy)).toEqual([{ nodeId: 'a1', problem: `missing projection item L#r#2 ${key.sk}` }]);
    });

    it('reports a stray level item', () => {
      const table = healthy(strategy);
      // a1's level item from before a move (under b), never removed.
      table.items.push({ ...levelKey(['r', 'b'], 'a1'), id: 'a1', path: ['r', 'b'] });
      expect(check(table, strategy)).toEqual([
        { nodeId: 'a1', problem: `stray level item L#r#2 ${encodePath(['r', 'b', 'a1'])}` },
      ]);
    });

    it('reports a level item that differs', () => {
      const table = healthy(strategy);
      const key = levelKey(['r', 'a', 'a1'], 'a11');
      table.get(key.pk, key.sk).path = ['r', 'b', 'a1'];
      table.get(levelPk('s', 1), encodePath(['s', 's1'])).extra = 1;
      expect(check(table, strategy)).toEqual([
        { nodeId: 'a11', problem: `projection item L#r#3 ${key.sk} differs` },
        { nodeId: 's1', problem: `projection item L#s#1 ${encodePath(['s', 's1'])} differs` },
      ]);
    });

    it('does not take closure rows for level items', () => {
      const table = healthy(strategy);
      table.items.push(...healthy('closure').items.filter((item) => item.sk.startsWith('D#')));
      expect(check(table, strategy)).toEqual([]);
    });
  }

  if (strategy === 'closure') {
    it('reports a closure row whose copy of its node is stale', () => {
      const table = healthy(strategy);
      table.get('N#a', closureSk(2, 'a11')).name = 'before a rename';
      expect(check(table, strategy)).toEqual([{ nodeId: 'a11', problem: 'projection item N#a D#002#a11 differs' }]);
    });

    it('reports a missing closure row', () => {
      const table = healthy(strategy);
      table.remove('N#r', closureSk(3, 'a11'));
      expect(check(table, strategy)).toEqual([{ nodeId: 'a11', problem: 'missing projection item N#r D#003#a11' }]);
    });

    it('reports stray closure rows', () => {
      const table = healthy(strategy);
      table.items.push({ pk: 'N#b', sk: closureSk(1, 'a1'), id: 'a1' });
      table.items.push({ pk: 'N#r', sk: closureSk(3, 'a1'), id: 'a1' });
      expect(check(table, strategy)).toEqual([
        { nodeId: 'a1', problem: 'stray closure item N#b D#001#a1' },
        { nodeId: 'a1', problem: 'stray closure item N#r D#003#a1' },
      ]);
    });

    it('does not take level items for closure rows', () => {
      const table = healthy(strategy);
      table.items.push(...healthy('path').items.filter((item) => item.pk.startsWith('L#')));
      expect(check(table, strategy)).toEqual([]);
    });
  }

  it('keeps every key of the hand-built table distinct', () => {
    const keys = healthy(strategy).items.map(keyString);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
