#!/usr/bin/env node
import { configWarnings } from '../config.js';
import { runTree, type TreeOutput } from './treeProgram.js';

/** The line of `canopy start` in the installed command's help and usage. */
const START = 'canopy start: serves the GraphQL API (as `npm start`), configured by the environment (README)';

/** A maintenance command's text, spelled as the installed command: `canopy verify` for `npm run tree -- verify`. */
export function asCanopy(text: string): string {
  return text
    .replaceAll(/npm run (-s )?tree --( |$)/gm, 'canopy$2')
    .replaceAll('npm run tree', 'canopy')
    .replaceAll('`npm start`', '`canopy start`');
}

const OUTPUT: TreeOutput = {
  out: (text) => process.stdout.write(asCanopy(text)),
  err: (text) => process.stderr.write(asCanopy(text)),
};

/**
 * `canopy`, the installed package's command: `canopy start` serves (main.ts, as `npm start`); every
 * other command is one of the maintenance commands of `npm run tree` (treeProgram.ts).
 */
async function canopy(args: string[]): Promise<number | undefined> {
  if (args[0] === 'start') {
    if (args.length > 1) {
      console.error(`canopy start takes no arguments: the environment configures it (README)\n${START}`);
      return 2;
    }
    // The server runs until a signal stops it, and sets the exit code itself.
    await import('../main.js');
    return undefined;
  }
  if (args.length === 0 || ['-h', '--help', 'help'].includes(args[0]!)) {
    process[args.length === 0 ? 'stderr' : 'stdout'].write(`${START}\n`);
  }
  for (const warning of configWarnings()) console.error(`warning: ${warning}`);
  return runTree(args[0] === 'help' ? ['--help'] : args, OUTPUT);
}

canopy(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
