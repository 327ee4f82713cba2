import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createApiKey, listApiKeys, parseTrees, revokeApiKey } from '../auth/apiKeys.js';
import { signDevToken } from '../auth/devToken.js';
import { createDynamo, createStreamsClient, type Dynamo } from '../dynamodb/client.js';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { createLogger } from '../server/logger.js';
import { CSV_HEADER, EXPORT_FORMATS, exportedNodes, writeExport, type ExportFormat } from './exportTree.js';
import { ImportProblems, parseImport } from './importRecords.js';
import { importTree } from './importTree.js';
import { DEFAULT_LONGER_THAN, respaceTree } from './respaceTree.js';
import { startStreamWorker } from '../worker/streamWorker.js';
import { ensureTable } from '../dynamodb/table.js';
import { isTreeError } from '../errors.js';
import { startDynamoLocal, type DynamoLocal } from '../dynamodb/dynamoLocal.js';
import { TENANT_PATTERN } from '../dynamodb/keys.js';
import { tenantDoc } from '../dynamodb/tenantDoc.js';
import { verifyTable } from '../storage/maintenance/verifyTable.js';
import { storeFor } from '../storeFor.js';
import { USER_AGENT, VERSION } from '../version.js';
import { STRATEGY_NAMES, type StrategyName } from '../storage/strategies/strategies.js';
import type { Job, TreeStore } from '../storage/treeStore.js';

/**
 * `npm run tree -- verify [--strategy S]`: checks the truth and the projections of strategy S
 * (default: TREE_STRATEGY) and lists the problems; exits 1 when there are any.
 * `npm run tree -- reindex --to S [--respace]`: rebuilds the projections of S in place, as a job
 * that any live process resumes if this one stops; run again, it shows the open reindex's
 * progress. With --respace, first gives crowded sibling groups short positions (respaceTree.ts).
 * `npm run tree -- jobs [--wait ID]`: lists the jobs, or shows one's progress until it ends.
 * `npm run tree -- keys create|list|revoke`: the API keys of AUTH=apikey.
 * `npm run tree -- token`: a development token for AUTH=jwt with JWT_SECRET.
 * `npm run tree -- worker`: runs the jobs of JOB_RUNNER=worker, told of them by the table's stream.
 * `npm run tree -- export [--root ID] [--format json|csv] [--out FILE]`: the trees as records.
 * `npm run tree -- import FILE [--format json|csv]`: creates the nodes a file describes.
 * Uses the same configuration as the server; without DYNAMODB_ENDPOINT it opens the embedded
 * DynamoDB Local's files in DATA_DIR (stop the server first, or point DYNAMODB_ENDPOINT at it).
 */
const USAGE = [
  `usage: npm run tree -- verify [--strategy ${STRATEGY_NAMES.join('|')}] [--tenant T]`,
  `       npm run tree -- reindex --to ${STRATEGY_NAMES.join('|')} [--respace [--longer-than N]] [--tenant T]`,
  '       npm run tree -- jobs [--wait JOB_ID] [--tenant T]',
  '       npm run tree -- keys create [--name NAME] [--trees ROOT=read|write,...] [--tenant T] | keys list | keys revoke KEY_ID',
  '       npm run tree -- token [--sub NAME] [--hours N] [--tenant T]',
  '       npm run tree -- worker',
  '       npm run -s tree -- export [--root ID] [--format json|csv] [--out FILE] [--tenant T]',
  '       npm run tree -- import FILE [--format json|csv] [--tenant T]',
].join('\n');
const COMMON = [
  'It uses the server\'s configuration (the environment variables of the README: DYNAMODB_ENDPOINT,',
  'DYNAMODB_TABLE, TREE_STRATEGY, ...). Without DYNAMODB_ENDPOINT it opens the embedded DynamoDB',
  "Local's files in DATA_DIR: stop `npm start` first, or set DYNAMODB_ENDPOINT=http://localhost:8000.",
  '--tenant T works on tenant T\'s trees (TENANT_CLAIM); without it, on the default tenant\'s.',
].join('\n');

