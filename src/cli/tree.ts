import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { loadConfig } from '../config.js';
import { createDynamo } from '../dynamodb/client.js';
import { startDynamoLocal, type DynamoLocal } from '../dynamodb/dynamoLocal.js';
import { reindex } from '../storage/maintenance/reindex.js';
import { verifyTable } from '../storage/maintenance/verifyTable.js';
import { STRATEGY_NAMES, type StrategyName } from '../storage/strategies/strategies.js';

/**
 * `npm run tree -- verify [--strategy S]`: checks the truth and the projections of strategy S
 * (default: TREE_STRATEGY) and lists the problems; exits 1 when there are any.
 * `npm run tree -- reindex --to S`: rebuilds the projections of S in place; resumable.
 * Uses the same configuration as the server; without DYNAMODB_ENDPOINT it opens the embedded
 * DynamoDB Local's files in DATA_DIR (stop the server first, or point DYNAMODB_ENDPOINT at it).
 */
const USAGE = `usage: npm run tree -- verify [--strategy ${STRATEGY_NAMES.join('|')}]\n       npm run tree -- reindex --to ${STRATEGY_NAMES.join('|')}`;
const MAX_LISTED = 50;

function strategyArg(value: string | undefined, fallback?: StrategyName): StrategyName {
  const chosen = value ?? fallback;
  if (!chosen || !(STRATEGY_NAMES as readonly string[]).includes(chosen)) {
    throw new Error(`expected a strategy (${STRATEGY_NAMES.join(', ')}), got ${JSON.stringify(value ?? null)}\n${USAGE}`);
  }
  return chosen as StrategyName;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: { strategy: { type: 'string' }, to: { type: 'string' } } });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (command !== 'verify' && command !== 'reindex') {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  let local: DynamoLocal | undefined;
  let endpoint = config.dynamodbEndpoint;
  if (endpoint === undefined) {
    local = await startDynamoLocal({ port: config.dynamodbLocalPort, dataDir: config.dataDir });
    endpoint = local.endpoint;
  }
  const { doc, client } = createDynamo({ endpoint, region: config.region });
  try {
    if (command === 'verify') {
      const strategy = strategyArg(values.strategy, config.strategy);
      const report = await verifyTable(doc, config.table, strategy, config.maxTreeDepth);
      const nodes = new Set(report.problems.map((p) => p.nodeId));
      console.log(`${report.nodes} nodes checked against the truth and the ${strategy} projection: ${report.problems.length} problem(s) in ${nodes.size} node(s)`);
      for (const p of report.problems.slice(0, MAX_LISTED)) console.log(`  ${p.nodeId}: ${p.problem}`);
      if (report.problems.length > MAX_LISTED) console.log(`  ... and ${report.problems.length - MAX_LISTED} more`);
      return report.problems.length === 0 ? 0 : 1;
    }
    const target = strategyArg(values.to);
    const bar = new SingleBar({ format: 'reindex [{bar}] {value}/{total} nodes', stream: process.stderr }, Presets.shades_classic);
    const result = await reindex(doc, config.table, target, config.maxTreeDepth, {
      start: (total, done) => bar.start(total, done),
      advance: (count) => bar.increment(count),
    });
    bar.stop();
    console.log(
      `${result.nodes} nodes reindexed for ${target}${result.resumedAfter ? ` (resumed after ${result.resumedAfter})` : ''}; now set TREE_STRATEGY=${target}`,
    );
    return 0;
  } finally {
    client.destroy();
    await local?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
