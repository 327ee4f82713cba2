import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { VERSION } from '../version.js';
import { exportCommand } from './exportCommand.js';
import { importCommand } from './importCommand.js';
import { jobsCommand } from './jobsCommand.js';
import { keysCommand } from './keysCommand.js';
import { reindexCommand } from './reindexCommand.js';
import { tokenCommand } from './tokenCommand.js';
import { verifyCommand } from './verifyCommand.js';
import { workerCommand } from './workerCommand.js';
import { formatTreeHelp, USAGE } from './help.js';
import { UsageError } from './options.js';

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
 *
 * Each command is declared in a module of its own (verifyCommand.ts, ...), its action setting
 * process.exitCode. A mistyped command or option is refused with the nearest one suggested, then
 * the usage, and exit code 2.
 */
/** Where the program writes its help and its refusals (the process's stdout and stderr by default). */
export interface TreeOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const PROCESS_OUTPUT: TreeOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

function treeProgram(output: TreeOutput): Command {
  const tree = new Command('tree')
    .configureOutput({ writeOut: output.out, writeErr: output.err })
    .version(`canopy ${VERSION}`, '-v, --version')
    .configureHelp({ formatHelp: formatTreeHelp })
    .showSuggestionAfterError()
    .showHelpAfterError(USAGE)
    .exitOverride();
  // In the order of the help's list.
  for (const command of [
    verifyCommand,
    reindexCommand,
    jobsCommand,
    keysCommand,
    tokenCommand,
    workerCommand,
    exportCommand,
    importCommand,
  ]) {
    command(tree);
  }
  return tree;
}

/** Runs one command line; answers the exit code. */
export async function runTree(args: string[], output: TreeOutput = PROCESS_OUTPUT): Promise<number> {
  // No command at all: the usage on stderr, as for any usage error (commander would print the help).
  if (args.length === 0) {
    output.err(`${USAGE}\n`);
    return 2;
  }
  try {
    await treeProgram(output).parseAsync(args, { from: 'user' });
    return Number(process.exitCode ?? 0);
  } catch (error) {
    // Commander has printed its message (or the help, or the version) already.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError) {
      output.err(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      output.err(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