/** `--help` of the tool and of each command. */
const HELP: Record<string, string> = {
  tree: [
    `npm run tree -- <command> [options]: maintenance of a Canopy table (canopy ${VERSION}).`,
    '',
    'commands:',
    '  verify    check the tree and a strategy\'s projection; exit 1 when there are problems',
    '  reindex   rebuild a strategy\'s projection in place, as a resumable job',
    '  jobs      list the jobs, or follow one until it ends',
    '  keys      create, list and revoke the API keys of AUTH=apikey',
    '  token     print a development token for AUTH=jwt with JWT_SECRET',
    '  worker    run the jobs (moves, deletes, reindexes) as the table\'s stream announces them',
    '  export    write every tree, or one subtree, as JSON or CSV records',
    '  import    create the nodes of a JSON or CSV file (what export writes), checked whole first',
    '',
    'options: -h, --help (also after a command: npm run tree -- verify --help); -v, --version',
    '',
    'exit codes: 0 done; 1 problems found (verify), the job failed (jobs --wait) or no such key (keys revoke);',
    '            2 usage or configuration error',
    '',
    COMMON,
  ].join('\n'),
  verify: [
    `npm run tree -- verify [--strategy ${STRATEGY_NAMES.join('|')}] [--tenant T]`,
    '',
    'Reads the whole table and checks that the tree is a forest (no cycle, no orphan, depth within',
    'MAX_TREE_DEPTH) with consistent edge copies and child counts, and that the projection of the',
    'strategy (default: TREE_STRATEGY) is exactly what the tree implies. Prints each problem and',
    'its node. Exit code 0: no problem; 1: problems found; 2: usage error.',
    '',
    COMMON,
  ].join('\n'),
  reindex: [
    `npm run tree -- reindex --to ${STRATEGY_NAMES.join('|')} [--respace [--longer-than N]] [--tenant T]`,
    '',
    "Rebuilds the strategy's projection from the tree, in place, as a job (kind REINDEX) with a",
    'progress bar; other strategies\' projection items are removed. If this command stops, any live',
    'process takes the job over; run again, it shows the open reindex. Safe on a live table. Then',
    'restart the servers with TREE_STRATEGY set to the new strategy (README: switching strategies).',
    '',
    `--respace first rebalances sibling positions: every parent with a child whose position is over`,
    `N characters (default ${DEFAULT_LONGER_THAN}) has all its children given short, evenly spaced ones, in`,
    'their order, one reorder each (under TREE_STRATEGY), the parent held meanwhile: creates and',
    'moves into it answer CONFLICT until it is done. Their versions go up by one.',
    '',
    COMMON,
  ].join('\n'),
  jobs: [
    'npm run tree -- jobs [--wait JOB_ID] [--tenant T]',
    '',
    'Lists the running jobs and those finished in the last 24 hours (moves, deletes, reindexes),',
    'with their progress; with --wait, follows one job with a progress bar until it ends (exit 1',
    'if it failed).',
    '',
    COMMON,
  ].join('\n'),
  keys: [
    'npm run tree -- keys create [--name NAME] [--trees ROOT=read|write,...] [--tenant T]',
    '       npm run tree -- keys list',
    '       npm run tree -- keys revoke KEY_ID',
    '',
    'API keys for AUTH=apikey. `create` prints a new key once (canopy_<id>_<secret>): the table keeps',
    'only the SHA-256 of its secret, so a lost key cannot be shown again (create another). --trees',
    'limits the key to some trees by their root ids (`*` for all), e.g. catalog=write,*=read;',
    'without it the key may write every tree. --tenant binds the key to tenant T\'s trees (default:',
    'the default tenant\'s). `list` shows each key\'s id, name, tenant, trees, creation and',
    'revocation. `revoke` ends a key for good; servers stop taking it within 30 s (how long a server',
    'trusts what it read of a key).',
    '',
    COMMON,
  ].join('\n'),
  token: [
    'npm run -s tree -- token [--sub NAME] [--hours N] [--tenant T]',
    '',
    'Prints a JWT that this configuration (AUTH=jwt with JWT_SECRET, and JWT_ISSUER/JWT_AUDIENCE',
    'when set) accepts: subject NAME (default "developer"), valid for N hours (default 8), in',
    'tenant T (the TENANT_CLAIM claim; default: the default tenant). For development tools: the',
    'example app (VITE_CANOPY_TOKEN), curl, GraphiQL\'s Headers tab. With JWT_JWKS_URL, tokens come',
    'from your identity provider instead. Touches no table.',
  ].join('\n'),
  export: [
    'npm run -s tree -- export [--root ID] [--format json|csv] [--out FILE] [--tenant T]',
    '',
    'Writes every tree (or the subtree of ID, which becomes a root of the export) as records',
    '{id, parentId, name, position, data}: parents before their children, each tree in document',
    'order. JSON (the default): an array, one record per line. CSV: the header',
    `${CSV_HEADER}, then one line per node (data as JSON, empty when none).`,
    'To stdout (npm run -s keeps npm\'s own lines out of it), or to FILE with --out; a progress',
    'count on stderr. It streams: memory stays flat whatever the size of the tree. Reads as a',
    'client does, so it is consistent per page, not a snapshot of a table being written.',
    '',
    COMMON,
  ].join('\n'),
  import: [
    'npm run tree -- import FILE [--format json|csv] [--tenant T]',
    '',
    'Creates the nodes a file describes: JSON (an array of {id, parentId, name, data, position}',
    'records, or of nested {id, name, data, children} records) or CSV (a header naming id, parentId',
    'and name, optionally position and data, data as JSON); the format comes from the file\'s',
    'extension unless --format says. What export writes, import reads. Records may come in any',
    'order; a parent is either in the file or already in the table.',
    '',
    'The whole file is checked first, and nothing is written if anything is wrong: each problem',
    'with its line (CSV) or record number (JSON): bad ids, names or data, duplicate ids, cycles,',
    'unknown parents, depth past MAX_TREE_DEPTH, an id taken elsewhere in the table. Then the nodes',
    'are created level by level, siblings in order (by their positions when the file has them),',
    'the children of 16 parents at a time, with a progress bar. Run again, it skips what exists:',
    'an interrupted import is resumed, a finished one changes nothing. Exit code 1: problems.',
    '',
    COMMON,
  ].join('\n'),
  worker: [
    'npm run tree -- worker',
    '',
    'Runs until stopped (SIGTERM or Ctrl-C: it stops reading, lets the jobs it runs finish, then exits):',
    "reads the table's stream (DynamoDB Streams; schema/table.json enables it) and takes up every",
    'job a server records (moves, deletes and reindexes of every tenant) as soon as it is written,',
    'under the same leases as a server; every half JOB_LEASE_SECONDS it also sweeps for jobs whose',
    'runner stopped. Run servers with JOB_RUNNER=worker so that they leave their jobs to it; run as',
    'many workers as you like (a lease lets one run each job). Logs JSON lines on stdout like the',
    'server. On AWS Lambda, dist/src/worker/lambda.handler does the same (README: Jobs).',
    '',
    COMMON,
  ].join('\n'),
};

