import { runTree } from './treeProgram.js';

/** `npm run tree`: the maintenance command line (treeProgram.ts), its exit code the process's. */
runTree(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
