import { readFileSync } from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { ensureTable } from '../dynamodb/table.js';
import type { TreeStore } from '../storage/treeStore.js';
import { storeFor } from '../storeFor.js';
import type { ExportFormat } from './exportTree.js';
import { COMMON } from './help.js';
import { ImportProblems, parseImport } from './importRecords.js';
import { importTree } from './importTree.js';
import { formatOption, tenantOption, UsageError } from './options.js';
import { withTable } from './withTable.js';

/** `import FILE [--format json|csv] [--tenant T]`: creates the nodes a file describes. */
export function importCommand(tree: Command): void {
  tree
    .command('import')
    .summary('create the nodes of a JSON or CSV file (what export writes), checked whole first')
    .usage('npm run tree -- import FILE [--format json|csv] [--tenant T]')
    .description(
      [
        'Creates the nodes a file describes: JSON (an array of {id, parentId, name, data, position}',
        'records, or of nested {id, name, data, children} records) or CSV (a header naming id, parentId',
        "and name, optionally position and data, data as JSON); the format comes from the file's",
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
    )
    .argument('[file]')
    .option('--format <format>')
    .option('--tenant <tenant>')
    .action(async (file: string | undefined, options: { format?: string; tenant?: string }) => {
      if (!file) throw new UsageError('import needs the file to read');
      const format = formatOption(options.format) ?? (file.toLowerCase().endsWith('.csv') ? 'csv' : 'json');
      const tenant = tenantOption(options.tenant);
      const config = loadConfig();
      process.exitCode = await withTable(config, async (dynamo) => {
        await ensureTable(dynamo.client, config.table);
        return importFile(storeFor(config, dynamo).forTenant(tenant).store, file, format, config.maxTreeDepth);
      });
    });
}

/** Checked whole, then created with a progress bar; problems on stderr, exit 1. */
async function importFile(store: TreeStore, file: string, format: ExportFormat, maxTreeDepth: number): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const bar = new SingleBar(
    { format: 'import [{bar}] {value}/{total} nodes', stream: process.stderr },
    Presets.shades_classic,
  );
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
