import { configWarnings } from '../config.js';
import { runTree } from './treeProgram.js';

/**
 * `npm run tree`: the maintenance command line (treeProgram.ts), its exit code the process's.
 * Warnings about the environment's names (a mistyped variable) come first, on stderr.
 */
for (const warning of configWarnings()) console.error(`warning: ${warning}`);
runTree(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
