import type { TreeAdmin, TreeNode, TreeStore } from '../storage/treeStore.js';
import { inParallel } from '../inParallel.js';

/** Positions up to this long are left as they are (a new one has 6 characters: 2, and a random tail of 4). */
export const DEFAULT_LONGER_THAN = 12;

/** Parents of one depth respaced at the same time. */
const CONCURRENCY = 8;
/** How often the respacing looks at the move jobs it started. */
const POLL_MS = 100;

export interface RespaceTreeResult {
  parents: number;
  respaced: number;
}

/**
 * Respaces the children of every parent one of whose children has a position longer than
 * `longerThan` characters (TreeAdmin.respace), the deepest parents first, those of one depth
 * (whose subtrees are disjoint) CONCURRENCY at a time. The move jobs a depth's respacings
 * started (nested-set, big subtrees) end before the next depth up begins: its reorders move
 * those subtrees again.
 */
export async function respaceTree(
  admin: TreeAdmin,
  longerThan: number,
  onParent?: (done: number, total: number) => void,
): Promise<RespaceTreeResult> {
  const parents = await admin.crowdedParents(longerThan);
  const depths = [...new Set(parents.map((p) => p.depth))];
  let done = 0;
  let respaced = 0;
  onParent?.(0, parents.length);
  for (const depth of depths) {
    const moved: TreeNode[] = [];
    await inParallel(
      parents.filter((p) => p.depth === depth),
      CONCURRENCY,
      async ({ id }) => {
        const result = await admin.respace(id);
        respaced += result.respaced;
        moved.push(...result.moved);
        onParent?.(++done, parents.length);
      },
    );
    await jobsEnded(admin.store, moved);
  }
  return { parents: parents.length, respaced };
}

async function jobsEnded(store: TreeStore, nodes: TreeNode[]): Promise<void> {
  const ids = new Set((await store.pendingJobs(nodes)).flatMap((job) => (job ? [job.id] : [])));
  while (ids.size > 0) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    for (const [id, job] of await store.getJobs([...ids])) if (job.status !== 'RUNNING') ids.delete(id);
  }
}