/** How often `jobs --wait` reads the job's progress. */
const WAIT_POLL_MS = 500;
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
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        strategy: { type: 'string' },
        to: { type: 'string' },
        wait: { type: 'string' },
        name: { type: 'string' },
        trees: { type: 'string' },
        sub: { type: 'string' },
        hours: { type: 'string' },
        tenant: { type: 'string' },
        root: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
        respace: { type: 'boolean' },
        'longer-than': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  const command = positionals[0];
  if (values.version) {
    console.log(`canopy ${VERSION}`);
    return 0;
  }
  if (values.help || command === 'help') {
    const topic = command === 'help' ? positionals[1] : command;
    console.log(HELP[topic ?? 'tree'] ?? HELP.tree);
    return 0;
  }
  if (command === 'keys' && !['create', 'list', 'revoke'].includes(positionals[1] ?? '')) {
    console.error(USAGE);
    return 2;
  }
  if (command === 'keys' && positionals[1] === 'revoke' && !positionals[2]) {
    console.error(`keys revoke needs the key's id (npm run tree -- keys list)\n${USAGE}`);
    return 2;
  }
  if (!['verify', 'reindex', 'jobs', 'keys', 'token', 'worker', 'export', 'import'].includes(command ?? '')) {
    console.error(USAGE);
    return 2;
  }
  if (command === 'import' && !positionals[1]) {
    console.error(`import needs the file to read\n${USAGE}`);
    return 2;
  }
  if (values.format !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(values.format)) {
    console.error(`--format takes ${EXPORT_FORMATS.join(' or ')}, got ${JSON.stringify(values.format)}\n${USAGE}`);
    return 2;
  }
  const longerThan = values['longer-than'] === undefined ? DEFAULT_LONGER_THAN : Number(values['longer-than']);
  if (!Number.isInteger(longerThan) || longerThan < 2) {
    console.error(`--longer-than takes a number of characters of at least 2, got ${JSON.stringify(values['longer-than'])}\n${USAGE}`);
    return 2;
  }
  const tenant = values.tenant ?? null;
  if (tenant !== null && !TENANT_PATTERN.test(tenant)) {
    console.error(`--tenant takes a tenant name of 1 to 64 letters, digits, '_', '.', ':' or '-', got ${JSON.stringify(tenant)}\n${USAGE}`);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 2;
  }
  if (command === 'token') {
    const hours = values.hours === undefined ? undefined : Number(values.hours);
    if (hours !== undefined && !(hours > 0 && hours <= 24 * 366)) {
      console.error(`--hours must be a number of hours above 0, got ${JSON.stringify(values.hours)}\n${USAGE}`);
      return 2;
    }
    try {
      console.log(await signDevToken(config.auth, values.sub ?? 'developer', hours, tenant ?? undefined));
      return 0;
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      return 2;
    }
  }
  let local: DynamoLocal | undefined;
  let endpoint = config.dynamodbEndpoint;
  if (endpoint === undefined) {
    local = await startDynamoLocal({ port: config.dynamodbLocalPort, host: config.host, dataDir: config.dataDir });
    if (local.warning) console.error(local.warning);
    endpoint = local.endpoint;
  }
  const { doc, client } = createDynamo({ endpoint, region: config.region, timeouts: config.dynamodbTimeouts, userAgent: USER_AGENT });
  try {
    if (command === 'verify') {
      const strategy = strategyArg(values.strategy, config.strategy);
      const report = await verifyTable(tenantDoc(doc, tenant), config.table, strategy, config.maxTreeDepth);
      const nodes = new Set(report.problems.map((p) => p.nodeId));
      console.log(`${report.nodes} nodes checked against the truth and the ${strategy} projection: ${report.problems.length} problem(s) in ${nodes.size} node(s)`);
      for (const p of report.problems.slice(0, MAX_LISTED)) console.log(`  ${p.nodeId}: ${p.problem}`);
      if (report.problems.length > MAX_LISTED) console.log(`  ... and ${report.problems.length - MAX_LISTED} more`);
      return report.problems.length === 0 ? 0 : 1;
    }
    if (command === 'keys') return await keys({ doc, client }, config.table, positionals.slice(1), { ...values, tenant });
    if (command === 'worker') return await worker(config, { doc, client }, endpoint);
    const root = storeFor(config, { doc });
    const store = root.scoped(undefined, tenant);
    if (command === 'import') {
      await ensureTable(client, config.table);
      const file = positionals[1]!;
      const format = (values.format ?? (file.toLowerCase().endsWith('.csv') ? 'csv' : 'json')) as ExportFormat;
      return await importFile(store, file, format, config.maxTreeDepth);
    }
    if (command === 'export') {
      return await exportTrees(store, values.root ?? null, (values.format ?? 'json') as ExportFormat, values.out);
    }
    if (command === 'jobs') {
      if (values.wait === undefined) return listJobs(store);
      const job = await waitForJob(store, values.wait);
      return job?.status === 'DONE' ? 0 : 1;
    }
    const target = strategyArg(values.to);
    // This process runs the reindex, and takes over any job whose runner stopped.
    const jobs = root.startJobs();
    try {
      if (values.respace) {
        const bar = new SingleBar({ format: 'respacing [{bar}] {value}/{total} parents', stream: process.stderr }, Presets.shades_classic);
        const { parents, respaced } = await respaceTree(store, longerThan, (done, total) => (done === 0 ? bar.start(total, 0) : bar.update(done)));
        bar.stop();
        console.log(`${respaced} node(s) under ${parents} parent(s) given short positions (those of over ${longerThan} characters respaced with their siblings)`);
      }
      const job = await waitForJob(store, (await store.reindex(target)).id);
      if (job?.status !== 'DONE') {
        console.error('the reindex failed: run `npm run tree -- verify` to see what in the truth prevents it');
        return 1;
      }
      console.log(`${job.done} nodes reindexed for ${target}; now set TREE_STRATEGY=${target}`);
      return 0;
    } finally {
      await jobs.stop();
    }
  } finally {
    client.destroy();
    await local?.stop();
  }
}

