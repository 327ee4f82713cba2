import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { runTree } from '../../src/cli/treeProgram.js';

/**
 * `npm run tree -- --help` (and per command): help on stdout, exit 0, nothing started. The program
 * runs in process (its output captured); a real process checks the command line end to end.
 */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The command as a process of its own: the suite's transpiled sources (transpiledSources.ts). */
const args = (...rest: string[]) => [inject('treeScript'), ...rest];
const OPTIONS = {
  cwd: REPO_ROOT,
  encoding: 'utf8',
  // Would fail if the help tried to open a table.
  env: { ...process.env, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', DYNAMODB_REQUEST_TIMEOUT_MS: '10' },
} as const;

/** One command line run in process: its exit code, stdout and stderr. */
async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runTree(args, { out: (text) => (stdout += text), err: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

/** What a successful run printed. */
async function tree(...args: string[]): Promise<string> {
  const { code, stdout, stderr } = await run(...args);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return stdout;
}

const COMMANDS = ['verify', 'reindex', 'jobs', 'keys', 'token', 'worker', 'export', 'import'];

describe('tree --help', () => {
  it('lists the commands, as a real process prints them', async () => {
    const help = await tree('--help');
    for (const command of COMMANDS) expect(help).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(await tree('-h')).toBe(help);
    expect(await tree('help')).toBe(help);
    expect(execFileSync(process.execPath, args('--help'), OPTIONS)).toBe(help);
  });

  it('prints the version', async () => {
    expect(await tree('--version')).toMatch(/^canopy \d+\.\d+\.\d+\n$/);
  });

  it.each(COMMANDS)('explains %s with its own help', async (command) => {
    const help = await tree(command, '--help');
    expect(help).toMatch(new RegExp(`^npm run (-s )?tree -- ${command}`));
    expect(await tree('help', command)).toBe(help);
    expect(await tree(command, '-h')).toBe(help);
  });

  it('explains keys create, list and revoke with the help of keys', async () => {
    const help = await tree('keys', '--help');
    for (const action of ['create', 'list', 'revoke']) expect(await tree('keys', action, '--help')).toBe(help);
  });
});

describe('tree with a mistake', () => {
  it('names an unknown command and suggests the nearest, then the usage, exit code 2', async () => {
    const refused = await run('imprt');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^error: unknown command 'imprt'\n\(Did you mean import\?\)\nusage: npm run tree -- /,
    );
    expect((await run('keys', 'crate')).stderr).toContain("unknown command 'crate'\n(Did you mean create?)");
    // The same from a real process, with its exit code.
    const spawned = spawnSync(process.execPath, args('imprt'), OPTIONS);
    expect({ code: spawned.status, stdout: spawned.stdout, stderr: spawned.stderr }).toEqual(refused);
  });

  it('names an unknown option and suggests the nearest, exit code 2', async () => {
    const refused = await run('verify', '--stratgy', 'x');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: unknown option '--stratgy'\n\(Did you mean --strategy\?\)\n/);
  });

  it('prints the usage, exit code 2, when given no command', async () => {
    const refused = await run();
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^usage: npm run tree -- verify /);
  });
});
