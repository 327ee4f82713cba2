import type { TreeNode } from '../../treeStore.js';

/**
 * Makes the reads of nodes by id of `count` concurrent calls (the descendants of every node of
 * a list) one BatchGet wave: a read waits until every call still running is waiting for a read
 * too, then all of them are read together. Each call must end with `done()` (in a finally),
 * whether or not it read anything, so that the others do not wait for it.
 */
export function readBarrier(count: number, read: (ids: readonly string[]) => Promise<Map<string, TreeNode>>) {
  let running = count;
  let waiting: Array<{
    ids: readonly string[];
    resolve(found: Map<string, TreeNode>): void;
    reject(error: unknown): void;
  }> = [];
  const flush = () => {
    if (waiting.length === 0 || waiting.length < running) return;
    const batch = waiting;
    waiting = [];
    read([...new Set(batch.flatMap((w) => w.ids))]).then(
      (found) => {
        for (const w of batch) w.resolve(new Map(w.ids.flatMap((id) => (found.has(id) ? [[id, found.get(id)!]] : []))));
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  };
  return {
    getNodes: (ids: readonly string[]): Promise<Map<string, TreeNode>> =>
      new Promise((resolve, reject) => {
        waiting.push({ ids, resolve, reject });
        flush();
      }),
    done: (): void => {
      running--;
      flush();
    },
  };
}
