import type { Command } from 'commander';
import { STRATEGY_NAMES } from '../storage/strategies/strategies.js';
import { VERSION } from '../version.js';

const STRATEGIES = STRATEGY_NAMES.join('|');

/** Every command's synopsis: printed after a usage error. */
export const USAGE = [
  `usage: npm run tree -- verify [--strategy ${STRATEGIES}] [--tenant T]`,
  `       npm run tree -- reindex --to ${STRATEGIES} [--respace [--longer-than N]] [--tenant T]`,
  '       npm run tree -- jobs [--wait JOB_ID] [--tenant T]',
  '       npm run tree -- keys create [--name NAME] [--trees ROOT=read|write|admin,...] [--tenant T]' +
    ' | keys list | keys revoke KEY_ID',
  '       npm run tree -- grants add NODE_ID PRINCIPAL read|write|admin | grants remove NODE_ID PRINCIPAL' +
    ' | grants list NODE_ID [--tenant T]',
  "       npm run tree -- token [--sub NAME] [--hours N] [--tenant T] [--trees 'ROOT=level,...'] [--groups G,...]",
  '       npm run tree -- worker',
  '       npm run -s tree -- export [--root ID] [--format json|csv] [--out FILE] [--tenant T]',
  '       npm run tree -- import FILE [--format json|csv] [--tenant T]',
].join('\n');

/** The end of the help of every command that opens the table. */
export const COMMON = [
  "It uses the server's configuration (the environment variables of the README: DYNAMODB_ENDPOINT,",
  'DYNAMODB_TABLE, TREE_STRATEGY, ...). Without DYNAMODB_ENDPOINT it opens the embedded DynamoDB',
  "Local's files in DATA_DIR: stop `npm start` first, or set DYNAMODB_ENDPOINT=http://localhost:8000.",
  "--tenant T works on tenant T's trees (TENANT_CLAIM); without it, on the default tenant's.",
].join('\n');

/** `--help` of the tool: its commands, each with its summary. */
function treeHelp(tree: Command): string {
  return [
    `npm run tree -- <command> [options]: maintenance of a Canopy table (canopy ${VERSION}).`,
    '',
    'commands:',
    ...tree.commands.map((command) => `  ${command.name().padEnd(10)}${command.summary()}`),
    '',
    'options: -h, --help (also after a command: npm run tree -- verify --help); -v, --version',
    '',
    'exit codes: 0 done; 1 problems found (verify), the job failed (jobs --wait) or no such key (keys revoke);',
    '            2 usage or configuration error',
    '',
    COMMON,
  ].join('\n');
}

/**
 * Commander's help, replaced by Canopy's own texts: the tool's, or a command's synopsis (its usage)
 * and explanation (its description). The subcommands of `keys` show the help of `keys`.
 */
export function formatTreeHelp(command: Command): string {
  if (!command.parent) return `${treeHelp(command)}\n`;
  const shown = command.parent.parent ? command.parent : command;
  return `${shown.usage()}\n\n${shown.description()}\n`;
}
