import { ConfigError, type Config } from './config.js';
import type { BuiltStrategy, TreeAdmin } from './storage/treeStore.js';

/**
 * Refuses a TREE_STRATEGY that the table's trees are not built for: such a process finds none of
 * the items its reads need (every read of a path fails) and its writes leave the trees half
 * built. The table records the strategy of each tenant with a record (TreeAdmin.builtStrategies;
 * the default tenant's at the first start, a tenant's at the end of its reindex), and every
 * process that reads or writes nodes (the server, `tree export`, `import`, `worker`, `reindex
 * --respace`) compares its TREE_STRATEGY with them before it starts: a ConfigError (exit code 2)
 * naming the strategy recorded, the one configured and the command that rebuilds the trees.
 *
 * While a reindex runs, processes of the strategy recorded (the one the reindex leaves) still
 * start, as switching a live table needs (docs/operations.md): each gets a warning that names
 * the reindex. Processes of the reindex's target wait for its end: until then its projection is
 * not whole, and they are refused with the job to wait for. Answers the warnings.
 */
export async function checkBuiltStrategy(
  config: Pick<Config, 'strategy' | 'table'>,
  admin: Pick<TreeAdmin, 'builtStrategies'>,
): Promise<string[]> {
  const built = await admin.builtStrategies();
  const problems = built.filter((b) => b.strategy !== config.strategy).map((b) => refusal(config, b));
  if (problems.length > 0) throw new ConfigError(problems);
  return built.flatMap((b) =>
    b.reindex && b.reindex.target !== b.strategy
      ? [
          `a reindex of ${whose(config, b)} to ${b.reindex.target} is running (job ${b.reindex.jobId}): ` +
            `once it is done, start with TREE_STRATEGY=${b.reindex.target}; processes of ${b.strategy} are ` +
            'refused from then on',
        ]
      : [],
  );
}

/** The line of a refusal: what is recorded, what is configured, and what to run. */
function refusal(config: Pick<Config, 'strategy' | 'table'>, built: BuiltStrategy): string {
  const tenant = built.tenant === null ? '' : ` --tenant ${built.tenant}`;
  const { reindex } = built;
  if (reindex?.target === config.strategy) {
    const progress = reindex.total === null ? '' : `, ${reindex.done} of ${reindex.total} nodes`;
    const wait = `npm run tree -- jobs --wait ${reindex.jobId}${tenant}`;
    return (
      `TREE_STRATEGY is ${config.strategy}, and the reindex of ${whose(config, built)} to it is running ` +
      `(job ${reindex.jobId}${progress}): wait for its end (\`${wait}\`), ` +
      `then start again; until then, they are built for ${built.strategy}`
    );
  }
  return (
    `TREE_STRATEGY is ${config.strategy}, but ${whose(config, built)} are built for ${built.strategy} ` +
    `(recorded in the table): run \`npm run tree -- reindex --to ${config.strategy}${tenant}\` to rebuild ` +
    `them for ${config.strategy}, then start again; or set TREE_STRATEGY=${built.strategy}`
  );
}

const whose = (config: Pick<Config, 'table'>, built: BuiltStrategy): string =>
  built.tenant === null
    ? `the trees of table ${config.table}`
    : `the trees of tenant ${built.tenant} in table ${config.table}`;
