import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../treeStore.js';
import { readBarrier } from './readBarrier.js';

const node = (id: string) => ({ id }) as TreeNode;

describe('readBarrier', () => {
  it('reads once every running call waits, each call getting its own nodes', async () => {
    const reads: string[][] = [];
    const barrier = readBarrier(3, async (ids) => {
      reads.push([...ids]);
      return new Map(ids.filter((id) => id !== 'gone').map((id) => [id, node(id)]));
    });
    const a = barrier.getNodes(['a', 'b']);
    await Promise.resolve();
    expect(reads).toEqual([]);
    const b = barrier.getNodes(['b', 'gone']);
    // The third call ends without reading: the two waiting are read together.
    barrier.done();
    expect([...(await a).keys()]).toEqual(['a', 'b']);
    expect([...(await b).keys()]).toEqual(['b']);
    expect(reads).toEqual([['a', 'b', 'gone']]);
  });

  it('starts a new wave for calls that read again, and passes a failure to every waiting call', async () => {
    let wave = 0;
    const barrier = readBarrier(2, async (ids) => {
      if (++wave === 2) throw new Error('DynamoDB away');
      return new Map(ids.map((id) => [id, node(id)]));
    });
    const first = await Promise.all([barrier.getNodes(['a']), barrier.getNodes(['b'])]);
    expect(first.map((m) => [...m.keys()])).toEqual([['a'], ['b']]);
    const again = [barrier.getNodes(['c']), barrier.getNodes(['d'])];
    await expect(Promise.all(again)).rejects.toThrow('DynamoDB away');
    await expect(again[1]).rejects.toThrow('DynamoDB away');
  });
});
