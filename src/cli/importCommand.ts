import { TypedData } from '../nodeTypes/typedData.js';
import { readFileSync } from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { ensureTable } from '../dynamodb/table.js';
import type { TreeStore } from '../storage/treeStore.js';
import { checkedAdmin } from './checkedAdmin.js';
import type { ExportFormat } from './exportTree.js';
import { COMMON } from './help.js';
import { importFormat } from './importFormat.js';
import { ImportProblems } from './importProblems.js';
import { parseImport, type ParsedImport } from './importRecords.js';
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
        'and name, optionally position and data, data as JSON). Without --format, the content says',
        "which (a JSON array starts with '[', a CSV header names id,parentId,name), else the extension",
        '(.csv: CSV). What export writes, import reads. Records may come in any order; a parent is',
        'either in the file or already in the table.',
        '',
        'The whole file is checked first, in one pass, and nothing is written if anything is wrong:',
        'every problem, by line (CSV) or record number (JSON), the first 100 printed with the count:',
        'syntax, bad ids, names or data, duplicate ids, cycles, unknown parents, depth past',
        'MAX_TREE_DEPTH, an id taken elsewhere in the table. Then the nodes are created level by',
        'level, siblings in order (by their positions when the file has them), the children of 16',
        'parents at a time, with a progress bar. Run again, it skips what exists: an interrupted',
        'import is resumed, a finished one changes nothing. Exit code 1: problems; 2: an unreadable file.',
        '',
        COMMON,
      ].join('\n'),
    )
    .argument('[file]')
    .option('--format <format>')
    .option('--tenant <tenant>')
    .action(async (file: string | undefined, options: { format?: string; tenant?: string }) => {
      if (!file) throw new UsageError('import needs the file to read');
      const format = formatOption(options.format);
      const tenant = tenantOption(options.tenant);
      const config = loadConfig();
      const typed = config.nodeTypes ? new TypedData(config.nodeTypes) : undefined;
      const parsed = readImportFile(file, format, typed);
      if (!parsed) {
        process.exitCode = 2;
        return;
      }
      // Nothing to check against the table (a file that is not JSON, a CSV without its header):
      // said without opening it.
      if (parsed.records.length === 0 && parsed.problems.length > 0) {
        console.error(new ImportProblems(parsed.problems).message);
        process.exitCode = 1;
        return;
      }
      process.exitCode = await withTable(config, async (dynamo) => {
        await ensureTable(dynamo.client, config.table);
        const admin = await checkedAdmin(config, dynamo);
        return importFile(admin.forTenant(tenant).store, parsed, {
          maxTreeDepth: config.maxTreeDepth,
          ...(typed ? { typed } : {}),
        });
      });
    });
}

/**
 * The file parsed, in the format given or else recognised (importFormat.ts); null (said on
 * stderr) when it cannot be read.
 */
function readImportFile(file: string, format: ExportFormat | undefined, typed?: TypedData): ParsedImport | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  if (format) return parseImport(text, format, typed);
  const recognised = importFormat(file, text);
  if (recognised.note) console.error(recognised.note);
  return parseImport(text, recognised.format, typed);
}

/** Checked whole, then created with a progress bar; problems on stderr, exit 1. */
async function importFile(
  store: TreeStore,
  parsed: ParsedImport,
  options: { maxTreeDepth: number; typed?: TypedData },
): Promise<number> {
  const bar = new SingleBar(
    { format: 'import [{bar}] {value}/{total} nodes', stream: process.stderr },
    Presets.shades_classic,
  );
  try {
    bar.start(parsed.records.length, 0);
    const { created, skipped } = await importTree(store, parsed, { ...options, onRecord: () => bar.increment() });
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
