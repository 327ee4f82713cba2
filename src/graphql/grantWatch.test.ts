import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '../auth/caller.js';
import type { TreeNode, TreeStore } from '../storage/treeStore.js';
import { grantWatches, type GrantWatcher } from './grantWatch.js';

/** Nodes under root r, their paths kept; the caller's grants on subtrees are on the ids of `granted`. */
function fakeStore(granted: Set<string>) {
  const calls = { getNodes: [] as string[][], forget: 0, stores: 0 };
  const node = (id: string): TreeNode =>
    ({ id, parentId: 'r', rootId: 'r', path: ['r'], name: id, position: 'a', version: 1, childCount: 0 }) as TreeNode;
  const grantedOn = (chain: readonly string[]) => (chain.some((id) => granted.has(id)) ? 'read' : null);
  const store = {
    getNodes: async (ids: string[]) => {
      calls.getNodes.push([...ids]);
      return new Map(ids.map((id) => [id, node(id)]));
    },
    access: {
      forget: () => void calls.forget++,
      grantedOn: async (chain: readonly string[]) => grantedOn(chain),
      grantedLevels: async () => grantedOn,
    },
  } as unknown as TreeStore;
  return { calls, storeFor: () => (calls.stores++, store) };
}

const ana: Caller = {
  via: 'jwt',
  subject: 'ana',
  tenant: null,
  grants: { all: null, trees: new Map() },
  principals: ['sub:ana'],
};

function watcher(nodeId: string) {
  const told = { readable: 0, gone: [] as unknown[] };
  const watcher: GrantWatcher = {
    nodeId,
    readable: () => void told.readable++,
    gone: (error) => told.gone.push(error.extensions),
  };
  return { watcher, told };
}

describe('grantWatches', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('checks every watched node of a caller with one timer, one read of its grants and one of the nodes', async () => {
    vi.useFakeTimers();
    const granted = new Set(['a', 'b']);
    const { calls, storeFor } = fakeStore(granted);
    const watches = grantWatches({ storeFor, everyMs: 50 });
    const a = watcher('a');
    const b = watcher('b');
    const stopA = watches.watch(ana, a.watcher);
    const stopB = watches.watch({ ...ana, checkAgainAt: 1 }, b.watcher);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toEqual({ getNodes: [['a', 'b']], forget: 1, stores: 1 });
    expect([a.told, b.told]).toEqual([
      { readable: 1, gone: [] },
      { readable: 1, gone: [] },
    ]);

    granted.delete('b');
    await vi.advanceTimersByTimeAsync(50);
    expect(b.told.gone).toEqual([{ code: 'NOT_FOUND', id: 'b' }]);
    expect(a.told.gone).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    expect(calls.getNodes.at(-1)).toEqual(['a']);

    stopB();
    stopA();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps callers apart, and watches nothing for a caller whose credentials read every tree', () => {
    vi.useFakeTimers();
    const { calls, storeFor } = fakeStore(new Set());
    const watches = grantWatches({ storeFor, everyMs: 50 });
    watches.watch(ana, watcher('a').watcher);
    watches.watch({ ...ana, principals: ['sub:bo'] }, watcher('a').watcher);
    watches.watch({ ...ana, tenant: 't2' }, watcher('a').watcher);
    watches.watch({ ...ana, grants: { all: 'read', trees: new Map() } }, watcher('a').watcher);
    expect(vi.getTimerCount()).toBe(3);
    expect(calls.stores).toBe(3);
  });
});