/** `worker`: the stream worker, until SIGTERM or SIGINT. */
async function worker(config: Config, dynamo: Dynamo, endpoint: string): Promise<number> {
  const logger = createLogger(config.logLevel);
  const streams = createStreamsClient(endpoint, config.region);
  await ensureTable(dynamo.client, config.table, { stream: true });
  const store = storeFor(config, dynamo, ({ event, job, error }) =>
    logger[event === 'stopped' ? 'warn' : 'info']({ job: job.id, kind: job.kind, nodeId: job.nodeId, ...(error ? { error } : {}) }, `job ${event}`),
  );
  const running = await startStreamWorker({
    dynamo,
    streams,
    table: config.table,
    store,
    onError: (what, error) => logger.warn({ error: error instanceof Error ? error.message : String(error) }, `worker: ${what} failed; it goes on`),
  });
  logger.info({ version: VERSION, table: config.table, strategy: config.strategy }, `Canopy ${VERSION} worker reading the stream of table ${config.table}`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  logger.info({ signal }, `${signal}: the worker stops after its jobs' current chunks`);
  await running.stop();
  streams.destroy();
  return 0;
}

/** `export`: the records to stdout or a file, a count of them on stderr. */
async function exportTrees(store: TreeStore, root: string | null, format: ExportFormat, out: string | undefined): Promise<number> {
  const target = out === undefined ? process.stdout : createWriteStream(out);
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (target.write(text)) resolve();
      else target.once('drain', resolve).once('error', reject);
    });
  const bar = new SingleBar({ format: 'export {value} nodes', stream: process.stderr }, Presets.shades_classic);
  bar.start(0, 0);
  try {
    const count = await writeExport(exportedNodes(store, root), format, write, () => bar.increment());
    bar.stop();
    if (out !== undefined) await new Promise<void>((resolve, reject) => (target as WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())));
    console.error(`${count} node(s) exported${out === undefined ? '' : ` to ${out}`}`);
    return 0;
  } catch (error) {
    bar.stop();
    if (!isTreeError(error, 'NOT_FOUND')) throw error;
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}

