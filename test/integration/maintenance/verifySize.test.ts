import { describe, expect, it } from 'vitest';
import { loadInto } from '../../support/loadTree.js';
import { startTestServer } from '../../support/server.js';
import { runTree } from '../../support/treeCli.js';
import { okData, type TreeSpec } from '../../support/tree.js';

/**
 * `tree verify` on a table of a real directory tree's size (`npm run test:size`, about 5 minutes
 * per strategy; in neither `npm test` nor the long suite): 53,392 nodes, 11 levels deep, one
 * directory of 23,781 nodes moved away and back as jobs, then the whole table verified by the
 * `tree` command as a user runs it, under the strategies whose projections are biggest.
 */
const TOTAL = 53_392;

/** Directories `fan` wide at each level, `files` files in each of the last. */
function directory(id: string, fan: number[], files: number): TreeSpec {
  const [width, ...below] = fan;
  if (width === undefined) return { id, children: Array.from({ length: files }, (_, i) => ({ id: `${id}.f${i}` })) };
  return { id, children: Array.from({ length: width }, (_, i) => directory(`${id}.${i}`, below, files)) };
}

/** `depth` directories one below the other under `id`, each with `files` files. */
function deepChain(id: string, depth: number, files: number): TreeSpec {
  const own = Array.from({ length: files }, (_, i) => ({ id: `${id}.f${i}` }));
  return { id, children: depth > 0 ? [deepChain(`${id}.d`, depth - 1, files), ...own] : own };
}

const size = (spec: TreeSpec): number => 1 + (spec.children ?? []).reduce((n, child) => n + size(child), 0);

/** The tree: `root` over `big` (23,781 nodes, down to depth 11), `other` and loose files; and `away`. */
function realSizeTree(): { root: TreeSpec; big: TreeSpec } {
  const big = directory('big', [10, 10, 10], 22);
  big.children!.push(deepChain('big.deep', 9, 66));
  const root: TreeSpec = { id: 'root', children: [big, directory('other', [12, 12, 12], 16)] };
  const loose = TOTAL - size(root) - 1;
  root.children!.push({ id: 'loose', children: Array.from({ length: loose - 1 }, (_, i) => ({ id: `loose.${i}` })) });
  return { root, big };
}

describe.each(['path', 'closure'] as const)('%s: tree verify at a real size', (strategy) => {
  it('verifies the whole table after its biggest directory moved away and back', { timeout: 1_800_000 }, async () => {
    const { root, big } = realSizeTree();
    expect([size(root) + 1, size(big)]).toEqual([TOTAL, 23_781]);
    const server = await startTestServer({ strategy, verifyOnClose: false });
    try {
      await loadInto(server, [root, { id: 'away' }]);
      for (const to of ['away', 'root']) {
        okData(await server.gql(`mutation { reparent(id: "big", newParentId: "${to}") { id } }`));
        const running = () => server.gql('{ jobs { nodes { status } } }');
        for (;;) {
          const jobs = okData(await running()).jobs.nodes as Array<{ status: string }>;
          if (jobs.every((job) => job.status !== 'RUNNING')) break;
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
      const verified = await runTree(server, ['verify']);
      expect(verified.stdout).toContain(`${TOTAL} nodes checked`);
      expect(verified.stdout).toContain('0 problem(s) in 0 node(s)');
      expect(verified.code).toBe(0);
    } finally {
      await server.close();
    }
  });
});
