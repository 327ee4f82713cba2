import { Command, CommanderError } from 'commander';
import { accessProblem } from '../dynamodb/serviceErrors.js';
import { isTreeError, StartRefused } from '../errors.js';
import { VERSION } from '../version.js';
import { exportCommand } from './exportCommand.js';
import { importCommand } from './importCommand.js';
import { jobsCommand } from './jobsCommand.js';
import { grantsCommand } from './grantsCommand.js';
import { keysCommand } from './keysCommand.js';
import { reindexCommand } from './reindexCommand.js';
import { tokenCommand } from './tokenCommand.js';
import { verifyCommand } from './verifyCommand.js';
import { workerCommand } from './workerCommand.js';
import { formatTreeHelp, USAGE } from './help.js';
import { UsageError } from './options.js';

/** Where the program writes its help and its refusals (the process's stdout and stderr by default). */
export interface TreeOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

const PROCESS_OUTPUT: TreeOutput = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

/**
 * `npm run tree`: the maintenance commands (their synopses: help.ts, USAGE), each declared in a
 * module of its own (verifyCommand.ts, ...), its action setting process.exitCode. They use the
 * server's configuration; without DYNAMODB_ENDPOINT they open the embedded DynamoDB Local's
 * files in DATA_DIR. A mistyped command or option is refused with the nearest one suggested,
 * then the usage, and exit code 2.
 */
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
    grantsCommand,
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
    if (error instanceof StartRefused) {
      output.err(`${error.message}\n`);
      return 2;
    }
    // DynamoDB refused the command's access: what to fix, not the caller's generic answer.
    const problem = isTreeError(error, 'SERVICE_UNAVAILABLE')
      ? accessProblem({ name: error.details?.cause })
      : undefined;
    if (problem) {
      output.err(`DynamoDB refused: ${problem}\n`);
      return 1;
    }
    throw error;
  }
}