/** `import FILE`: checked whole, then created with a progress bar; problems on stderr, exit 1. */
async function importFile(store: TreeStore, file: string, format: ExportFormat, maxTreeDepth: number): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`cannot read ${file}: ${error instanceof Error ? error.message : error}`);
    return 2;
  }
  const bar = new SingleBar({ format: 'import [{bar}] {value}/{total} nodes', stream: process.stderr }, Presets.shades_classic);
  try {
    const records = parseImport(text, format);
    bar.start(records.length, 0);
    const { created, skipped } = await importTree(store, records, { maxTreeDepth, onRecord: () => bar.increment() });
    bar.stop();
    console.log(`${created} node(s) created, ${skipped} already there`);
    return 0;
  } catch (error) {
    bar.stop();
    if (!(error instanceof ImportProblems)) throw error;
    console.error(error.message);
    return 1;
  }
}

/** `keys create|list|revoke`. */
async function keys(
  { doc, client }: Dynamo,
  table: string,
  args: string[],
  { name, trees, tenant }: { name?: string | undefined; trees?: string | undefined; tenant: string | null },
): Promise<number> {
  const [action, id] = args;
  if (action === 'create') {
    let grants;
    try {
      grants = trees === undefined ? undefined : parseTrees(trees);
    } catch (error) {
      console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
      return 2;
    }
    await ensureTable(client, table);
    const created = await createApiKey(doc, table, name ?? '', { ...(grants ? { trees: grants } : {}), ...(tenant ? { tenant } : {}) });
    console.log(`API key ${created.id}${created.name ? ` (${created.name})` : ''} created; it is shown once, keep it now:`);
    console.log(created.key);
    return 0;
  }
  if (action === 'list') {
    const listed = await listApiKeys(doc, table);
    for (const key of listed) {
      const trees = key.trees ? Object.entries(key.trees).map(([root, level]) => `${root}=${level}`).join(',') : '*=write';
      console.log(`${key.id}  ${key.name || '-'}  ${key.tenant ? `tenant ${key.tenant}  ` : ''}${trees}  created ${key.createdAt}  ${key.revokedAt ? `revoked ${key.revokedAt}` : 'active'}`);
    }
    if (listed.length === 0) console.log('no API keys');
    return 0;
  }
  try {
    const revoked = await revokeApiKey(doc, table, id!);
    console.log(`API key ${revoked.id} revoked at ${revoked.revokedAt}`);
    return 0;
  } catch (error) {
    if (!isTreeError(error, 'NOT_FOUND')) throw error;
    console.error(`no API key ${id}`);
    return 1;
  }
}

