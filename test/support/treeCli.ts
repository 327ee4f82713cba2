import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { TestServer } from './server.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface TreeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The tree command (what `npm run -s tree` runs, transpiled once for the run:
 * transpiledSources.ts) as a process of its own, on the server's table, with `env` on top.
 */
export function spawnTree(
  server: TestServer,
  args: string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [inject('treeScript'), ...args], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DYNAMODB_ENDPOINT: server.config.dynamodbEndpoint!,
      DYNAMODB_TABLE: server.table,
      TREE_STRATEGY: server.config.strategy,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs the tree command to its end: its exit code and output. */
export function runTree(server: TestServer, args: string[], env: Record<string, string> = {}): Promise<TreeRun> {
  return new Promise((resolve, reject) => {
    const child = spawnTree(server, args, env);
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
