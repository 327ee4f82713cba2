import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { isTreeError } from '../errors.js';
import type { TreeStore } from '../storage/treeStore.js';
import { checkedAdmin } from './checkedAdmin.js';
import { CSV_HEADER, exportedNodes, writeExport, type ExportFormat } from './exportTree.js';
import { COMMON } from './help.js';
import { formatOption, tenantOption } from './options.js';
import { withTable } from './withTable.js';

interface ExportOptions {
  root?: string;
  format?: string;
  out?: string;
  tenant?: string;
}

/** `export [--root ID] [--format json|csv] [--out FILE] [--tenant T]`: the trees as records. */
export function exportCommand(tree: Command): void {
  tree
    .command('export')
    .summary('write every tree, or one subtree, as JSON or CSV records')
    .usage('npm run -s tree -- export [--root ID] [--format json|csv] [--out FILE] [--tenant T]')
    .description(
      [
        'Writes every tree (or the subtree of ID, which becomes a root of the export) as records',
        "{id, parentId, name, position, data, and a typed node's type}: parents before their children,",
        'each tree in document order. JSON (the default): an array, one record per line. CSV: the header',
        `${CSV_HEADER} (then type, under NODE_TYPES), then one line per node (data as JSON, empty when none).`,
        "To stdout (npm run -s keeps npm's own lines out of it), or to FILE with --out; a progress",
        'count on stderr. It streams: memory stays flat whatever the size of the tree. Reads as a',
        'client does, so it is consistent per page, not a snapshot of a table being written.',
        '',
        COMMON,
      ].join('\n'),
    )
    .option('--root <id>')
    .option('--format <format>')
    .option('--out <file>')
    .option('--tenant <tenant>')
    .action(async (options: ExportOptions) => {
      const format = formatOption(options.format) ?? 'json';
      const tenant = tenantOption(options.tenant);
      const config = loadConfig();
      process.exitCode = await withTable(config, async (dynamo) => {
        const admin = await checkedAdmin(config, dynamo);
        return exportTrees(admin.forTenant(tenant).store, options.root ?? null, format, {
          out: options.out,
          typed: config.nodeTypes !== undefined,
        });
      });
    });
}

/**
 * The records to stdout or a file, a count of them on stderr; exit 1 when the root is unknown.
 * A reader that goes before the end (`| head`: EPIPE) ends the export quietly, with exit 0.
 */
async function exportTrees(
  store: TreeStore,
  root: string | null,
  format: ExportFormat,
  { out, typed }: { out?: string; typed: boolean },
): Promise<number> {
  const target = out === undefined ? process.stdout : createWriteStream(out);
  const write = writerTo(target);
  const bar = new SingleBar({ format: 'export {value} nodes', stream: process.stderr }, Presets.shades_classic);
  bar.start(0, 0);
  try {
    const count = await writeExport(exportedNodes(store, root), format, write, () => bar.increment(), typed);
    bar.stop();
    if (out !== undefined) {
      await new Promise<void>((resolve, reject) =>
        (target as WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    }
    console.error(`${count} node(s) exported${out === undefined ? '' : ` to ${out}`}`);
    return 0;
  } catch (error) {
    bar.stop();
    if (error instanceof Error && (error as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    if (!isTreeError(error, 'NOT_FOUND')) throw error;
    console.error(error instanceof Error ? error.message : error);
    return 1;
  }
}

/**
 * Writes to `target`, waiting for it to drain when its buffer is full. Its error (EPIPE once its
 * reader has gone) fails the write that waits, or else the next one.
 */
function writerTo(target: NodeJS.WritableStream): (text: string) => Promise<void> {
  let failure: Error | undefined;
  target.on('error', (error: Error) => (failure ??= error));
  return async (text) => {
    if (failure) throw failure;
    if (!target.write(text)) await once(target, 'drain');
  };
}
