import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { STRATEGY_NAMES } from '../storage/strategies/strategies.js';
import type { TreeAdmin } from '../storage/treeStore.js';
import { storeFor } from '../storeFor.js';
import { checkedAdmin } from './checkedAdmin.js';
import { COMMON } from './help.js';
import { longerThanOption, strategyArg, tenantOption } from './options.js';
import { DEFAULT_LONGER_THAN, respaceTree } from './respaceTree.js';
import { waitForJob } from './waitForJob.js';
import { withTable } from './withTable.js';

interface ReindexOptions {
  to?: string;
  respace?: boolean;
  longerThan?: string;
  tenant?: string;
}

/** `reindex --to S [--respace [--longer-than N]] [--tenant T]`: a REINDEX job, followed to its end. */
export function reindexCommand(tree: Command): void {
  tree
    .command('reindex')
    .summary("rebuild a strategy's projection in place, as a resumable job")
    .usage(`npm run tree -- reindex --to ${STRATEGY_NAMES.join('|')} [--respace [--longer-than N]] [--tenant T]`)
    .description(
      [
        "Rebuilds the strategy's projection from the tree, in place, as a job (kind REINDEX) with a",
        "progress bar; other strategies' projection items are removed. If this command stops, any live",
        'process takes the job over; run again, it shows the open reindex. Safe on a live table. Then',
        'restart the servers with TREE_STRATEGY set to the new strategy (docs/strategies.md: switching).',
        '',
        `--respace first rebalances sibling positions: every parent with a child whose position is over`,
        `N characters (default ${DEFAULT_LONGER_THAN}) has all its children given short, evenly spaced ones, in`,
        'their order, one reorder each (under TREE_STRATEGY), the parent held meanwhile: creates and',
        'moves into it answer CONFLICT until it is done. Their versions go up by one.',
        '',
        COMMON,
      ].join('\n'),
    )
    .option('--to <strategy>')
    .option('--respace')
    .option('--longer-than <n>')
    .option('--tenant <tenant>')
    .action(async (options: ReindexOptions) => {
      const longerThan = longerThanOption(options.longerThan);
      const tenant = tenantOption(options.tenant);
      process.exitCode = await reindex(options.to, options.respace ? longerThan : undefined, tenant);
    });
}

/** Respaces first when `longerThan` is given; this process runs the reindex (and takes over stopped jobs). */
async function reindex(to: string | undefined, longerThan: number | undefined, tenant: string | null): Promise<number> {
  const config = loadConfig();
  return withTable(config, async (dynamo) => {
    // Respacing reorders children under TREE_STRATEGY; the reindex itself works for its target.
    const root = longerThan === undefined ? storeFor(config, dynamo) : await checkedAdmin(config, dynamo);
    const admin = root.forTenant(tenant);
    const target = strategyArg(to);
    const jobs = root.startJobs();
    try {
      if (longerThan !== undefined) await respace(admin, longerThan);
      const job = await waitForJob(admin.store, (await admin.reindex(target)).id);
      if (job?.status !== 'DONE') {
        console.error('the reindex failed: run `npm run tree -- verify` to see what in the truth prevents it');
        return 1;
      }
      console.log(`${job.done} nodes reindexed for ${target}; now set TREE_STRATEGY=${target}`);
      return 0;
    } finally {
      await jobs.stop();
    }
  });
}

/** `--respace`: short positions for crowded sibling groups, with a progress bar. */
async function respace(admin: TreeAdmin, longerThan: number): Promise<void> {
  const bar = new SingleBar(
    { format: 'respacing [{bar}] {value}/{total} parents', stream: process.stderr },
    Presets.shades_classic,
  );
  const { parents, respaced } = await respaceTree(admin, longerThan, (done, total) =>
    done === 0 ? bar.start(total, 0) : bar.update(done),
  );
  bar.stop();
  console.log(
    `${respaced} node(s) under ${parents} parent(s) given short positions ` +
      `(those of over ${longerThan} characters respaced with their siblings)`,
  );
}
