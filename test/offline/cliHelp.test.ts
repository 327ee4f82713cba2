import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `npm run tree -- --help` (and per command): help on stdout, exit 0, nothing started. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ARGS = ['--import', 'tsx', 'src/cli/tree.ts'];
const OPTIONS = {
  cwd: REPO_ROOT,
  encoding: 'utf8',
  // Would fail if the help tried to open a table.
  env: { ...process.env, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', DYNAMODB_REQUEST_TIMEOUT_MS: '10' },
} as const;
const tree = (...args: string[]) => execFileSync(process.execPath, [...ARGS, ...args], OPTIONS);
/** A run expected to fail: its exit code and stderr. */
const refused = (...args: string[]) => {
  const run = spawnSync(process.execPath, [...ARGS, ...args], OPTIONS);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
};

const COMMANDS = ['verify', 'reindex', 'jobs', 'keys', 'token', 'worker', 'export', 'import'];

describe('tree --help', () => {
  it('lists the commands', () => {
    const help = tree('--help');
    for (const command of COMMANDS) expect(help).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(tree('-h')).toBe(help);
    expect(tree('help')).toBe(help);
  });

  it('prints the version', () => {
    expect(tree('--version')).toMatch(/^canopy \d+\.\d+\.\d+\n$/);
  });

  it.each(COMMANDS)('explains %s with its own help', (command) => {
    const help = tree(command, '--help');
    expect(help).toMatch(new RegExp(`^npm run (-s )?tree -- ${command}`));
    expect(tree('help', command)).toBe(help);
    expect(tree(command, '-h')).toBe(help);
  });

  it('explains keys create, list and revoke with the help of keys', () => {
    const help = tree('keys', '--help');
    for (const action of ['create', 'list', 'revoke']) expect(tree('keys', action, '--help')).toBe(help);
  });
});

describe('tree with a mistake', () => {
  it('names an unknown command and suggests the nearest, then the usage, exit code 2', () => {
    const run = refused('imprt');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: unknown command 'imprt'\n\(Did you mean import\?\)\nusage: npm run tree -- /);
    expect(refused('keys', 'crate').stderr).toContain("unknown command 'crate'\n(Did you mean create?)");
  });

  it('names an unknown option and suggests the nearest, exit code 2', () => {
    const run = refused('verify', '--stratgy', 'x');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: unknown option '--stratgy'\n\(Did you mean --strategy\?\)\n/);
  });

  it('prints the usage, exit code 2, when given no command', () => {
    const run = refused();
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^usage: npm run tree -- verify /);
  });
});