/** Prints every job the table reports (running, and finished in the last 24 hours). */
async function listJobs(store: TreeStore): Promise<number> {
  let after: string | undefined;
  let count = 0;
  do {
    const page = await store.listJobs({ first: 100, after });
    for (const { node: job } of page.edges) {
      count++;
      console.log(`${job.id}  ${job.kind} ${job.nodeId ?? '-'}  ${job.status}  ${job.done}/${job.total ?? '?'}  started ${job.startedAt}`);
    }
    after = page.hasNextPage ? page.edges.at(-1)?.cursor : undefined;
  } while (after);
  if (count === 0) console.log('no jobs');
  return 0;
}

/** Shows a job's progress until it is no longer running; answers it as it ended (none if unknown). */
async function waitForJob(store: TreeStore, id: string): Promise<Job | undefined> {
  const bar = new SingleBar({ format: 'job [{bar}] {value}/{total} nodes', stream: process.stderr }, Presets.shades_classic);
  let started = false;
  for (;;) {
    const job = (await store.getJobs([id])).get(id);
    if (!job) {
      console.error(`no job ${id}`);
      return undefined;
    }
    if (!started) bar.start(job.total ?? job.done, job.done);
    started = true;
    bar.setTotal(job.total ?? job.done);
    bar.update(job.done);
    if (job.status !== 'RUNNING') {
      bar.stop();
      console.log(`job ${id}: ${job.kind} ${job.status}, ${job.done} node(s)`);
      return job;
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
