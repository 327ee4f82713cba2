import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import type { TreeStore } from '../storage/treeStore.js';
import { storeFor } from '../storeFor.js';
import { COMMON } from './help.js';
import { tenantOption } from './options.js';
import { waitForJob } from './waitForJob.js';
import { withTable } from './withTable.js';

/** `jobs [--wait JOB_ID] [--tenant T]`: the list, or one job followed until it ends (exit 1 if it failed). */
export function jobsCommand(tree: Command): void {
  tree
    .command('jobs')
    .summary('list the jobs, or follow one until it ends')
    .usage('npm run tree -- jobs [--wait JOB_ID] [--tenant T]')
    .description(
      [
        'Lists the running jobs and those finished in the last 24 hours (moves, deletes, reindexes),',
        'with their progress; with --wait, follows one job with a progress bar until it ends (exit 1',
        'if it failed).',
        '',
        COMMON,
      ].join('\n'),
    )
    .option('--wait <jobId>')
    .option('--tenant <tenant>')
    .action(async (options: { wait?: string; tenant?: string }) => {
      const tenant = tenantOption(options.tenant);
      const config = loadConfig();
      process.exitCode = await withTable(config, async (dynamo) => {
        const store = storeFor(config, dynamo).forTenant(tenant).store;
        if (options.wait === undefined) return listJobs(store);
        const job = await waitForJob(store, options.wait);
        return job?.status === 'DONE' ? 0 : 1;
      });
    });
}

/** Prints every job the table reports (running, and finished in the last 24 hours). */
async function listJobs(store: TreeStore): Promise<number> {
  let after: string | undefined;
  let count = 0;
  do {
    const page = await store.listJobs({ first: 100, after });
    for (const { node: job } of page.edges) {
      count++;
      const progress = `${job.done}/${job.total ?? '?'}`;
      console.log(`${job.id}  ${job.kind} ${job.nodeId ?? '-'}  ${job.status}  ${progress}  started ${job.startedAt}`);
    }
    after = page.hasNextPage ? page.edges.at(-1)?.cursor : undefined;
  } while (after);
  if (count === 0) console.log('no jobs');
  return 0;
}
