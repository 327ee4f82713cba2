import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** `npm run tree -- --help` (and per command): help on stdout, exit 0, nothing started. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tree = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/tree.ts', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    // Would fail if the help tried to open a table.
    env: { ...process.env, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9', DYNAMODB_REQUEST_TIMEOUT_MS: '10' },
  });

describe('tree --help', () => {
  it('lists the commands', () => {
    const help = tree('--help');
    for (const command of ['verify', 'reindex', 'jobs']) expect(help).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(tree('-h')).toBe(help);
    expect(tree('help')).toBe(help);
  });

  it('prints the version', () => {
    expect(tree('--version')).toMatch(/^canopy \d+\.\d+\.\d+\n$/);
  });

  it.each(['verify', 'reindex', 'jobs'])('explains %s', (command) => {
    const help = tree(command, '--help');
    expect(help).toMatch(new RegExp(`^npm run tree -- ${command}`));
    expect(tree('help', command)).toBe(help);
  });
});
