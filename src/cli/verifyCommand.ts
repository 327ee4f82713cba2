import { TypedData } from '../nodeTypes/typedData.js';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import type { ScanOptions, ScanWait } from '../dynamodb/scan.js';
import { tenantDoc } from '../dynamodb/tenantDoc.js';
import { verifyTable } from '../storage/maintenance/verifyTable.js';
import { STRATEGY_NAMES } from '../storage/strategies/strategies.js';
import { COMMON } from './help.js';
import { strategyArg, tenantOption } from './options.js';
import { withTable } from './withTable.js';

/** How many problems are listed; the rest are counted. */
const MAX_LISTED = 50;

/** How often the read's progress is printed (ms). */
const PROGRESS_EVERY_MS = 5000;

/** `verify [--strategy S] [--tenant T]`: exit 1 when there are problems. */
export function verifyCommand(tree: Command): void {
  tree
    .command('verify')
    .summary("check the tree and a strategy's projection; exit 1 when there are problems")
    .usage(`npm run tree -- verify [--strategy ${STRATEGY_NAMES.join('|')}] [--tenant T]`)
    .description(
      [
        'Reads the whole table and checks that the tree is a forest (no cycle, no orphan, depth within',
        'MAX_TREE_DEPTH) with consistent edge copies and child counts, and that the projection of the',
        'strategy (default: TREE_STRATEGY) is exactly what the tree implies. Prints each problem and',
        'its node. The table is read in pages of 1,000 items, 4 at a time; every 5 s stderr says how',
        'many items are read, and a page DynamoDB does not serve in time (throttled, slow) is asked',
        'again, for fewer items, after a wait that stderr names, up to 8 times in a row.',
        'Exit code 0: no problem; 1: problems found; 2: usage error.',
        '',
        COMMON,
      ].join('\n'),
    )
    .option('--strategy <strategy>')
    .option('--tenant <tenant>')
    .action(async (options: { strategy?: string; tenant?: string }) => {
      process.exitCode = await verify(options.strategy, tenantOption(options.tenant));
    });
}

async function verify(strategyName: string | undefined, tenant: string | null): Promise<number> {
  const config = loadConfig();
  return withTable(config, async ({ doc }) => {
    const strategy = strategyArg(strategyName, config.strategy);
    const typed = config.nodeTypes ? new TypedData(config.nodeTypes) : undefined;
    const { table, maxTreeDepth } = config;
    const report = await verifyTable(tenantDoc(doc, tenant), table, strategy, maxTreeDepth, progress(), typed);
    const nodes = new Set(report.problems.map((p) => p.nodeId));
    console.log(
      `${report.nodes} nodes checked against the truth and the ${strategy} projection: ` +
        `${report.problems.length} problem(s) in ${nodes.size} node(s)`,
    );
    for (const p of report.problems.slice(0, MAX_LISTED)) console.log(`  ${p.nodeId}: ${p.problem}`);
    if (report.problems.length > MAX_LISTED) console.log(`  ... and ${report.problems.length - MAX_LISTED} more`);
    return report.problems.length === 0 ? 0 : 1;
  });
}

/** The read's progress and its waits, on stderr: a long verify says what it is doing. */
function progress(): ScanOptions {
  let items = 0;
  let told = Date.now();
  return {
    onPage: (count) => {
      items += count;
      if (Date.now() - told < PROGRESS_EVERY_MS) return;
      told = Date.now();
      console.error(`verify: ${items.toLocaleString('en')} items read`);
    },
    onWait: (wait) => console.error(scanWaitMessage(wait)),
  };
}

/** What a wait for DynamoDB is: which page, why, for how long, and how many more tries. */
export const scanWaitMessage = (wait: ScanWait): string =>
  `verify: DynamoDB did not serve a page of segment ${wait.segment} (${wait.cause}); ` +
  `asking again for ${wait.pageItems} items in ${(wait.delayMs / 1000).toFixed(1)} s ` +
  `(retry ${wait.retry} of ${wait.retries})`;
